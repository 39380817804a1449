// Draws the table from a TableModel and the pending request. Every piece of text that comes from
// another player (names) is set with textContent, never parsed as markup.

import { SUIT_CHARS, sortTiles, tileEl, tileText } from "./tiles.js";

export const PATTERN_NAMES = {
  pinghu: "平胡", duiduihu: "对对胡", qingyise: "清一色", daiyaojiu: "带幺九", qidui: "七对",
  jingoudiao: "金钩钓", qingdui: "清对", jiangdui: "将对", longqidui: "龙七对", qingqidui: "清七对",
  qingyaojiu: "清幺九", qingjingoudiao: "清金钩钓", qinglongqidui: "清龙七对", tianhu: "天胡",
  dihu: "地胡", shibaluohan: "十八罗汉", qingsanlongqidui: "清三龙七对", qingshibaluohan: "清十八罗汉",
  jiulianbaodeng: "九莲宝灯", gen: "根", gangshanghua: "杠上花", gangshangpao: "杠上炮",
  qiangganghu: "抢杠胡", haidilaoyue: "海底捞月", zimo: "自摸", menqing: "门清", duanyaojiu: "断幺九",
  yitiaolong: "一条龙", jiaxinwu: "夹心五", haidipao: "海底炮",
};
const POSITIONS = ["bottom", "right", "top", "left"];
const KIND_LABELS = {
  hu: "胡 Hu", pass: "过 Pass", peng: "碰 Peng", kong: "杠 Kong",
  concealed_kong: "暗杠 Concealed kong", added_kong: "补杠 Added kong",
};

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function winText(w) {
  const names = [PATTERN_NAMES[w.base] || w.base];
  if (w.gen) names.push(`根×${w.gen}`);
  for (const x of w.extras || []) names.push(PATTERN_NAMES[x] || x);
  return `${names.join(" ")} ${w.fan}番`;
}

function seatPanel(model, s, names) {
  const rel = (s - model.seat + 4) % 4;
  const p = el("section", `seat seat-${POSITIONS[rel]}`);
  p.dataset.seat = String(s);
  if (model.turn === s && !model.isOver) p.classList.add("on-turn");
  if (!model.inPlay[s]) p.classList.add("left-play");
  const head = el("div", "seat-head");
  head.append(el("span", "seat-name", names[s] || `Seat ${s}`));
  if (model.dealer === s) head.append(el("span", "badge dealer", "庄"));
  if (model.voids[s]) head.append(el("span", `badge void suit-${model.voids[s]}`, `缺${SUIT_CHARS[model.voids[s]]}`));
  if (model.multipliers) head.append(el("span", "badge", `×${model.multipliers[s]}`));
  if (model.autoPlay[s]) head.append(el("span", "badge auto", "托管"));
  const net = model.net[s];
  head.append(el("span", `net ${net > 0 ? "plus" : net < 0 ? "minus" : ""}`, `${net > 0 ? "+" : ""}${net}`));
  if (model.coins) head.append(el("span", "coins", `金 ${model.coins[s]}`));
  p.append(head);

  if (model.wins[s].length) {
    const wins = el("div", "wins");
    for (const w of model.wins[s]) {
      const chip = el("span", "win-chip");
      chip.append(tileEl(w.pai, { small: true }), el("span", "", winText(w)));
      wins.append(chip);
    }
    p.append(wins);
  }
  const row = el("div", "seat-row");
  if (s !== model.seat) {
    const backs = el("div", "hand-backs");
    for (let i = 0; i < model.handSizes[s]; i++) backs.append(tileEl("?", { small: true }));
    row.append(backs);
  }
  const melds = el("div", "melds");
  for (const m of model.melds[s]) {
    const g = el("span", `meld meld-${m.type}`);
    const n = m.type === "peng" ? 3 : 4;
    for (let i = 0; i < n; i++) {
      // A concealed kong shows two tiles face down; another seat's shows only backs (RULES §7).
      const hidden = m.tile === "?" || (m.type === "concealed_kong" && (i === 0 || i === 3));
      g.append(tileEl(hidden ? "?" : m.tile, { small: true }));
    }
    melds.append(g);
  }
  row.append(melds);
  p.append(row);
  const river = el("div", "river");
  const d = model.discards[s];
  d.forEach((t, i) => {
    const last = model.lastDiscard && model.lastDiscard.seat === s && i === d.length - 1;
    river.append(tileEl(t, { small: true, extraClass: last ? "last" : "" }));
  });
  p.append(river);
  return p;
}

