// The browser table: a name and a token (kept in localStorage, so a reload or a dropped connection
// comes back to the same seat), a lobby, and the table, speaking only the server's public HTTP +
// WebSocket contract (docs/server.md).

import { DEFAULT_SHAPE, TableModel } from "./model.js";
import { sortTiles } from "./tiles.js";
import { renderReport, renderTable } from "./view.js";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "xueliu.token";
const EXCHANGE_NOTICE_MS = 8000; // how long the exchange's gave / received line stays

const app = {
  token: localStorage.getItem(TOKEN_KEY),
  me: null,
  ws: null,
  model: null,
  request: null,
  names: {},
  rules: null, // the table's Rules.to_dict() (the state message's `rules`)
  shape: DEFAULT_SHAPE, // the table's shape (the state message's `shape`, docs/rules.md §11.1)
  presets: [], // GET /api/presets: what the lobby offers
  lastHandEnd: null,
  retry: 0,
  ui: {
    selected: new Map(), // index in the drawn hand -> tile name (exchange picks)
    help: false,
    analysis: null, // {key, result}: the 查听 answer and the hand (handKey) it was asked for
    handKey: null, // the hand as it stands: an analysis of another hand is not shown
    exchangeUntil: 0, // performance.now() until which the exchange notice shows
    toggle(i, tile) {
      if (this.selected.has(i)) this.selected.delete(i);
      else if (this.selected.size < app.shape.exchange_count) this.selected.set(i, tile);
      draw();
    },
    selectedTiles() {
      return [...this.selected.values()];
    },
  },
};

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (app.token) headers.Authorization = `Bearer ${app.token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = { error: `HTTP ${res.status}` };
  }
  if (!res.ok) {
    const err = new Error((data && data.error) || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}

function show(view) {
  for (const id of ["login", "lobby", "table"]) $(id).hidden = id !== view;
}

function showMe() {
  $("who").textContent = app.me ? `${app.me.name} · coins ${app.me.coins}` : "";
}

async function refreshMe() {
  app.me = await api("GET", "/api/me");
  showMe();
  return app.me;
}

async function start() {
  $("login-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = $("name").value.trim();
    if (!name) return;
    try {
      const p = await api("POST", "/api/players", { name });
      app.token = p.token;
      localStorage.setItem(TOKEN_KEY, p.token);
      await enterLobby();
    } catch (e) {
      toast(e.message);
    }
  });
  $("rules").addEventListener("change", labelPlayButton);
  $("play-bots").addEventListener("click", async () => {
    try {
      // Bots take every seat but the creator's: a table of the preset's seats deals at once.
      await api("POST", "/api/tables", { rules: $("rules").value, bots: presetOf($("rules").value).players - 1, base: 1 });
      connect();
    } catch (e) {
      toast(e.message);
    }
  });
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const id = $("table-id").value.trim();
    if (!id) return;
    try {
      await api("POST", `/api/tables/${encodeURIComponent(id)}/join`);
      connect();
    } catch (e) {
      toast(e.message);
    }
  });
  $("help-toggle").addEventListener("change", (ev) => {
    app.ui.help = ev.target.checked;
    analyse();
    draw();
  });
  $("report-close").addEventListener("click", () => { $("report").hidden = true; });
  setInterval(tick, 250);
  if (app.token) {
    try {
      await enterLobby();
      return;
    } catch (e) {
      if (e.status !== 401) throw e;
      localStorage.removeItem(TOKEN_KEY);
      app.token = null;
    }
  }
  show("login");
}

const SUIT_LABELS = { m: "万", p: "筒", s: "条" };
const BOT_COUNTS = ["no bots", "a bot", "two bots", "three bots"];

/** The preset of that name from the server's list, or the §1–§10 table's shape. */
function presetOf(name) {
  return app.presets.find((p) => p.name === name) || { name, ...DEFAULT_SHAPE };
}

/** The lobby's preset choice: every preset the server offers (GET /api/presets), each with its
 * seats, suits, hand size and wall, the one chosen before kept chosen. */
async function showPresets() {
  try {
    app.presets = (await api("GET", "/api/presets")).presets;
  } catch {
    return; // the page's own two options stay
  }
  const select = $("rules");
  const chosen = select.value;
  const known = new Map([...select.options].map((o) => [o.value, o.textContent]));
  select.replaceChildren();
  for (const p of app.presets) {
    const suits = p.suits.map((u) => SUIT_LABELS[u]).join("");
    const shape = `${p.players} players · ${suits} ${p.wall_tiles} tiles · ${p.hand_size}-tile hands`;
    const label = known.get(p.name) || `${p.title} ${p.name}`;
    const o = Object.assign(document.createElement("option"), { value: p.name, textContent: `${label} (${shape})` });
    o.dataset.players = String(p.players);
    select.append(o);
  }
  if (app.presets.some((p) => p.name === chosen)) select.value = chosen;
  labelPlayButton();
}

function labelPlayButton() {
  const others = presetOf($("rules").value).players - 1;
  $("play-bots").textContent = `Play against ${BOT_COUNTS[others] || `${others} bots`}`;
}

async function enterLobby() {
  const me = await refreshMe();
  if (me.tables && me.tables.length) {
    connect(); // seated already: the server sends the table's state on connect
  } else {
    await showPresets();
    show("lobby");
    showHistory().catch(() => {});
  }
}

/** The settlement's links to the hand just played, stored: its replay and review (issue 19). */
function handLinks(root, msg) {
  if (msg.hand === undefined || msg.hand === null) return;
  const links = document.createElement("p");
  links.className = "hand-links";
  for (const [label, path] of [["回放 Replay", "replay"], ["复盘 Review", "review"]]) {
    const a = Object.assign(document.createElement("a"), { textContent: label, href: `/${path}/${msg.hand}`, target: "_blank" });
    a.className = path;
    links.append(a, " ");
  }
  root.prepend(links);
}

/** The lobby's list of the player's finished hands (GET /api/me/hands), newest first, with the
 * links to each hand's replay and review (issue 19), and "more" for the next page. */
async function showHistory(before) {
  const page = await api("GET", `/api/me/hands?limit=20${before ? `&before=${before}` : ""}`);
  const root = $("history");
  if (!before) root.replaceChildren();
  if (!page.hands.length && !before) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = "No finished hands yet.";
    root.append(p);
    return;
  }
  let table = root.querySelector("table.history");
  if (!table) {
    table = document.createElement("table");
    table.className = "history";
    const head = table.insertRow();
    for (const h of ["hand", "date", "table", "rules", "seat", "net", ""]) head.append(Object.assign(document.createElement("th"), { textContent: h }));
    root.append(table);
  }
  for (const h of page.hands) {
    const tr = table.insertRow();
    tr.dataset.hand = String(h.hand);
    const date = h.finished ? new Date(h.finished * 1000).toLocaleString() : "–";
    for (const text of [`#${h.hand}`, date, String(h.table), h.mode, String(h.seat), `${h.net > 0 ? "+" : ""}${h.net}`]) {
      tr.insertCell().textContent = text;
    }
    tr.cells[5].className = h.net > 0 ? "plus" : h.net < 0 ? "minus" : "";
    const links = tr.insertCell();
    for (const [label, href] of [["replay · 回放", h.replay], ["review · 复盘", h.review]]) {
      const a = Object.assign(document.createElement("a"), { textContent: label, href, target: "_blank" });
      a.className = label.split(" ")[0];
      links.append(a, " ");
    }
  }
  root.querySelector("button.more")?.remove();
  if (page.next) {
    const more = Object.assign(document.createElement("button"), { textContent: "more", className: "more" });
    more.addEventListener("click", () => showHistory(page.next).catch((e) => toast(e.message)));
    root.append(more);
  }
}

