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
  rulesChosen: false, // the person picked rules in the lobby (kept over the server's first offer)
  lastHandEnd: null,
  retry: 0,
  table: null, // the table this page sits at (the state message's `table`)
  leaving: false, // asked to leave after the hand in play
  between: null, // between hands: {ready: [per seat], deadline} from the `ready` message
  link: (location.pathname.match(/^\/table\/(\d+)\/?$/) || [])[1] || null, // /table/{id}: join it
  ui: {
    selected: new Map(), // index in the drawn hand -> tile name (exchange picks)
    help: false,
    analysis: null, // {key, result}: the 查听 answer and the hand (handKey) it was asked for
    handKey: null, // the hand as it stands: an analysis of another hand is not shown
    exchangeUntil: 0, // performance.now() until which the exchange notice shows
    cancelling: false, // 取消托管 asked, not answered yet
    cancelAutoPlay: () => cancelAutoPlay(),
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
  $("leave-btn").hidden = view !== "table";
  if (view === "lobby") pollTables();
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
  $("rules").addEventListener("change", () => { app.rulesChosen = true; labelPlayButton(); fillBotChoice(); });
  $("play-bots").addEventListener("click", async () => {
    try {
      // Bots take every seat but the creator's: a table of the preset's seats deals at once.
      await api("POST", "/api/tables", { rules: $("rules").value, bots: presetOf($("rules").value).players - 1, base: 1 });
      sitDown();
    } catch (e) {
      toast(e.message);
    }
  });
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const id = $("table-id").value.trim();
    if (!id) return;
    try {
      await joinTable(id);
    } catch (e) {
      toast(e.message);
    }
  });
  $("people-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const base = Math.max(1, Math.floor(Number($("people-base").value) || 1));
      const r = await api("POST", "/api/tables", {
        rules: $("rules").value, bots: Number($("people-bots").value), base, spectators: $("people-watch").checked,
      });
      history.replaceState(null, "", `/table/${r.table}`); // the link to share
      sitDown();
    } catch (e) {
      toast(e.message);
    }
  });
  $("leave-btn").addEventListener("click", askLeave);
  $("leave-cancel").addEventListener("click", () => { $("leave-dialog").hidden = true; });
  $("leave-after").addEventListener("click", () => leave(false));
  $("leave-escape").addEventListener("click", () => leave(true));
  $("report-lobby").addEventListener("click", () => leave(false));
  $("back-to-table").addEventListener("click", () => sitDown(Boolean(app.me && app.me.leaving)));
  $("help-toggle").addEventListener("change", (ev) => {
    app.ui.help = ev.target.checked;
    analyse();
    draw();
  });
  $("report-close").addEventListener("click", pressContinue);
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
    const shape = `${p.players} players · ${suits} ${p.wall_tiles} tiles · ${p.hand_size}-tile hands${wildWords(p.wilds)}`;
    const label = known.get(p.name) || `${p.title} ${p.name}`;
    const o = Object.assign(document.createElement("option"), { value: p.name, textContent: `${label} (${shape})` });
    o.dataset.players = String(p.players);
    select.append(o);
  }
  // The person's own choice stays; until there is one, the server's first offer (its house rules
  // when `xueliu serve` was given some, GET /api/presets lists them first).
  const keep = app.rulesChosen && app.presets.some((p) => p.name === chosen);
  if (app.presets.length) select.value = keep ? chosen : app.presets[0].name;
  labelPlayButton();
}

/** The wild tiles of a preset, as the lobby names them (docs/rules.md §12.4): "" without any. */
function wildWords(w) {
  if (!w) return "";
  if (w.benjin) return ` · 听用 wilds: the 本金 benjin's neighbours (${w.in_wall})`;
  const gui = w.kinds.every((t) => t === "7z");
  return ` · ${gui ? "鬼 wilds: 红中 red dragons" : `听用 wilds: ${w.kinds.join(" ")}`} (${w.in_wall})`;
}

/** How many seats bots fill at a table for people: 0 to the preset's seats less two (one for the
 * creator, at least one for another person). */
