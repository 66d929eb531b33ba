// The Pontoon table in the browser. It signs in through the Embedded App SDK (the real
// client inside Discord, its mock outside), opens the socket and draws every `state`
// the server sends. Every word on the page comes from the state: `words` (the catalog's
// web.* keys in the member's language) or the table's own texts and labels.
//
// Reading order: main (sign-in and start), Connection (the socket, reconnects and the
// exactly-once nonces), render (one state onto the page), then the small builders.
import { DiscordSDK, DiscordSDKMock } from "./vendor/discord-sdk.js";
import { Channel, post, renderLines, refreshTimes } from "./channel.js";

const $ = (id) => document.getElementById(id);

let words = {};
let lang = "en";

// t returns the words for key, filling {name} slots from vars. A missing key shows
// itself, so a gap in a catalog is seen rather than hidden.
export function t(key, vars) {
  let s = words[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return s;
}

// intlLang is the locale for the browser's number and time formats. Browsers have no
// Sundanese data, and the catalog writes Sundanese numbers the Indonesian way.
function intlLang() {
  return lang === "su" ? "id" : lang;
}

function number(n) {
  return new Intl.NumberFormat(intlLang()).format(n);
}

// A nonce per action lets the server apply it once however often it is sent.
function nonce() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---- sign-in ----------------------------------------------------------------------

class AuthError extends Error {}

async function postJSON(path, body) {
  const data = await post(path, body);
  if (data.error) throw new AuthError(data.error);
  return data;
}

// Auth turns the SDK's authorization into a session of ours; session() is called again
// whenever the server says the last one expired.
class Auth {
  constructor(config, params) {
    this.config = config;
    this.user = params.get("user") || "";
    if (params.has("frame_id")) {
      this.sdk = new DiscordSDK(config.client_id);
    } else {
      this.sdk = new DiscordSDKMock(config.client_id, params.get("guild_id"), params.get("channel_id"), null);
    }
    this.ready = this.sdk.ready();
  }

  async session() {
    let code;
    try {
      await this.ready;
      ({ code } = await this.sdk.commands.authorize({
        client_id: this.config.client_id,
        response_type: "code",
        state: "",
        prompt: "none",
        scope: ["identify"],
      }));
    } catch (err) {
      // Discord refused (the member declined, or the page runs outside an Activity):
      // asking again in a loop would only repeat Discord's prompt.
      console.error("authorize", err);
      throw new AuthError(err?.message || "");
    }
    const body = { code, instance_id: this.sdk.instanceId };
    let path = "api/session";
    if (this.config.demo) {
      body.user = this.user;
      path += "?user=" + encodeURIComponent(this.user);
    }
    const data = await postJSON(path, body);
    if (!this.config.demo && data.access_token) {
      await this.sdk.commands.authenticate({ access_token: data.access_token });
    }
    return data.session;
  }
}

// ---- the socket -------------------------------------------------------------------

const backoff = [500, 1000, 2000, 4000, 8000, 15000];

// Connection keeps one socket open, says hello with the session, and reopens it with
// growing pauses after a drop. Close code 4001 means the session is no longer good: it
// signs in again first. Actions still waiting for their result are sent again after a
// reconnect with the same nonce, which the server applies at most once.
class Connection {
  constructor(auth, handlers) {
    this.auth = auth;
    this.handlers = handlers;
    this.session = "";
    this.attempt = 0;
    this.pending = new Map(); // nonce -> {frame, at}
    this.ws = null;
  }

  async open() {
    if (!this.session) {
      try {
        this.session = await this.auth.session();
      } catch (err) {
        if (err instanceof AuthError) {
          this.handlers.fatal(err.message);
          return;
        }
        this.retry();
        return;
      }
    }
    const url = new URL("api/socket", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url);
    this.ws = ws;
    let greeted = false;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", session: this.session }));
      this.handlers.up();
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "state") {
        this.attempt = 0;
        this.handlers.state(msg);
        if (!greeted) {
          greeted = true;
          this.resend();
        }
      } else if (msg.type === "result" || msg.type === "modal") {
        this.pending.delete(msg.nonce);
        this.handlers[msg.type](msg);
      } else if (msg.type === "error") {
        // A refused action (rate limited, not offered) is answered for good.
        if (msg.nonce) this.pending.delete(msg.nonce);
        this.handlers.error(msg);
      }
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4001) this.session = "";
      this.handlers.down();
      this.retry();
    };
  }

  retry() {
    const base = backoff[Math.min(this.attempt, backoff.length - 1)];
    this.attempt++;
    setTimeout(() => this.open(), base / 2 + Math.random() * base);
  }

  // send delivers an action now if the socket is up, and remembers it until its answer
  // comes so a drop in between does not lose it.
  send(frame) {
    frame.nonce = nonce();
    this.pending.set(frame.nonce, { frame, at: Date.now(), sends: 1 });
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
    return frame.nonce;
  }

  resend() {
    for (const [n, p] of this.pending) {
      // An action older than this was made against a table long gone, and one already
      // sent twice may be what breaks the connection: either is dropped rather than
      // replayed again.
      if (Date.now() - p.at > 20000 || p.sends >= 2) {
        this.pending.delete(n);
        continue;
      }
      p.sends++;
      this.ws.send(JSON.stringify(p.frame));
    }
  }
}

