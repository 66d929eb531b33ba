package web

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The committed bundle and its licences are exactly what web/sdk builds from its locked
// sources, so nobody can edit the minified file by hand or forget to rebuild it after a
// version change.
func TestSDKBundleMatchesItsSources(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("npm is needed to rebuild the SDK bundle: %v", err)
		}
		t.Skipf("npm is not installed, so the SDK bundle cannot be rebuilt: %v", err)
	}
	node, err := exec.LookPath("node")
	require.NoError(t, err, "npm without node")

	dir := filepath.Join(t.TempDir(), "sdk")
	require.NoError(t, os.Mkdir(dir, 0o755))
	for _, name := range []string{"package.json", "package-lock.json", "build.mjs", "entry.mjs"} {
		b, err := os.ReadFile(filepath.Join("sdk", name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	out := filepath.Join(t.TempDir(), "vendor")
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %v:\n%s", name, args, b)
	}
	run(npm, "ci", "--prefer-offline", "--no-audit", "--no-fund")
	run(node, "build.mjs", out)

	for _, name := range []string{"discord-sdk.js", "LICENSES.txt"} {
		want, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join("static", "vendor", name))
		require.NoError(t, err)
		if !bytes.Equal(want, got) {
			t.Errorf("static/vendor/%s differs from what web/sdk builds (%d bytes built, %d committed): run `npm ci && npm run build` in web/sdk", name, len(want), len(got))
		}
	}
}