function fillBotChoice() {
  const players = presetOf($("rules").value).players;
  const sel = $("people-bots");
  const chosen = sel.value;
  sel.replaceChildren();
  for (let n = 0; n <= players - 2; n++) sel.append(Object.assign(document.createElement("option"), { value: String(n), textContent: String(n) }));
  sel.value = [...sel.options].some((o) => o.value === chosen) ? chosen : String(players - 2);
}

function labelPlayButton() {
  const others = presetOf($("rules").value).players - 1;
  $("play-bots").textContent = `Play against ${BOT_COUNTS[others] || `${others} bots`}`;
}

/** Where the player is: its seat (the server sends the table's state on connect), the table of
 * a shared link (/table/{id}: joined), or the lobby. A player leaving after the hand in play
 * waits in the lobby, with a way back to the table. */
async function enterLobby() {
  const me = await refreshMe();
  const seated = me.tables && me.tables.length ? me.tables[0] : null;
  if (seated !== null && !me.leaving && !app.leaving) {
    sitDown();
    return;
  }
  if (seated === null && app.link) {
    const id = app.link;
    app.link = null;
    try {
      await joinTable(id);
      return;
    } catch (e) {
      toast(e.message);
    }
  }
  await lobby(seated);
}

async function lobby(seated) {
  history.replaceState(null, "", "/");
  app.link = null;
  $("seated-note").hidden = seated === null;
  if (seated !== null) $("seated-text").textContent = `You leave table ${seated} after its hand · 本局后离开`;
  await showPresets();
  fillBotChoice();
  show("lobby");
  showHistory().catch(() => {});
}

async function joinTable(id) {
  await api("POST", `/api/tables/${encodeURIComponent(id)}/join`);
  history.replaceState(null, "", `/table/${encodeURIComponent(id)}`);
  sitDown();
}

/** Sits at the table: the websocket's state shows it. `leaving`: the seat leaves after the hand in
 * play (its settlement then offers only the lobby). */
function sitDown(leaving = false) {
  app.leaving = leaving;
  connect();
}

/** Closes the websocket for good (the player went to the lobby). */
function disconnect() {
  const ws = app.ws;
  app.ws = null;
  if (ws) {
    ws.onclose = null;
    ws.close();
  }
  app.model = null;
  app.request = null;
  app.between = null;
  $("report").hidden = true;
  $("leave-dialog").hidden = true;
}

/** The penalty an escape now costs (docs/rules.md §7: escape_penalty units × the base stake × the
 * room × the seat's multiplier, or the default one before they are revealed). */
function escapeCost() {
  const r = app.rules || {};
  const m = app.model;
  const pm = r.player_multipliers;
  const mult = m && m.multipliers ? m.multipliers[m.seat] : pm ? pm.default : 1;
  const base = typeof r.base === "number" ? r.base : (m && m.base) || 1; // "auto": the hand's
  return (r.escape_penalty ?? 3) * base * (r.room || 1) * mult;
}

/** Leave: between hands at once (to the lobby); during a hand, a choice — after this hand, or an
 * escape now that names its penalty. */
function askLeave() {
  const m = app.model;
  if (!m || m.isOver || app.leaving) {
    leave(false);
    return;
  }
  const cost = escapeCost();
  $("leave-text").textContent = `A hand is in play. Leave after it (you play on until it ends), or escape now (逃跑): you pay ${cost} coins to the house at once (at most the coins you have), and your seat is auto-played (托管) to the end of the hand.`;
  $("leave-escape").textContent = `逃跑 Escape now — pay ${cost} coins`;
  $("leave-escape").dataset.cost = String(cost);
  $("leave-dialog").hidden = false;
}