function connect() {
  if (app.ws && app.ws.readyState <= 1) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(app.token)}`);
  app.ws = ws;
  $("status").textContent = "connecting…";
  ws.onopen = () => {
    app.retry = 0;
    $("status").textContent = "connected";
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    $("status").textContent = "reconnecting…";
    app.ws = null;
    const delay = Math.min(5000, 250 * 2 ** app.retry++);
    setTimeout(connect, delay);
  };
}

function onMessage(msg) {
  switch (msg.type) {
    case "state":
      app.rules = msg.rules || null;
      app.shape = msg.shape || DEFAULT_SHAPE;
      app.model = new TableModel(msg.table, msg.seat, msg.observation, msg.events, app.shape);
      app.names = Object.fromEntries((msg.players || []).map((p, i) => [i, p ? p.name : `Seat ${i}`]));
      app.request = null;
      app.ui.selected.clear();
      $("table-label").textContent = `table ${msg.table} · seat ${msg.seat}`;
      show("table");
      break;
    case "event":
      if (!app.model) return;
      app.model.apply(msg.event, msg.phase);
      if (msg.event.type === "huansanzhang") {
        app.ui.exchangeUntil = performance.now() + EXCHANGE_NOTICE_MS;
        setTimeout(draw, EXCHANGE_NOTICE_MS + 50);
      }
      if (msg.event.type === "timeout" && msg.event.actor === app.model.seat) {
        app.request = null; // the deadline passed: the engine took the default, the buttons go
        app.ui.selected.clear();
      }
      if (msg.event.type === "start_hand") {
        app.request = null;
        $("report-close").textContent = "Next hand · 下一局";
      }
      break;
    case "request": {
      const ms = Number(msg.deadline_ms) || 0;
      // deadline_ms is the time left for this decision, in milliseconds.
      app.request = { ...msg, deadline: performance.now() + ms };
      app.ui.selected.clear();
      break;
    }
    case "hand_end":
      app.request = null;
      app.lastHandEnd = msg;
      if (app.model) {
        app.model.isOver = true;
        renderReport($("report-body"), app.model, app.names, msg);
        handLinks($("report-body"), msg);
        $("report-close").textContent = "Continue · 继续";
        $("report").hidden = false;
      }
      refreshMe().catch(() => {});
      break;
    case "error":
      toast(msg.message);
      break;
    default:
      break;
  }
  analyse();
  draw();
}

function send(action) {
  if (!app.request || !app.ws) return;
  app.ws.send(JSON.stringify({ type: "act", table: app.request.table, seq: app.request.seq, action: action.id }));
  app.request = null;
  app.ui.selected.clear();
  draw();
}

function draw() {
  if (!app.model) return;
  app.ui.handKey = handKey(app.model);
  renderTable($("table-body"), app.model, app.request, app.ui, app.names, send, performance.now());
}

function tick() {
  const c = document.querySelector(".countdown");
  if (c && app.request) c.textContent = `${Math.max(0, Math.ceil((app.request.deadline - performance.now()) / 1000))} s`;
}

/** The hand in docs/rules.md §1 notation, for the help's 查听 request. */
function notation(model) {
  const bySuit = { m: [], p: [], s: [] };
  for (const t of sortTiles(model.hand)) bySuit[t[1]].push(t[0]);
  let text = ["m", "p", "s"].filter((u) => bySuit[u].length).map((u) => bySuit[u].join("") + u).join("");
  for (const m of model.melds[model.seat]) {
    const n = m.type === "peng" ? 3 : 4;
    const body = m.tile[0].repeat(n) + m.tile[1];
    text += m.type === "concealed_kong" ? `[${body}]` : `(${body})`;
  }
  return text;
}

/** What the 查听 analysis depends on in the own hand: its tiles, melds and void. */
function handKey(model) {
  return `${notation(model)}|${model.void || ""}`;
}

let analysing = 0;
async function analyse() {
  const m = app.model;
  if (!app.ui.help || !m || m.isOver) return;
  const visible = [...m.setAside];
  m.discards.forEach((d) => visible.push(...d));
  m.melds.forEach((ms, s) => {
    if (s === m.seat) return;
    for (const x of ms) if (x.tile !== "?") for (let i = 0; i < (x.type === "peng" ? 3 : 4); i++) visible.push(x.tile);
  });
  const mine = ++analysing;
  const key = handKey(m);
  try {
    const res = await api("POST", "/api/analyze", { hand: notation(m), void: m.void, visible, rules: app.rules || m.mode });
    if (mine === analysing) app.ui.analysis = { key, result: res };
  } catch (e) {
    if (mine === analysing) app.ui.analysis = { key, result: { error: e.message } };
  }
  draw();
}

start().catch((e) => toast(e.message));
