// Draws the table from a TableModel and the pending request. Every piece of text that comes from
// another player (names) is set with textContent, never parsed as markup. Every label that has
// Chinese in it has English beside it (a machine without CJK fonts shows the Chinese as boxes),
// and every tile is a picture (tiles.js); a wild tile (docs/rules.md §12) carries its drawn mark.

import { HONGZHONG, SUIT_CHARS, SUIT_NAMES, setWilds, sortTiles, tileEl } from "./tiles.js";

export const PATTERN_NAMES = {
  pinghu: "平胡", duiduihu: "对对胡", qingyise: "清一色", daiyaojiu: "带幺九", qidui: "七对",
  jingoudiao: "金钩钓", qingdui: "清对", jiangdui: "将对", longqidui: "龙七对", qingqidui: "清七对",
  qingyaojiu: "清幺九", qingjingoudiao: "清金钩钓", qinglongqidui: "清龙七对", tianhu: "天胡",
  dihu: "地胡", shibaluohan: "十八罗汉", qingsanlongqidui: "清三龙七对", qingshibaluohan: "清十八罗汉",
  jiulianbaodeng: "九莲宝灯", gen: "根", gangshanghua: "杠上花", gangshangpao: "杠上炮",
  qiangganghu: "抢杠胡", haidilaoyue: "海底捞月", zimo: "自摸", menqing: "门清", duanyaojiu: "断幺九",
  yitiaolong: "一条龙", jiaxinwu: "夹心五", haidipao: "海底炮", siji: "四鸡", wuji: "无鸡",
};
/** The engine's phases (GameState.phase) as the table says them. */
export const PHASE_LABELS = {
  exchange: "换三张 exchange", void: "定缺 choose void", multiplier: "选倍 multiplier",
  turn: "出牌 turn", claim: "碰杠胡 claim window", over: "本局结束 hand over", waiting: "等待 waiting",
};
export const MODE_LABELS = { xueliu: "血流成河 xueliu", xuezhan: "血战到底 xuezhan", daodaohu: "倒倒胡 daodaohu" };
/** Why a hand ended (the `end_hand` event's `reason`): 血战 ends when all seats but one have won
 * (docs/rules.md §11.1), so the reason names how many that is at this table. */
export const END_LABELS = {
  three_wins: "three seats won", two_wins: "two seats won", one_win: "one seat won",
  wall_exhausted: "wall exhausted", first_win: "the first win (倒倒胡)",
};
/** Ledger reasons (xueliu.settlement.REASONS) in the report's column order. */
export const REASON_LABELS = {
  hu: "胡 wins", gang: "杠 kongs", hujiaozhuanyi: "呼叫转移 call transfer", huazhu: "花猪 flower pig",
  chadajiao: "查大叫 ready check", tuishui: "退税 refund", fee: "服务费 fee", escape: "逃跑 escape",
};
/** Where each seat sits, by its place after the reader's in turn order (0 the reader), for a
 * table of n seats: the next seat (下家) on the right, the one before (上家) on the left, the
 * one between across — so three players sit left and right of the reader, two face each other. */
export const SEAT_PLACES = {
  4: ["bottom", "right", "top", "left"], 3: ["bottom", "right", "left"], 2: ["bottom", "top"],
};
const COUNT_WORDS = { 3: ["三", "three"], 4: ["四", "four"] }; // 换三张 / 换四张 (exchange_count)
const KIND_LABELS = {
  hu: "胡 Hu", pass: "过 Pass", peng: "碰 Peng", kong: "杠 Kong",
  concealed_kong: "暗杠 Concealed kong", added_kong: "补杠 Added kong", swap_back: "提 Swap back",
};
/** The label of a meld action that would use a wild of the hand (docs/rules.md §12.3: 飞 is a
 * peng with one natural tile and a wild, or with two wilds; a soft kong counts wilds too). */
const SOFT_LABELS = {
  peng: "飞 Fei: peng with a wild", kong: "软杠 Kong with a wild",
  concealed_kong: "软暗杠 Concealed kong with a wild", added_kong: "补杠 Added kong with a wild",
};
/** How many natural tiles of the meld's kind each meld action takes from the hand without a wild. */
const NATURAL_NEED = { peng: 2, kong: 3, concealed_kong: 4, added_kong: 1 };
/** "direction": whom a seat receives from, as seats after it in turn order, at n seats (at two
 * every direction is the other seat, docs/rules.md §11.1). */