// ---- cards ------------------------------------------------------------------------

const ranks = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };

// cardName is a card in words, for screen readers: "Ace of spades".
export function cardName(code) {
  return t("web.card.name", { rank: t("web.card.rank." + code[0]), suit: t("web.card.suit." + code[1]) });
}

function cardLabel(c) {
  if (!c.card) return t("web.card.down");
  return c.down ? t("web.card.hidden", { card: cardName(c.card) }) : cardName(c.card);
}

function svgUse(id, cls) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(ns, "use");
  use.setAttribute("href", "#" + id);
  svg.append(use);
  return svg;
}

// cardEl draws one card as a list item whose only readable text is the card in words;
// the corners and the pip are pictures hidden from screen readers.
function cardEl(c, key) {
  const el = document.createElement("li");
  el.className = "card";
  // Only a card that was not there before slides in; the rest are redrawn still.
  dealt.add(key);
  if (!shown.has(key)) el.classList.add("card-new");
  const name = document.createElement("span");
  name.className = "sr-only";
  name.textContent = cardLabel(c);
  el.append(name);
  if (!c.card) {
    el.classList.add("card-back");
    return el;
  }
  const suit = c.card[1];
  el.classList.add(suit === "H" || suit === "D" ? "red" : "black");
  if (c.down) el.classList.add("card-hidden");
  const rank = ranks[c.card[0]] || c.card[0];
  for (const pos of ["tl", "br"]) {
    const corner = document.createElement("span");
    corner.className = "corner " + pos;
    corner.setAttribute("aria-hidden", "true");
    corner.append(rank, svgUse("suit-" + suit, "pip"));
    el.append(corner);
  }
  el.append(svgUse("suit-" + suit, "face"));
  return el;
}

// shown holds the cards drawn by the last state, dealt those of the state being drawn,
// each as seat|hand|position|card.
let shown = new Set();
let dealt = new Set();

function handEl(hand, index, count, seat) {
  const box = document.createElement("div");
  box.className = "hand";
  if (hand.turn) box.classList.add("hand-turn");
  if (hand.tone) box.dataset.tone = hand.tone;
  if (count > 1) {
    const h = document.createElement("p");
    h.className = "hand-label";
    h.textContent = t("web.hand_n", { n: index + 1 });
    box.append(h);
  }
  const cards = document.createElement("ul");
  cards.className = "cards";
  cards.setAttribute("aria-label", t("web.cards"));
  (hand.cards || []).forEach((c, i) => cards.append(cardEl(c, `${seat}|${index}|${i}|${c.card || ""}`)));
  box.append(cards);
  const notes = [hand.stake_text, hand.result].filter(Boolean);
  if (notes.length) {
    const p = document.createElement("p");
    p.className = "hand-note";
    p.textContent = notes.join(" · ");
    box.append(p);
  }
  return box;
}

// ---- actions ----------------------------------------------------------------------

let busyUntil = 0;

// component builds a button or a select as the state describes it; act is called with
// the chosen values (none for a button). keyPrefix keeps focus on the same control
// across redraws.
function component(c, act, keyPrefix = "") {
  if (c.kind === "select") return selectEl(c, act, keyPrefix);
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn btn-" + (c.style || 2);
  b.dataset.focusKey = keyPrefix + c.id;
  b.disabled = !!c.disabled;
  if (c.emoji) {
    const e = document.createElement("span");
    e.className = "emoji";
    e.setAttribute("aria-hidden", "true");
    e.textContent = c.emoji;
    b.append(e, " ");
  }
  b.append(c.label || "");
  b.addEventListener("click", () => act());
  return b;
}