async function leave(escape) {
  $("leave-dialog").hidden = true;
  const table = app.table;
  if (table === null) return;
  try {
    const r = await api("POST", `/api/tables/${table}/leave`, escape ? { escape: true } : {});
    if (r.left || escape) {
      disconnect();
      await lobby(r.left ? null : table);
    } else {
      app.leaving = true; // the hand plays on; its settlement offers the lobby
      toast("You leave after this hand · 本局后离开");
      draw();
    }
  } catch (e) {
    if (e.status === 403 || e.status === 404) { // not seated there any more
      disconnect();
      await lobby(null);
    } else {
      toast(e.message);
    }
  }
}

/** Continue after a hand: the server deals when every person at the table has pressed it. */
async function pressContinue() {
  const m = app.model;
  if (!m || !m.isOver || app.table === null) {
    $("report").hidden = true;
    return;
  }
  $("report-close").disabled = true;
  $("report-close").textContent = "等待 Waiting for the others…";
  try {
    await api("POST", `/api/tables/${app.table}/ready`);
  } catch (e) {
    if (e.status === 403) { // no longer seated there
      disconnect();
      await lobby(null);
    } else {
      toast(e.message);
    }
  }
}

/** 取消托管: the engine auto-plays the seat since two timeouts in a row; the server gives it back
 * at its next decision. The button goes with the `auto_play_cancelled` event. */
async function cancelAutoPlay() {
  if (app.table === null || app.ui.cancelling) return;
  app.ui.cancelling = true;
  draw();
  try {
    await api("POST", `/api/tables/${app.table}/cancel-auto-play`);
  } catch (e) {
    toast(e.message);
  } finally {
    app.ui.cancelling = false;
    draw();
  }
}

/** The lobby's open tables (GET /api/tables), asked every 3 s while the lobby shows. */
async function pollTables() {
  clearTimeout(pollTables.timer);
  if ($("lobby").hidden) return;
  try {
    showTables((await api("GET", "/api/tables")).tables);
  } catch {
    // the list stays as it was
  }
  pollTables.timer = setTimeout(pollTables, 3000);
}

function showTables(tables) {
  const root = $("open-tables");
  root.replaceChildren();
  if (!tables.length) {
    root.append(Object.assign(document.createElement("p"), { className: "muted", textContent: "No open table." }));
    return;
  }
  const table = document.createElement("table");
  table.className = "open-tables";
  const head = table.insertRow();
  for (const h of ["table", "rules", "stake", "seats", ""]) head.append(Object.assign(document.createElement("th"), { textContent: h }));
  for (const t of tables) {
    const tr = table.insertRow();
    tr.dataset.table = String(t.table);
    tr.insertCell().textContent = `#${t.table}`;
    const p = t.preset ? presetOf(t.preset) : null;
    tr.insertCell().textContent = `${p && p.title ? `${p.title} ` : ""}${t.preset || t.mode} · ${t.players} seats`;
    tr.insertCell().textContent = String(t.base);
    const seats = tr.insertCell();
    seats.className = "seat-list";
    seats.textContent = t.seats.map((x) => (x ? x.name + (x.bot ? " (bot)" : "") : "— free")).join(", ");
    const links = tr.insertCell();
    if (t.free) {
      const b = Object.assign(document.createElement("button"), { textContent: `Join · 入座 (${t.free} free)`, className: "join" });
      b.addEventListener("click", () => joinTable(t.table).catch((e) => toast(e.message)));
      links.append(b, " ");
      links.append(Object.assign(document.createElement("a"), { href: `/table/${t.table}`, textContent: "link", className: "share" }), " ");
    }
    if (t.spectators) links.append(Object.assign(document.createElement("a"), { href: `/spectate/${t.table}`, textContent: "watch · 观战", target: "_blank", className: "watch" }));
  }
  root.append(table);
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
    // Not seated any more (away for a whole hand, or the table closed): the lobby.
    refreshMe().then((me) => {
      if (app.ws === ws && !(me.tables && me.tables.length)) {
        disconnect();
        toast("You no longer sit at a table · 已离座");
        lobby(null);
      }
    }).catch(() => {});
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
      app.table = msg.table;
      if (!app.link && location.pathname !== `/table/${msg.table}`) history.replaceState(null, "", `/table/${msg.table}`);
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
        app.between = null;
        app.lastHandEnd = null;
        $("report").hidden = true; // the next hand is dealt: everyone pressed Continue, or the time ran out
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
        $("report-close").textContent = "继续 Continue";
        $("report-close").disabled = false;
        $("report-close").hidden = app.leaving;
        $("report-lobby").textContent = app.leaving ? "回大厅 Back to the lobby" : "大厅 Lobby (leave)";
        $("ready-line").hidden = app.leaving;
        $("ready-line").textContent = "";
        $("report").hidden = false;
      }
      refreshMe().catch(() => {});
      break;
    case "ready":
      app.between = { ready: msg.ready, deadline: msg.deal_ms === null ? null : performance.now() + msg.deal_ms };
      if ($("report").hidden && app.model && app.model.isOver && !app.leaving && !app.lastHandEnd) {
        // Back between hands (a reload): no settlement to show, but Continue and the countdown.
        $("report-body").replaceChildren(Object.assign(document.createElement("h2"), { textContent: "本局结束 Hand over" }));
        $("report-close").disabled = false;
        $("report-close").hidden = false;
        $("report-close").textContent = "继续 Continue";
        $("report-lobby").textContent = "大厅 Lobby (leave)";
        $("report").hidden = false;
      }
      tick();
      break;
    case "seats":
      app.names = Object.fromEntries((msg.players || []).map((p, i) => [i, p ? p.name : `Seat ${i}`]));
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
  const b = app.between;
  const line = $("ready-line");
  if (b && !app.leaving && !$("report").hidden) {
    const secs = b.deadline === null ? null : Math.max(0, Math.ceil((b.deadline - performance.now()) / 1000));
    const waiting = b.ready.map((r, s) => (r ? null : app.names[s] || `seat ${s}`)).filter((x) => x !== null);
    line.hidden = false;
    line.textContent = `${secs === null ? "Waiting for a seat to fill" : `下一局 Next hand in ${secs} s`}${waiting.length ? ` · waiting for ${waiting.join(", ")}` : ""}`;
    line.dataset.seconds = secs === null ? "" : String(secs);
  }
}