function shift(direction, n) {
  return { next: 1, opposite: n / 2, previous: n - 1 }[direction] % n;
}
const LOG_LINES = 12;

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function nameOf(names, s) {
  return names[s] || `seat ${s}`;
}

function signed(n) {
  return `${n > 0 ? "+" : ""}${n}`;
}

/** "缺万 void: characters" */
function voidLabel(suit) {
  return `缺${SUIT_CHARS[suit]} void: ${SUIT_NAMES[suit]}`;
}

/** The fans of a win: each pattern in Chinese with its id (pinyin) beside it, then the total. */
export function winText(w) {
  const names = [`${PATTERN_NAMES[w.base] || ""} ${w.base}`.trim()];
  if (w.gen) names.push(`根 gen×${w.gen}`);
  for (const x of w.extras || []) names.push(`${PATTERN_NAMES[x] || ""} ${x}`.trim());
  return `${names.join(" · ")} — ${w.fan} 番 fan`;
}

/** How a win came: 自摸, or 点炮 / 抢杠 and who dealt in. */
export function winHow(w, names) {
  if (w.source === "self_draw") return "自摸 self-draw";
  if (w.source === "robbed_kong") return `抢杠 robbed the kong of ${nameOf(names, w.target)}`;
  return `点炮 dealt in by ${nameOf(names, w.target)}`;
}