// selectEl draws a select menu. A short one (the usual amounts) becomes a row of
// buttons under its placeholder: one tap on a phone, and no risk of a keyboard user's
// arrow key choosing for them, as a native <select> that acted on "change" would.
function selectEl(c, act, keyPrefix) {
  const multi = (c.max || 1) > 1;
  const options = c.options || [];
  const box = document.createElement("fieldset");
  box.className = "select";
  box.disabled = !!c.disabled;
  const legend = document.createElement("legend");
  legend.textContent = c.placeholder || "";
  box.append(legend);
  if (!multi && options.length <= 8) {
    for (const o of options) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn btn-2 option";
      b.dataset.focusKey = keyPrefix + c.id + "=" + o.value;
      b.append(o.label);
      if (o.description) {
        const d = document.createElement("small");
        d.textContent = o.description;
        b.append(d);
      }
      b.addEventListener("click", () => act([o.value]));
      box.append(b);
    }
    return box;
  }
  const sel = document.createElement("select");
  sel.dataset.focusKey = keyPrefix + c.id;
  sel.multiple = multi;
  sel.setAttribute("aria-label", c.placeholder || "");
  for (const o of options) {
    const opt = document.createElement("option");
    opt.value = o.value;
    opt.textContent = o.description ? `${o.label} — ${o.description}` : o.label;
    if (o.default) opt.selected = true;
    sel.append(opt);
  }
  const go = document.createElement("button");
  go.type = "button";
  go.className = "btn btn-1";
  go.textContent = t("web.choose");
  go.addEventListener("click", () => {
    const v = [...sel.selectedOptions].map((o) => o.value);
    if (v.length >= (c.min ?? 1) && v.length <= (c.max || 1)) act(v);
  });
  box.append(sel, go);
  return box;
}

// drawActions replaces the controls in box unless they are the same as last time, so a
// state that changes something else does not steal the keyboard focus or close an open
// select.
function drawActions(box, list, act, keyPrefix) {
  const json = JSON.stringify(list || []);
  if (box.dataset.json === json) return;
  box.dataset.json = json;
  const focusKey = document.activeElement?.dataset?.focusKey;
  box.replaceChildren(...(list || []).map((c) => component(c, (values) => act(c, values), keyPrefix)));
  if (focusKey) box.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
}

// ---- toasts, announcements, the modal ---------------------------------------------

function toast(text, ok) {
  if (!text) return;
  const box = $("toasts");
  const el = document.createElement("div");
  el.className = "toast " + (ok ? "toast-ok" : "toast-bad");
  const p = document.createElement("p");
  p.textContent = text;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.setAttribute("aria-label", t("web.close"));
  close.textContent = "×";
  close.addEventListener("click", () => el.remove());
  el.append(p, close);
  box.append(el);
  while (box.children.length > 3) box.firstElementChild.remove();
  setTimeout(() => el.remove(), ok ? 5000 : 8000);
}

// announce adds a line to the live region. Lines are added, not replaced, so a state
// that follows at once does not cut off the one before it; old lines leave quietly.
function announce(text) {
  if (!text) return;
  const el = $("announce");
  const p = document.createElement("p");
  p.textContent = text;
  el.append(p);
  while (el.children.length > 4) el.firstElementChild.remove();
  setTimeout(() => p.remove(), 15000);
}

// openModal shows a form for the inputs and calls submit with {input id: value}.
function openModal(modal, submit) {
  const dlg = $("modal");
  $("modal-title").textContent = modal.title || "";
  const box = $("modal-inputs");
  box.replaceChildren();
  for (const [i, input] of (modal.inputs || []).entries()) {
    const id = "modal-in-" + i;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = input.label || "";
    const el = document.createElement("input");
    el.id = id;
    el.name = input.id;
    el.type = "text";
    el.autocomplete = "off";
    el.enterKeyHint = "done";
    if (/^\d*$/.test(input.value || "") && /\d/.test(input.placeholder || "")) el.inputMode = "numeric";
    el.placeholder = input.placeholder || "";
    el.value = input.value || "";
    if (input.required) el.required = true;
    if (input.min_length) el.minLength = input.min_length;
    if (input.max_length) el.maxLength = input.max_length;
    box.append(label, el);
  }
  $("modal-cancel").textContent = t("web.modal.cancel");
  $("modal-submit").textContent = t("web.modal.submit");
  const form = $("modal-form");
  form.onsubmit = (ev) => {
    ev.preventDefault();
    if (!form.reportValidity()) return;
    const fields = {};
    for (const el of box.querySelectorAll("input")) fields[el.name] = el.value.trim();
    dlg.close();
    submit(fields);
  };
  $("modal-cancel").onclick = () => dlg.close();
  dlg.showModal();
  box.querySelector("input")?.select();
}

