// Bundles the Embedded App SDK into ../static/vendor/discord-sdk.js (one minified ES
// module) and writes the licences of every package inside it to
// ../static/vendor/LICENSES.txt. Run with `npm ci && npm run build` in this folder; the Go
// test TestSDKBundleMatchesItsSources in package web does the same in a copy and compares.
import { build } from "esbuild";
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, process.argv[2] || "../static/vendor");
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [join(here, "entry.mjs")],
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2020",
  platform: "browser",
  legalComments: "none",
  charset: "utf8",
  metafile: true,
  write: false,
  // The page is served as is, so no map file points at sources nobody serves.
  sourcemap: false,
});
const code = result.outputFiles[0].contents;
writeFileSync(join(out, "discord-sdk.js"), code);

// Every package with code in the bundle. The SDK ships its dependencies copied into
// output/lib/<name>, so those count as well as anything resolved from node_modules; their
// licence texts come from the same packages, which npm installs as the SDK's dependencies.
const packages = new Set();
const inputs = Object.values(result.metafile.outputs)[0].inputs;
for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
  if (bytesInOutput === 0) continue;
  const vendored = input.match(/embedded-app-sdk\/output\/lib\/((?:@[^/]+\/)?[^/]+)\//);
  const direct = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (vendored) packages.add(vendored[1]);
  else if (direct) packages.add(direct[1]);
}
let text = "Licences of the packages bundled into discord-sdk.js\n";
for (const name of [...packages].sort()) {
  const dir = join(here, "node_modules", name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).filter((f) => /^(licen[cs]e|copying)/i.test(f)).sort()[0];
  if (!file) throw new Error(`${name} has no licence file`);
  text += `\n${"=".repeat(72)}\n${name} (${pkg.license}; text from ${name}@${pkg.version})\n${"=".repeat(72)}\n\n`;
  text += readFileSync(join(dir, file), "utf8").trim() + "\n";
}
writeFileSync(join(out, "LICENSES.txt"), text);
console.log(`discord-sdk.js ${code.length} bytes; ${packages.size} packages: ${[...packages].sort().join(", ")}`);