function seatPanel(model, s, names) {
  const n = model.players;
  const rel = (s - model.seat + n) % n;
  const p = el("section", `seat seat-${SEAT_PLACES[n][rel]}`);
  p.dataset.seat = String(s);
  if (model.turn === s && !model.isOver) p.classList.add("on-turn");
  if (!model.inPlay[s]) p.classList.add("left-play");
  const head = el("div", "seat-head");
  head.append(el("span", "seat-name", nameOf(names, s)));
  if (s === model.seat) head.append(el("span", "badge you", "你 you"));
  if (model.dealer === s) head.append(el("span", "badge dealer", "庄 dealer"));
  if (model.voids[s]) head.append(el("span", `badge void suit-${model.voids[s]}`, voidLabel(model.voids[s])));
  if (model.multipliers) head.append(el("span", "badge", `×${model.multipliers[s]}`));
  if (model.autoPlay[s]) head.append(el("span", "badge auto", "托管 auto-play"));
  const net = model.net[s];
  head.append(el("span", `net ${net > 0 ? "plus" : net < 0 ? "minus" : ""}`, signed(net)));
  if (model.coins) head.append(el("span", "coins", `coins ${model.coins[s]}`));
  p.append(head);

  if (model.wins[s].length) {
    const wins = el("div", "wins");
    for (const w of model.wins[s]) {
      const chip = el("span", "win-chip");
      chip.dataset.source = w.source;
      if (w.source !== "self_draw") chip.dataset.from = String(w.target);
      chip.append(tileEl(w.pai, { small: true }), el("span", "", `${winText(w)} · ${winHow(w, names)}`));
      wins.append(chip);
    }
    p.append(wins);
  }
  const row = el("div", "seat-row");
  if (s !== model.seat) {
    const backs = el("div", "hand-backs");
    for (let i = 0; i < model.handSizes[s]; i++) backs.append(tileEl("?", { small: true }));
    // On a small screen the backs give way to their count (style.css).
    row.append(backs, el("span", "hand-count", `${model.handSizes[s]} tiles`));
  }
  const melds = el("div", "melds");
  for (const m of model.melds[s]) {
    const g = el("span", `meld meld-${m.type}`);
    g.dataset.tile = m.tile;
    if (m.wilds && m.wilds.length) g.classList.add("soft");
    for (const t of meldFaces(m)) g.append(tileEl(t, { small: true }));
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

/** The tiles of a meld as the table shows them ("?" face down): its natural tiles, then its wilds
 * (which physical tiles a meld holds is public, docs/rules.md §12.3). A concealed kong shows two
 * tiles face down — the ends — and its kind and, when it holds one, a wild face up; another
 * seat's shows only backs (docs/rules.md §7). */
export function meldFaces(m) {
  const n = m.type === "peng" ? 3 : 4;
  if (m.tile === "?") return Array(n).fill("?");
  const wilds = m.wilds || [];
  const tiles = [...Array(n - wilds.length).fill(m.tile), ...wilds];
  if (m.type !== "concealed_kong") return tiles;
  const up = [m.tile, wilds.length ? wilds[0] : m.tile];
  return ["?", ...up, "?"];
}

/** The wild tiles of the hand, beside the wall (docs/rules.md §12): the face-up 本金 (under a
 * 本金 rule its neighbours are the wilds) and the wild kinds, each with its mark. */
function wildsBox(model) {
  const w = model.wilds;
  const box = el("div", "wilds");
  if (w.benjin) {
    const b = el("div", "benjin");
    b.append(el("span", "", "本金 benjin"), tileEl(w.benjin, { small: true, wild: false }));
    box.append(b);
  }
  if (w.kinds.length) {
    const line = el("div", "wild-kinds");
    const gui = w.kinds.every((t) => t === HONGZHONG);
    line.append(el("span", "", `${gui ? "鬼" : "听用"} wild`));
    for (const t of w.kinds) line.append(tileEl(t, { small: true }));
    box.append(line);
  }
  return box;
}

function center(model, names, request, now) {
  const c = el("section", "center");
  c.append(el("div", "wall", `余 wall ${model.wallRemaining}`));
  if (model.wilds) c.append(wildsBox(model));
  c.append(el("div", "mode", MODE_LABELS[model.mode] || ""));
  const label = model.phase === "exchange" ? `${exchangeName(model)} exchange` : PHASE_LABELS[model.phase];
  const phase = el("div", "phase", label || model.phase);
  phase.dataset.phase = model.phase;
  c.append(phase);
  if (model.phase === "turn" && model.turn !== null && model.turn !== undefined) {
    c.append(el("div", "phase-detail", `on turn: ${nameOf(names, model.turn)}`));
  } else if (model.phase === "claim" && model.claim) {
    const line = el("div", "phase-detail");
    line.append(tileEl(model.claim.tile, { small: true }),
      el("span", "", `${model.claim.kind === "rob" ? "added kong" : "discard"} of ${nameOf(names, model.claim.from)}`));
    c.append(line);
  }
  if (model.dice) c.append(el("div", "dice", `骰 dice ${model.dice.join(" + ")}`));
  if (request) {
    const left = Math.max(0, Math.ceil((request.deadline - now) / 1000));
    c.append(el("div", "countdown", `${left} s`));
  }
  return c;
}

/** One line of the action log for an event, or null for events the log leaves out (draws,
 * payments: the report lists those). */
function logLine(e, names, model) {
  const li = el("li", `log-${e.type}`);
  li.dataset.type = e.type;
  const who = (s) => el("b", "", nameOf(names, s));
  const text = (t) => el("span", "", t);
  const tile = (t) => tileEl(t, { small: true });
  switch (e.type) {
    case "huansanzhang":
      li.append(text(`${exchangeName(model)} tiles exchanged (each receives from the ${e.direction} seat)`));
      break;
    case "dingque":
      li.append(text(`定缺 voids: ${e.voids.map((v, s) => `${nameOf(names, s)} ${SUIT_NAMES[v]}`).join(", ")}`));
      break;
    case "xuanbei":
      li.append(text(`选倍 multipliers: ${e.values.map((v) => `×${v}`).join(" ")}`));
      break;
    case "dahai":
      li.append(who(e.actor), text(e.auto ? "discards (auto)" : "discards"), tile(e.pai));
      break;
    case "pon":
    case "daiminkan": {
      const wilds = e.consumed.filter((t) => t !== e.pai);
      li.append(who(e.actor), text(e.type === "pon" ? (wilds.length ? "飞 pengs" : "碰 pengs") : "杠 kongs"),
        tile(e.pai), text("from"), who(e.target));
      if (wilds.length) li.append(text("with"), ...wilds.map(tile));
      break;
    }
    case "benjin":
      li.append(text("本金 benjin turned up"), tileEl(e.pai, { small: true, wild: false }));
      break;
    case "huansanzhang_skipped":
      li.append(text(`${exchangeName(model)} exchange skipped: a hand holds too few natural tiles`));
      break;
    case "ti":
      li.append(who(e.actor), text("提 swaps"), tile(e.pai), text("into a meld for"), tile(e.wild));
      break;
    case "ankan":
      li.append(who(e.actor), text("暗杠 concealed kong"));
      if (e.consumed && e.consumed[0] !== "?") li.append(tile(e.consumed[0]));
      break;
    case "kakan": {
      // The kong's kind, and the tile added when it is a wild (docs/events.md: `pai`).
      const kind = e.consumed.find((t) => !model.isWild(t)) || e.pai;
      li.append(who(e.actor), text("补杠 added kong"), tile(kind));
      if (e.pai !== kind) li.append(text("adding"), tile(e.pai));
      break;
    }
    case "hora":
      li.append(who(e.actor), text("胡 wins on"), tile(e.pai));
      if (e.source === "self_draw") li.append(text(`自摸 self-draw · ${e.fan} 番 fan`));
      else {
        li.append(text(e.source === "robbed_kong" ? "抢杠 robbing" : "点炮 dealt in by"), who(e.target),
          text(`· ${e.fan} 番 fan`));
      }
      break;
    case "auto_play":
      li.append(who(e.actor), text("托管 is auto-played from now on"));
      break;
    case "auto_play_cancelled":
      li.append(who(e.actor), text("取消托管 plays again (auto-play cancelled)"));
      break;
    case "timeout":
      li.append(who(e.actor), text("timed out: default action"));
      break;
    case "escape":
      li.append(who(e.actor), text("逃跑 escaped"));
      break;
    case "end_hand":
      li.append(text(`本局结束 hand over: ${END_LABELS[e.reason] || e.reason}`));
      break;
    default:
      return null;
  }
  return li;
}

export function actionLog(model, names) {
  const box = el("aside", "log");
  box.append(el("h3", "", "牌局 Actions"));
  const lines = model.log.map((e) => logLine(e, names, model)).filter((x) => x);
  const ol = el("ol", "log-lines");
  for (const li of lines.slice(-LOG_LINES)) ol.append(li);
  box.append(ol);
  return box;
}

/** What the exchange gave and received (docs/events.md `huansanzhang`), while it is news. */
function exchangeNotice(model, names) {
  const x = model.exchange;
  const n = model.players;
  const box = el("section", "notice exchange-notice");
  const k = shift(x.direction, n);
  const to = (model.seat - k + n) % n;
  const from = (model.seat + k) % n;
  box.append(el("b", "", `${exchangeName(model)} exchange:`), el("span", "", "gave"));
  const gave = el("span", "gave");
  for (const t of x.given) gave.append(tileEl(t, { small: true }));
  box.append(gave, el("span", "", `to ${nameOf(names, to)} ·`), el("span", "", "received"));
  const got = el("span", "received");
  for (const t of x.received) got.append(tileEl(t, { small: true }));
  box.append(got, el("span", "", `from ${nameOf(names, from)}`));
  return box;
}

/** The own hand: sorted, void-suit tiles set apart, the tile just drawn at the end; tiles received
 * in the exchange marked until the first discard. */
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
  const received = [...model.received];
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
      const r = received.indexOf(t);
      if (r >= 0) {
        received.splice(r, 1);
        tile.classList.add("received");
        tile.title += " — received in the exchange";
      }
      if (exchange.length) {
        tile.classList.add("clickable");
        if (ui.selected.has(i)) tile.classList.add("selected");
        tile.addEventListener("click", () => ui.toggle(i, t));
      } else if (discards.has(t)) {
        tile.classList.add("clickable");
        tile.dataset.action = String(discards.get(t).id);
        if (model.isWild(t)) tile.title += " — a dead discard: nobody may win, peng or kong on it";
        tile.addEventListener("click", () => send(discards.get(t)));
      }
      g.append(tile);
    }
    box.append(g);
  }
  return box;
}