// ---- drawing a state --------------------------------------------------------------

let last = null;
let conn = null;
let channel = null;

function act(frame) {
  busyUntil = Date.now() + 4000;
  document.body.classList.add("busy");
  conn.send(frame);
}

function settle() {
  busyUntil = 0;
  document.body.classList.remove("busy");
}

function onAction(c, values) {
  if (busyUntil > Date.now()) return;
  if (c.kind === "select") act({ type: "select", id: c.id, values });
  else act({ type: "click", id: c.id });
}

function mySeat(table) {
  return table?.seats?.find((s) => s.me) || null;
}

function render(state) {
  const prev = last;
  last = state;
  words = state.words || words;
  lang = state.lang || lang;
  document.documentElement.lang = lang;
  document.title = state.table?.title || t("web.title");
  $("app").removeAttribute("aria-busy");
  $("spinner").hidden = true;
  $("status").textContent = "";

  const table = state.table;
  $("title").textContent = table?.title || t("web.title");
  $("phase").textContent = table?.phase || "";
  $("felt").hidden = false;
  $("no-table").hidden = !!table;
  $("no-table").textContent = table ? "" : t("web.no_table");

  dealt = new Set();
  drawPots(table);
  drawSeats(table);
  renderLines($("table-text"), table?.text, intlLang());

  const mine = mySeat(table);
  $("mine").hidden = !mine;
  $("mine-label").textContent = mine?.turn ? t("web.your_turn") : t("web.your_hand");
  $("mine").classList.toggle("turn", !!mine?.turn);
  const hands = $("my-hands");
  hands.replaceChildren(...(mine?.hands || []).map((h, i, all) => handEl(h, i, all.length, mine.name)));
  if (mine && !mine.hands?.length) {
    const p = document.createElement("p");
    p.className = "hand-note";
    p.textContent = t("web.no_cards");
    hands.append(p);
  }

  shown = dealt;

  const panel = state.panel;
  $("panel").hidden = !panel;
  $("panel-label").textContent = t("web.your_actions");
  renderLines($("panel-text"), panel?.text, intlLang());
  drawActions($("panel-actions"), panel?.actions, onAction, "p:");

  const actions = table?.actions || [];
  $("table-actions-box").hidden = !actions.length;
  $("table-actions-label").textContent = t("web.table_actions");
  drawActions($("table-actions"), actions, onAction, "t:");

  if (channel) channel.words();
  tell(prev, state);
  tick();
  channel?.refresh();
}

function drawPots(table) {
  const pot = (id, show, label, value) => {
    const el = $(id);
    el.hidden = !show;
    el.querySelector("dt").textContent = label || "";
    el.querySelector("dd").textContent = show ? number(value || 0) : "";
  };
  // Before the first deal the table has no bank to count yet: a 0 there would read as
  // an empty bank.
  pot("bank", !!table && table.round > 0, table?.labels?.bank, table?.bank);
  pot("kitty", !!table?.show_kitty, table?.labels?.kitty, table?.kitty);
}

function drawSeats(table) {
  $("seats-label").textContent = t("web.players");
  const list = $("seats");
  list.replaceChildren();
  for (const seat of table?.seats || []) {
    if (seat.me) continue;
    const li = document.createElement("li");
    li.className = "seat";
    if (seat.turn) li.classList.add("seat-turn");
    if (seat.banker) li.classList.add("seat-banker");
    const name = document.createElement("p");
    name.className = "seat-name";
    const strong = document.createElement("strong");
    strong.textContent = seat.name;
    name.append(strong);
    if (seat.banker) name.append(" ", badge(table.labels?.banker, "badge-banker"));
    if (seat.turn) name.append(" ", badge(table.labels?.turn, "badge-turn"));
    li.append(name);
    const all = seat.hands || [];
    all.forEach((h, i) => li.append(handEl(h, i, all.length, seat.name)));
    list.append(li);
  }
}

function badge(text, cls) {
  const b = document.createElement("span");
  b.className = "badge " + cls;
  b.textContent = text || "";
  return b;
}