/** Tiles in notation, each suit's digits then its letter: ["5m", "5m", "1s"] → "55m1s". */
function tilesText(tiles) {
  const bySuit = { m: [], p: [], s: [], z: [] };
  for (const t of sortTiles(tiles)) bySuit[t[1]].push(t[0]);
  return ["m", "p", "s", "z"].filter((u) => bySuit[u].length).map((u) => bySuit[u].join("") + u).join("");
}

/** The hand in docs/rules.md §1 notation, for the help's 查听 request: the concealed tiles as
 * held (wilds by their own names, 红中 "7z"), then each meld, a soft one with its natural tiles
 * first and then its wilds (docs/rules.md §12.5: "(55m1s)"). */
function notation(model) {
  let text = tilesText(model.hand);
  for (const m of model.melds[model.seat]) {
    const n = m.type === "peng" ? 3 : 4;
    const wilds = m.wilds || [];
    const body = m.tile[0].repeat(n - wilds.length) + m.tile[1] + tilesText(wilds);
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
    for (const x of ms) {
      if (x.tile === "?") continue;
      const wilds = x.wilds || [];
      for (let i = wilds.length; i < (x.type === "peng" ? 3 : 4); i++) visible.push(x.tile);
      visible.push(...wilds); // a meld's wilds are seen as what they are (docs/rules.md §12.5)
    }
  });
  const mine = ++analysing;
  const key = handKey(m);
  try {
    const body = { hand: notation(m), void: m.void, visible, rules: app.rules || m.mode };
    if (m.wilds && m.wilds.benjin) body.benjin = m.wilds.benjin; // the face-up 本金 (docs/rules.md §12.1)
    const res = await api("POST", "/api/analyze", body);
    if (mine === analysing) app.ui.analysis = { key, result: res };
  } catch (e) {
    if (mine === analysing) app.ui.analysis = { key, result: { error: e.message } };
  }
  draw();
}

start().catch((e) => toast(e.message));