/** 换三张, or 换四张 where the table exchanges four (knob exchange_count, docs/rules.md §11.1). */
function exchangeName(model) {
  const count = COUNT_WORDS[model.shape.exchange_count];
  return `换${count ? count[0] : model.shape.exchange_count}张`;
}

function choiceButton(label, action, send, cls = "", tile = null) {
  const b = el("button", `choice ${cls}`, label);
  b.dataset.kind = action.kind;
  b.dataset.action = String(action.id);
  if (tile) b.append(tileEl(tile, { small: true }));
  b.addEventListener("click", () => send(action));
  return b;
}

/** Whether a meld action would use a wild of the hand: the hand holds fewer natural tiles of its
 * kind than the meld takes (docs/rules.md §12.3: a meld takes as few wilds as it can). */
function softMeld(model, a) {
  if (!model.wilds || !(a.kind in NATURAL_NEED)) return false;
  return model.hand.filter((t) => t === a.tile).length < NATURAL_NEED[a.kind];
}

/** 提 (swap_back, docs/rules.md §12.3): the natural tile goes into the own exposed meld of its kind
 * and the meld's wild of the lowest kind comes back; the button shows both. */
function swapBackButton(model, a, send) {
  const b = choiceButton(KIND_LABELS.swap_back, a, send, "swap-back", a.tile);
  const meld = model.melds[model.seat].find((m) => m.tile === a.tile && m.type !== "concealed_kong");
  const wilds = meld && meld.wilds ? sortTiles(meld.wilds) : [];
  if (wilds.length) {
    b.append(el("span", "swap-for", "for"), tileEl(wilds[0], { small: true }));
    b.dataset.wild = wilds[0];
  }
  return b;
}