// tell puts what changed for this member into the live region: the phase, a turn that
// became theirs, cards that arrived in their hand, their hands' results.
function tell(prev, state) {
  const said = [];
  const a = prev?.table;
  const b = state.table;
  if (b && (a?.id !== b.id || a?.phase !== b.phase) && b.phase) said.push(b.phase);
  if (!b && a) said.push(t("web.no_table"));
  const was = mySeat(a);
  const now = mySeat(b);
  if (now?.turn && !was?.turn) said.push(t("web.your_turn"));
  const cards = (s) => (s?.hands || []).flatMap((h) => (h.cards || []).filter((c) => c.card).map((c) => c.card));
  if (now && a?.id === b?.id) {
    // A multiset difference: with several packs the same card can come twice.
    const before = cards(was);
    const fresh = cards(now).filter((c) => {
      const i = before.indexOf(c);
      if (i < 0) return true;
      before.splice(i, 1);
      return false;
    });
    if (fresh.length) said.push(t("web.you_drew", { cards: fresh.map(cardName).join(", ") }));
  } else if (now && cards(now).length) {
    said.push(t("web.your_cards", { cards: cards(now).map(cardName).join(", ") }));
  }
  const results = (s) => (s?.hands || []).map((h) => h.result).filter(Boolean).join(" · ");
  if (now && results(now) && results(now) !== results(was)) said.push(results(now));
  announce(said.join(". "));
}

// tick shows the time left to the table's deadline, once a second.
let tickTimer = 0;
function tick() {
  clearTimeout(tickTimer);
  const clock = $("clock");
  const deadline = last?.table?.deadline || 0;
  const left = Math.ceil((deadline - Date.now()) / 1000);
  if (!deadline || left < 0) {
    clock.hidden = true;
    return;
  }
  clock.hidden = false;
  clock.querySelector(".clock-label").textContent = t("web.time_left");
  const m = Math.floor(left / 60);
  const s = String(left % 60).padStart(2, "0");
  const time = clock.querySelector("time");
  time.textContent = `${m}:${s}`;
  time.dateTime = `PT${left}S`;
  clock.classList.toggle("clock-low", left <= 10);
  refreshTimes($("table-text"));
  refreshTimes($("panel-text"));
  // The shown second changes when the time left crosses a whole second.
  tickTimer = setTimeout(tick, (deadline - Date.now()) % 1000 || 1000);
}

// fatal stops the page with the server's (or Discord's) words for why.
function fatal(text) {
  $("spinner").hidden = true;
  $("app").removeAttribute("aria-busy");
  $("fatal").hidden = !text;
  $("fatal").textContent = text;
}

// ---- start ------------------------------------------------------------------------

// Demo players without a name in the URL get one, kept in the URL so a reload is the
// same member.
const demoNames = ["Ana", "Budi", "Citra", "Dewi", "Eka", "Filipa", "Gosia", "Hana", "Iwan", "Joana", "Kasia", "Lia"];

async function main() {
  const params = new URLSearchParams(location.search);
  let config;
  try {
    const res = await fetch("api/config", { cache: "no-store" });
    config = await res.json();
  } catch {
    setTimeout(main, 2000);
    return;
  }
  if (config.demo && !params.get("user")) {
    params.set("user", demoNames[Math.floor(Math.random() * demoNames.length)] + Math.floor(10 + Math.random() * 90));
    history.replaceState(null, "", "?" + params.toString());
  }
  let auth;
  try {
    auth = new Auth(config, params);
  } catch (err) {
    // The SDK throws when Discord's launch parameters are incomplete.
    console.error("sdk", err);
    fatal(err?.message || "");
    return;
  }
  const ui = { t, get lang() { return intlLang(); }, component, openModal, toast, changed: () => channel?.refresh() };
  if (config.demo) channel = new Channel($("channel"), auth.user, ui);
  document.body.classList.toggle("demo", !!config.demo);

  conn = new Connection(auth, {
    state: render,
    result(msg) {
      settle();
      if (msg.text) toast(msg.text, msg.ok);
    },
    modal(msg) {
      settle();
      openModal(msg.modal, (fields) => act({ type: "submit", id: msg.modal.id, fields }));
    },
    error(msg) {
      settle();
      if (msg.code !== "expired" && msg.code !== "bad_session") toast(msg.text, false);
    },
    up() {
      if (last) $("status").textContent = t("web.connecting");
    },
    down() {
      settle();
      $("status").textContent = last ? t("web.reconnecting") : "";
    },
    fatal,
  });
  conn.open();
}

main();
