// The demo's fake Discord channel, drawn plainly beside the felt: the messages the fake
// holds (the table message with its picture and buttons, and this member's own ephemeral
// replies), with buttons that click through /demo/click. It also owns the Discord
// markdown-lite that the table's and the panel's text lines use (renderLines).

// renderLines writes Discord markdown-lite lines into el as DOM nodes (never as HTML):
// "## heading", "-# small print", "**bold**", "*italic*", "`code`", timestamps <t:…:R> as relative time in
// lang, mentions and custom emoji as plain words.
export function renderLines(el, lines, lang) {
  el.replaceChildren();
  for (const line of lines || []) {
    const m = /^(#{1,3})\s+(.*)$/.exec(line);
    const sub = /^-#\s+(.*)$/.exec(line);
    const node = document.createElement(m ? "h" + Math.min(m[1].length + 2, 6) : "p");
    node.className = m ? "md-h" : sub ? "md-p md-sub" : "md-p";
    inline(node, m ? m[2] : sub ? sub[1] : line, lang);
    if (!m && line.trim() === "") node.classList.add("md-gap");
    el.append(node);
  }
}

const tokens = /\*\*(.+?)\*\*|__(.+?)__|\*(.+?)\*|`([^`]+)`|<t:(-?\d+)(?::([tTdDfFR]))?>|<@!?(\d+)>|<@&(\d+)>|<#(\d+)>|<a?:(\w+):\d+>|<\/([^:>]+):\d+>|^>\s?/g;

function inline(parent, text, lang) {
  let last = 0;
  for (const m of text.matchAll(tokens)) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] !== undefined) parent.append(wrap("strong", m[1], lang));
    else if (m[2] !== undefined) parent.append(wrap("u", m[2], lang));
    else if (m[3] !== undefined) parent.append(wrap("em", m[3], lang));
    else if (m[4] !== undefined) parent.append(wrap("code", m[4], lang, true));
    else if (m[5] !== undefined) parent.append(timestamp(Number(m[5]), m[6] || "f", lang));
    else if (m[7] !== undefined) parent.append(chip("@" + m[7]));
    else if (m[8] !== undefined) parent.append(chip("@" + m[8]));
    else if (m[9] !== undefined) parent.append(chip("#" + m[9]));
    else if (m[10] !== undefined) parent.append(":" + m[10] + ":");
    else if (m[11] !== undefined) parent.append(chip("/" + m[11]));
  }
  if (last < text.length) parent.append(text.slice(last));
}

function wrap(tag, text, lang, plain) {
  const el = document.createElement(tag);
  if (plain) el.textContent = text;
  else inline(el, text, lang);
  return el;
}

function chip(text) {
  const el = document.createElement("span");
  el.className = "md-mention";
  el.textContent = text;
  return el;
}

// timestamp shows a Discord <t:unix:style> the way the reader's client would: relative
// ("in 20 seconds") for :R, a date or time otherwise. Relative ones are kept fresh by
// refreshTimes.
function timestamp(unix, style, lang) {
  const el = document.createElement("time");
  el.dateTime = new Date(unix * 1000).toISOString();
  el.dataset.unix = String(unix);
  el.dataset.style = style;
  el.textContent = formatTime(unix, style, lang);
  el.lang = lang;
  return el;
}

function formatTime(unix, style, lang) {
  const when = new Date(unix * 1000);
  if (style === "R") {
    const s = Math.round((unix * 1000 - Date.now()) / 1000);
    const rtf = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
    const a = Math.abs(s);
    if (a < 60) return rtf.format(s, "second");
    if (a < 3600) return rtf.format(Math.round(s / 60), "minute");
    if (a < 86400) return rtf.format(Math.round(s / 3600), "hour");
    return rtf.format(Math.round(s / 86400), "day");
  }
  const opts = {
    t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" },
    D: { dateStyle: "long" }, f: { dateStyle: "long", timeStyle: "short" }, F: { dateStyle: "full", timeStyle: "short" },
  }[style];
  return new Intl.DateTimeFormat(lang, opts).format(when);
}

// refreshTimes rewrites every relative timestamp under root.
export function refreshTimes(root) {
  for (const el of root.querySelectorAll("time[data-style='R']")) {
    el.textContent = formatTime(Number(el.dataset.unix), "R", el.lang);
  }
}

// post sends body as JSON and returns the answer's JSON; a refusal carries the server's
// words in error (or the HTTP status when it sent none).
export async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  let data = {};
  try {
    data = await res.json();
  } catch {
    data = {};
  }
  if (!res.ok && !data.error) data.error = String(res.status);
  return data;
}

// Channel polls the demo channel and draws it into the page's aside. ui carries what it
// shares with the page: t (the words), lang, component (builds a button or a select the
// same way the felt does), openModal, toast, and changed (asks the page to refresh).
export class Channel {
  constructor(root, user, ui) {
    this.root = root;
    this.user = user;
    this.ui = ui;
    this.list = root.querySelector("#channel-messages");
    this.addButton = root.querySelector("#add-player");
    this.last = "";
    this.timer = 0;
    this.loading = false;
    this.again = false;
    this.addButton.addEventListener("click", () => this.addPlayer());
  }

  // words relabels the chrome in the member's language.
  words() {
    const { t } = this.ui;
    this.root.querySelector("#channel-label").textContent = t("web.demo.channel");
    this.addButton.textContent = t("web.demo.add_player");
    this.root.hidden = false;
  }

  // refresh loads the channel now and again every few seconds; a state change calls it
  // too, so a click shows its effect at once.
  // One load at a time: a refresh asked for meanwhile runs right after it, so there
  // is never more than one poll loop.
  async refresh() {
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = true;
    clearTimeout(this.timer);
    try {
      const res = await fetch("demo/channel?user=" + encodeURIComponent(this.user), { cache: "no-store" });
      if (res.ok) this.draw(await res.json());
    } catch {
      // The next poll tries again; the socket's own status tells the member about outages.
    }
    refreshTimes(this.list);
    this.loading = false;
    if (this.again) {
      this.again = false;
      this.refresh();
      return;
    }
    this.timer = setTimeout(() => this.refresh(), 3000);
  }

  draw(data) {
    const json = JSON.stringify(data.messages || []);
    if (json === this.last) return;
    this.last = json;
    const { t, lang } = this.ui;
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    const focusKey = document.activeElement?.dataset?.focusKey;
    this.list.replaceChildren();
    for (const msg of data.messages || []) {
      const li = document.createElement("li");
      li.className = "msg" + (msg.private ? " msg-private" : "");
      const head = document.createElement("p");
      head.className = "msg-author";
      const who = document.createElement("strong");
      who.textContent = msg.author || "";
      head.append(who);
      if (msg.private) {
        const note = document.createElement("span");
        note.className = "msg-note";
        note.textContent = t("web.demo.only_you");
        head.append(" ", note);
      }
      li.append(head);
      const body = document.createElement("div");
      body.className = "msg-text";
      renderLines(body, msg.text, lang);
      li.append(body);
      if (msg.image) {
        const img = document.createElement("img");
        img.src = msg.image;
        img.alt = t("web.demo.picture");
        img.loading = "lazy";
        img.decoding = "async";
        li.append(img);
      }
      if (msg.components?.length) {
        const row = document.createElement("div");
        row.className = "actions actions-small";
        for (const c of msg.components) {
          row.append(this.ui.component(c, (values) => this.click(msg.id, c.id, values), "ch:" + msg.id + ":"));
        }
        li.append(row);
      }
      this.list.append(li);
    }
    if (focusKey) this.list.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  async click(message, id, values) {
    const body = { user: this.user, message, id };
    if (values) body.values = values;
    try {
      const data = await post("demo/click", body);
      if (data.error) this.ui.toast(data.error, false);
      else if (data.modal) {
        this.ui.openModal(data.modal, async (fields) => {
          const r = await post("demo/submit", { user: this.user, id: data.modal.id, fields });
          if (r.error) this.ui.toast(r.error, false);
          this.ui.changed();
        });
      }
    } catch {
      this.ui.toast(this.ui.t("web.error.network"), false);
    }
    this.ui.changed();
  }

  async addPlayer() {
    this.addButton.disabled = true;
    try {
      const data = await post("demo/seats", { count: 1 });
      if (data.error) this.ui.toast(data.error, false);
    } catch {
      this.ui.toast(this.ui.t("web.error.network"), false);
    }
    this.addButton.disabled = false;
    this.ui.changed();
  }
}