/** The buttons of the current decision (only legal choices exist, so only they can be clicked). */
function controls(model, names, request, ui, send) {
  const box = el("section", "controls");
  const me = model.seat;
  if (!request && model.autoPlay[me] && !model.escaped[me] && !model.isOver) {
    // 托管: the engine plays the seat since two timeouts in a row; 取消托管 gives it back at its
    // next decision (docs/server.md). An escaped seat stays auto-played: no button.
    box.append(el("span", "prompt auto-note", "托管 auto-play: your moves are played for you"));
    const b = el("button", "cancel-auto", ui.cancelling ? "取消托管 Cancelling…" : "取消托管 Cancel auto-play");
    b.id = "cancel-auto";
    b.type = "button";
    b.disabled = Boolean(ui.cancelling);
    b.addEventListener("click", () => ui.cancelAutoPlay());
    box.append(b);
    return box;
  }
  if (!request) {
    box.append(el("span", "waiting", model.isOver ? "" : "等待 waiting for the others…"));
    return box;
  }
  const acts = request.actions;
  const exchange = acts.filter((a) => a.kind === "exchange");
  if (exchange.length) {
    const count = COUNT_WORDS[model.shape.exchange_count] || [String(model.shape.exchange_count), String(model.shape.exchange_count)];
    // Of one suit, unless the offers mix suits (exchange_same_suit off, or a 7-tile hand with no
    // suit of four under 换四张: it may give any tiles, docs/rules.md §11.1).
    const oneSuit = exchange.every((a) => new Set(a.tiles.map((t) => t[1])).size === 1);
    box.append(el("span", "prompt", `${exchangeName(model)} exchange: pick ${count[1]} tiles${oneSuit ? " of one suit" : ""}`));
    const picked = ui.selectedTiles();
    const want = sortTiles(picked).join(",");
    const match = exchange.find((a) => sortTiles(a.tiles).join(",") === want);
    const b = el("button", "choice", "换 Exchange");
    for (const t of picked) b.append(tileEl(t, { small: true }));
    b.dataset.kind = "exchange";
    b.disabled = !match;
    if (match) b.addEventListener("click", () => send(match));
    box.append(b);
    return box;
  }
  const voids = acts.filter((a) => a.kind === "void");
  if (voids.length) {
    box.append(el("span", "prompt", "定缺 void: choose the suit to give up"));
    for (const a of voids) {
      const n = model.hand.filter((t) => t[1] === a.suit).length;
      box.append(choiceButton(`${voidLabel(a.suit)} (${n})`, a, send, `suit-${a.suit}`));
    }
    return box;
  }
  const mults = acts.filter((a) => a.kind === "multiplier");
  if (mults.length) {
    box.append(el("span", "prompt", "选倍 multiplier: choose yours"));
    for (const a of mults) box.append(choiceButton(`×${a.value}`, a, send));
    return box;
  }
  const order = ["hu", "swap_back", "kong", "concealed_kong", "added_kong", "peng", "pass"];
  const others = acts.filter((a) => a.kind !== "discard").sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind));
  for (const a of others) {
    if (a.kind === "swap_back") {
      box.append(swapBackButton(model, a, send));
      continue;
    }
    const soft = softMeld(model, a);
    const b = choiceButton(soft ? SOFT_LABELS[a.kind] : KIND_LABELS[a.kind], a, send,
      a.kind === "hu" ? "hu" : soft ? "soft" : "", a.tile && a.kind !== "hu" ? a.tile : null);
    if (soft) b.dataset.soft = "true";
    box.append(b);
  }
  if (acts.some((a) => a.kind === "discard")) box.append(el("span", "prompt", "出牌 discard: click a tile"));
  else if (model.claim && others.length) {
    const p = el("span", "prompt");
    p.append(tileEl(model.claim.tile, { small: true }),
      el("span", "", `${model.claim.kind === "rob" ? "added to a kong" : "discarded"} by ${nameOf(names, model.claim.from)}`));
    box.append(p);
  }
  return box;
}