function center(model, request, now) {
  const c = el("section", "center");
  c.append(el("div", "wall", `余 ${model.wallRemaining}`));
  c.append(el("div", "phase", model.isOver ? "本局结束 hand over" : `${model.mode === "xuezhan" ? "血战到底" : "血流成河"} · ${model.phase}`));
  if (model.dice) c.append(el("div", "dice", `骰 dice ${model.dice.join(" + ")}`));
  if (request) {
    const left = Math.max(0, Math.ceil((request.deadline - now) / 1000));
    c.append(el("div", "countdown", `${left} s`));
  }
  return c;
}

/** The own hand: sorted, void-suit tiles set apart, the tile just drawn at the end. */
function ownHand(model, request, ui, send) {
  const box = el("section", "own-hand");
  const actions = request ? request.actions : [];
  const discards = new Map(actions.filter((a) => a.kind === "discard").map((a) => [a.tile, a]));
  const exchange = actions.filter((a) => a.kind === "exchange");
  let rest = [...model.hand];
  let drawn = null;
  if (model.drawn && rest.includes(model.drawn)) {
    drawn = model.drawn;
    rest.splice(rest.lastIndexOf(drawn), 1);
  }
  const main = sortTiles(rest.filter((t) => t[1] !== model.void));
  const voidTiles = sortTiles(rest.filter((t) => t[1] === model.void));
  const groups = [["main", main], ["void-group", voidTiles], ["drawn", drawn ? [drawn] : []]];
  let index = 0;
  for (const [cls, tiles] of groups) {
    const g = el("div", `hand-group ${cls}`);
    for (const t of tiles) {
      const i = index++;
      const tile = tileEl(t);
      tile.dataset.index = String(i);
      if (exchange.length) {
        tile.classList.add("clickable");
        if (ui.selected.has(i)) tile.classList.add("selected");
        tile.addEventListener("click", () => ui.toggle(i, t));
      } else if (discards.has(t)) {
        tile.classList.add("clickable");
        tile.addEventListener("click", () => send(discards.get(t)));
      }
      g.append(tile);
    }
    box.append(g);
  }
  return box;
}

function choiceButton(label, action, send, cls = "") {
  const b = el("button", `choice ${cls}`, label);
  b.dataset.kind = action.kind;
  b.dataset.action = String(action.id);
  b.addEventListener("click", () => send(action));
  return b;
}

/** The buttons of the current decision (only legal choices exist, so only they can be clicked). */
function controls(model, request, ui, send) {
  const box = el("section", "controls");
  if (!request) {
    box.append(el("span", "waiting", model.isOver ? "" : "等待其他玩家 waiting for the others…"));
    return box;
  }
  const acts = request.actions;
  const exchange = acts.filter((a) => a.kind === "exchange");
  if (exchange.length) {
    box.append(el("span", "prompt", "换三张: pick three tiles of one suit"));
    const picked = ui.selectedTiles();
    const want = sortTiles(picked).join(",");
    const match = exchange.find((a) => sortTiles(a.tiles).join(",") === want);
    const b = el("button", "choice", `换 Exchange ${picked.map(tileText).join(" ")}`);
    b.dataset.kind = "exchange";
    b.disabled = !match;
    if (match) b.addEventListener("click", () => send(match));
    box.append(b);
    return box;
  }
  const voids = acts.filter((a) => a.kind === "void");
  if (voids.length) {
    box.append(el("span", "prompt", "定缺: choose the suit to give up"));
    for (const a of voids) {
      const n = model.hand.filter((t) => t[1] === a.suit).length;
      box.append(choiceButton(`缺${SUIT_CHARS[a.suit]} (${n})`, a, send, `suit-${a.suit}`));
    }
    return box;
  }
  const mults = acts.filter((a) => a.kind === "multiplier");
  if (mults.length) {
    box.append(el("span", "prompt", "选倍: choose your multiplier"));
    for (const a of mults) box.append(choiceButton(`×${a.value}`, a, send));
    return box;
  }
  const claim = model.claim || (model.lastDiscard && model.lastDiscard.seat !== model.seat ? model.lastDiscard : null);
  const order = ["hu", "kong", "concealed_kong", "added_kong", "peng", "pass"];
  const others = acts.filter((a) => a.kind !== "discard").sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind));
  for (const a of others) {
    const label = KIND_LABELS[a.kind] + (a.tile && a.kind !== "hu" ? ` ${tileText(a.tile)}` : "");
    box.append(choiceButton(label, a, send, a.kind === "hu" ? "hu" : ""));
  }
  if (acts.some((a) => a.kind === "discard")) box.append(el("span", "prompt", "出牌: click a tile to discard"));
  else if (claim && others.length) box.append(el("span", "prompt", `${tileText(claim.tile)} was discarded`));
  return box;
}