/** The 查听 help. `analysis` is the answer for the hand as it stands, or null while it is asked
 * for (the answer for an earlier hand is never shown: app.js passes null for it). */
export function helpPanel(analysis, model = null) {
  const box = el("section", "help");
  // docs/analyze-json.md: with wild tiles "wild" is a tile of its own (a wait, a 进张, a
  // discard): drawn as the hand's first wild kind, with its mark.
  const kinds = model && model.wilds ? model.wilds.kinds : [];
  const helpTile = (t) => (t === "wild" ? tileEl(kinds[0] || "?", { small: true, wild: true }) : tileEl(t, { small: true }));
  if (!analysis) {
    box.classList.add("pending");
    box.append(el("span", "", "查听 help: analysing this hand…"));
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
      line.append(el("span", "", `进张 useful draws ${analysis.jinzhang_total}:`));
      for (const [tile, left] of analysis.jinzhang) {
        line.append(helpTile(tile), el("span", "", `×${left}`));
      }
      box.append(line);
    }
    for (const w of analysis.waits) {
      const line = el("div", "help-line");
      line.append(helpTile(w.tile), el("span", "", `left ${w.remaining} · ${winText(w.discard_win)}`));
      box.append(line);
    }
  }
  if (analysis.discards) {
    box.append(el("div", "", "查听 best discards:"));
    for (const d of analysis.discards.slice(0, 5)) {
      const line = el("div", "help-line");
      line.append(helpTile(d.discard));
      if (d.shanten === 0) {
        line.append(el("span", "", "ready on"));
        for (const w of d.waits) {
          line.append(helpTile(w.tile), el("span", "", `×${w.remaining} (${w.discard_win.fan} 番 fan)`));
        }
      } else {
        line.append(el("span", "", `shanten ${d.shanten}, 进张 useful draws ${d.jinzhang_total}`));
      }
      box.append(line);
    }
  }
  return box;
}

export function renderTable(root, model, request, ui, names, send, now) {
  root.replaceChildren();
  setWilds(model.wilds && model.wilds.kinds);
  const top = el("div", "table-top");
  const felt = el("div", `felt seats-${model.players}`);
  for (let s = 0; s < model.players; s++) felt.append(seatPanel(model, s, names));
  felt.append(center(model, names, request, now));
  top.append(felt, actionLog(model, names));
  root.append(top);
  if (model.exchange && ui.exchangeUntil > now && model.exchange.given[0] !== "?") {
    root.append(exchangeNotice(model, names));
  }
  // The decision's buttons and the own hand: a dock kept in view at the bottom of the window.
  const dock = el("div", "dock");
  dock.append(controls(model, names, request, ui, send), ownHand(model, request, ui, send));
  root.append(dock);
  if (ui.help) root.append(helpPanel(ui.analysis && ui.analysis.key === ui.handKey ? ui.analysis.result : null, model));
}

// -- the settlement report -------------------------------------------------------------------------

/** Tile names of a hand in notation (docs/rules.md §1): concealed tiles, then each meld's tiles. */
export function notationTiles(text) {
  const groups = [];
  let current = [];
  let digits = "";
  for (const ch of text) {
    if (/[1-9]/.test(ch)) digits += ch;
    else if ("mpsz".includes(ch)) {
      for (const d of digits) current.push(d + ch);
      digits = "";
    } else if (ch === "(" || ch === "[") {
      groups.push(current);
      current = [];
    } else if (ch === ")" || ch === "]") {
      groups.push(current);
      current = [];
    }
  }
  groups.push(current);
  return groups.filter((g) => g.length);
}