export function helpPanel(analysis) {
  const box = el("section", "help");
  if (!analysis) {
    box.append(el("span", "", "…"));
    return box;
  }
  if (analysis.error) {
    box.append(el("span", "", analysis.error));
    return box;
  }
  if (analysis.fan) {
    box.append(el("div", "", `胡 complete: ${winText({ ...analysis.fan, pai: null })}`));
  }
  if (analysis.shanten !== undefined && analysis.waits) {
    box.append(el("div", "", analysis.shanten === 0 ? "听牌 ready" : `向听 shanten ${analysis.shanten}`));
    if (analysis.shanten > 0 && analysis.jinzhang) {
      const line = el("div", "help-line");
      line.append(el("span", "", `进张 ${analysis.jinzhang_total}:`));
      for (const [tile, left] of analysis.jinzhang) {
        line.append(tileEl(tile, { small: true }), el("span", "", `×${left}`));
      }
      box.append(line);
    }
    for (const w of analysis.waits) {
      const line = el("div", "help-line");
      line.append(tileEl(w.tile, { small: true }), el("span", "", `left ${w.remaining} · ${winText(w.discard_win)}`));
      box.append(line);
    }
  }
  if (analysis.discards) {
    box.append(el("div", "", "查听 best discards:"));
    for (const d of analysis.discards.slice(0, 5)) {
      const line = el("div", "help-line");
      line.append(tileEl(d.discard, { small: true }));
      const detail = d.shanten === 0
        ? `ready: ${d.waits.map((w) => `${tileText(w.tile)}×${w.remaining} (${w.discard_win.fan}番)`).join(", ")}`
        : `shanten ${d.shanten}, 进张 ${d.jinzhang_total}`;
      line.append(el("span", "", detail));
      box.append(line);
    }
  }
  return box;
}

export function renderTable(root, model, request, ui, names, send, now) {
  root.replaceChildren();
  const felt = el("div", "felt");
  for (let s = 0; s < 4; s++) felt.append(seatPanel(model, s, names));
  felt.append(center(model, request, now));
  root.append(felt);
  root.append(controls(model, request, ui, send));
  root.append(ownHand(model, request, ui, send));
  if (ui.help) root.append(helpPanel(ui.analysis));
}

export function renderReport(root, model, names, message) {
  root.replaceChildren();
  root.append(el("h2", "", "结算 Settlement"));
  const nets = el("table", "nets");
  const head = el("tr");
  head.append(el("th", "", "seat"), el("th", "", "net"), el("th", "", "coins"));
  nets.append(head);
  for (let s = 0; s < 4; s++) {
    const tr = el("tr");
    const net = message.net[s];
    tr.append(el("td", "", `${names[s] || `Seat ${s}`}${s === model.seat ? " (you)" : ""}`),
      el("td", net > 0 ? "plus" : net < 0 ? "minus" : "", `${net > 0 ? "+" : ""}${net}`),
      el("td", "", message.coins ? String(message.coins[s]) : "–"));
    nets.append(tr);
  }
  root.append(nets);
  if (model.horas.length) {
    root.append(el("h3", "", "胡 Wins"));
    const ul = el("ul", "wins-list");
    for (const h of model.horas) {
      const how = h.source === "self_draw" ? "自摸 self-draw" : h.source === "robbed_kong" ? `抢杠 from ${names[h.target] || h.target}` : `点炮 from ${names[h.target] || h.target}`;
      ul.append(el("li", "", `${h.order}. ${names[h.actor] || h.actor}: ${tileText(h.pai)} ${how} — ${winText(h)} ×${h.multiplier}`));
    }
    root.append(ul);
  }
  if (message.report) {
    root.append(el("h3", "", "Report"));
    root.append(el("pre", "report-text", message.report));
  } else {
    root.append(el("h3", "", "Transfers"));
    const ul = el("ul", "transfers");
    for (const p of model.pays) {
      const payee = p.payee === null ? "house" : names[p.payee] || p.payee;
      ul.append(el("li", "", `${names[p.payer] || p.payer} → ${payee}: ${p.amount} (${p.reason}) ${p.detail || ""}`));
    }
    root.append(ul);
  }
}