function endCheckText(c) {
  if (!c || c.won) return "";
  if (c.pig) return "花猪 flower pig";
  if (c.ready) return `听 ready${c.best_fan === null || c.best_fan === undefined ? "" : ` (best ${c.best_fan} 番 fan)`}`;
  return "未听 not ready";
}

/** The settlement as one table, a row per seat, from the hand's events as this seat saw them
 * (so it shows only what the seat may see: others' winning hands are not in its events), and the
 * reader's own transfers below. */
export function renderReport(root, model, names, message) {
  root.replaceChildren();
  setWilds(model.wilds && model.wilds.kinds);
  const me = model.seat;
  const ended = model.endReason ? END_LABELS[model.endReason] || model.endReason : "";
  root.append(el("h2", "", "结算 Settlement"));
  root.append(el("p", "report-head", `${MODE_LABELS[model.mode] || ""}${ended ? ` · ended: ${ended}` : ""}`));
  const reasons = Object.keys(REASON_LABELS).filter((r) => model.pays.some((p) => p.reason === r));
  const table = el("table", "nets");
  const head = el("tr");
  head.append(el("th", "", "座位 seat"), el("th", "", "胡 wins"));
  for (const r of reasons) {
    const th = el("th", "", REASON_LABELS[r]);
    th.dataset.reason = r;
    head.append(th);
  }
  if (model.endChecks) head.append(el("th", "", "查叫 end check"));
  head.append(el("th", "", "输赢 net"), el("th", "", "coins"));
  table.append(head);
  for (let s = 0; s < model.players; s++) {
    const tr = el("tr", s === me ? "me" : "");
    tr.dataset.seat = String(s);
    const who = el("td", "who");
    who.append(el("span", "seat-name", nameOf(names, s)));
    if (s === me) who.append(el("span", "badge you", "你 you"));
    if (model.dealer === s) who.append(el("span", "badge dealer", "庄 dealer"));
    tr.append(who);
    const wins = el("td", "wins-cell");
    for (const h of model.horas.filter((x) => x.actor === s)) {
      const line = el("div", "report-win");
      line.append(tileEl(h.pai, { small: true }),
        el("span", "", `${winText(h)} ×${h.multiplier} · ${winHow(h, names)}`));
      if (h.hand) {
        // Only the reader's own winning hands are in its events (docs/rules.md §7).
        const hand = el("div", "win-hand");
        for (const g of notationTiles(h.hand)) {
          const group = el("span", "meld");
          for (const t of g) group.append(tileEl(t, { small: true }));
          hand.append(group);
        }
        line.append(hand);
      }
      wins.append(line);
    }
    tr.append(wins);
    for (const r of reasons) {
      let sum = 0;
      for (const p of model.pays) {
        if (p.reason !== r) continue;
        if (p.payee === s) sum += p.amount;
        if (p.payer === s) sum -= p.amount;
      }
      const td = el("td", `amount ${sum > 0 ? "plus" : sum < 0 ? "minus" : ""}`, sum ? signed(sum) : "");
      td.dataset.reason = r;
      tr.append(td);
    }
    if (model.endChecks) tr.append(el("td", "end-check", endCheckText(model.endChecks[s])));
    const net = message.net[s];
    tr.append(el("td", `net ${net > 0 ? "plus" : net < 0 ? "minus" : ""}`, signed(net)),
      el("td", "coins", message.coins ? String(message.coins[s]) : "–"));
    table.append(tr);
  }
  root.append(table);
  root.append(el("h3", "", "个人结算 your transfers"));
  const mine = model.pays.filter((p) => p.payer === me || p.payee === me);
  const ul = el("ul", "transfers");
  if (!mine.length) ul.append(el("li", "", "(none)"));
  for (const p of mine) {
    const gets = p.payee === me;
    const other = gets ? p.payer : p.payee;
    const li = el("li", gets ? "plus" : "minus",
      `${gets ? "+" : "−"}${p.amount} ${gets ? "from" : "to"} ${other === null ? "the house" : nameOf(names, other)}: ${REASON_LABELS[p.reason] || p.reason}`);
    if (p.detail) li.title = p.detail;
    ul.append(li);
  }
  root.append(ul);
}
