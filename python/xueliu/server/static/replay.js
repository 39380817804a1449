// The replay viewer: steps through one hand's events (docs/events.md) as one seat saw them, or
// all of them after the game (docs/review.md). The page's data (#replay-data) holds
//   { seat: 0..n-1 | null, title, events: [...], tiles: { "1m": "<svg…>", …, "back": … },
//     shape: { players, wall_tiles, dealt_tiles } (docs/rules.md §11.1; absent: the four-seat, 108-tile table),
//     table: { mode, label } (the mode and preset in words; absent: the mode of the deal),
//     names: null | [a name or null per seat],
//     review: null | { agreement, total_regret, decisions: [...] } }
// Every label with Chinese in it has English beside it (as at the browser table: a machine
// without CJK fonts shows the Chinese as boxes), and the page opens on the deal.
// The events are the seat's own stream (GameState.events(seat)) — hidden tiles are already "?"
// in them; nothing here ever sees another seat's concealed tiles in a one-seat view.
(function () {
  "use strict";

  const DEFAULT_SHAPE = { players: 4, wall_tiles: 108, dealt_tiles: 53 }; // the §1–§10 table
  const SUITS = ["m", "p", "s"];
  const SUIT_CHARS = { m: "万", p: "筒", s: "条" };
  const SUIT_NAMES = { m: "characters", p: "dots", s: "bamboo" };
  const MODE_LABELS = { xueliu: "血流成河 xueliu", xuezhan: "血战到底 xuezhan", daodaohu: "倒倒胡 daodaohu" };
  /** Why a hand ended (the end_hand event's reason): xueliu.review.report.END_WORDS. */
  const END_LABELS = {
    wall_exhausted: "wall exhausted (牌墙摸完)", three_wins: "three seats won (三家胡牌)",
    two_wins: "two seats won (两家胡牌)", one_win: "one seat won (一家胡牌)",
    first_win: "the first win (倒倒胡)",
  };
  /** Ledger reasons (xueliu.settlement.REASONS), as the browser table says them. */
  const REASON_LABELS = {
    hu: "胡 win", gang: "杠 kong", hujiaozhuanyi: "呼叫转移 call transfer", huazhu: "花猪 flower pig",
    chadajiao: "查大叫 ready check", tuishui: "退税 refund", fee: "服务费 fee", escape: "逃跑 escape",
  };
  const SOURCE_LABELS = { self_draw: "自摸 self-drawn", discard: "点炮 on a discard", robbed_kong: "抢杠 robbing a kong" };
  // Where each seat sits by its place after the viewer's in turn order, at n seats: the next on
  // the right, the one before on the left, the one between across (the browser table's places).
  const POSITIONS = {
    4: ["bottom", "right", "top", "left"], 3: ["bottom", "right", "left"], 2: ["bottom", "top"],
  };
  const PATTERNS = {
    pinghu: "平胡", duiduihu: "对对胡", qingyise: "清一色", daiyaojiu: "带幺九", qidui: "七对",
    jingoudiao: "金钩钓", qingdui: "清对", jiangdui: "将对", longqidui: "龙七对", qingqidui: "清七对",
    qingyaojiu: "清幺九", qingjingoudiao: "清金钩钓", qinglongqidui: "清龙七对", tianhu: "天胡",
    dihu: "地胡", shibaluohan: "十八罗汉", qingsanlongqidui: "清三龙七对",
    qingshibaluohan: "清十八罗汉", jiulianbaodeng: "九莲宝灯",
  };

  function kindOf(name) {
    return name === "?" ? 99 : SUITS.indexOf(name[1]) * 9 + Number(name[0]) - 1;
  }
  function sorted(tiles) { return [...tiles].sort((a, b) => kindOf(a) - kindOf(b)); }
  function removeOne(list, tile) {
    let i = list.indexOf(tile);
    if (i < 0) i = list.indexOf("?"); // a hidden tile of another seat
    if (i >= 0) list.splice(i, 1);
  }
  /** "5筒 5p": the tile in Chinese with its name beside it. */
  function tileText(t) { return t && t !== "?" ? `${t[0]}${SUIT_CHARS[t[1]]} ${t}` : "?"; }
  /** "清一色 qingyise": a pattern in Chinese with its id beside it. */
  function patternText(id) { return `${PATTERNS[id] || ""} ${id}`.trim(); }
  function endText(reason) { return END_LABELS[reason] || String(reason).replace(/_/g, " "); }
  /** "缺万 void: characters" */
  function voidText(suit) { return `缺${SUIT_CHARS[suit] || "?"} void: ${SUIT_NAMES[suit] || suit}`; }
  let NAMES = null; // the players' names, one per seat (data.names), or null
  /** A seat in words: its player's name where the page has it, else "seat 2". */
  function who(s) { return NAMES && NAMES[s] ? `${NAMES[s]} (seat ${s})` : `seat ${s}`; }

  // -- the table after each event ----------------------------------------------------------------

  /** One entry per seat: `value` (a list is a fresh empty list for each seat). */
  function perSeat(n, value) {
    return Array.from({ length: n }, () => (Array.isArray(value) ? [] : value));
  }

  /** The table before the deal, at a table of `shape`: the live wall the deal will leave. */
  function blank(shape) {
    const n = shape.players;
    return {
      n, wallTiles: shape.wall_tiles,
      hands: perSeat(n, []), drawn: perSeat(n, null), melds: perSeat(n, []),
      discards: perSeat(n, []), wins: perSeat(n, []), voids: perSeat(n, null),
      multipliers: null, net: perSeat(n, 0), coins: null, wall: shape.wall_tiles - shape.dealt_tiles, turn: null,
      dealer: null, mode: null, inPlay: perSeat(n, true), frozen: perSeat(n, false),
      auto: perSeat(n, false), turnNo: 0, last: null, text: "", over: false,
      pendingKakan: null, lastDiscard: null,
    };
  }

  function clone(s) { return JSON.parse(JSON.stringify(s)); }

  function describe(e) {
    switch (e.type) {
      case "start_hand": return `发牌 deal: dealer 庄 ${who(e.dealer)}, dice ${e.dice.join("+")}`;
      case "huansanzhang": return `${e.given[0].length === 4 ? "换四张 exchange four" : "换三张 exchange three"}: each seat receives from the ${e.direction} seat`;
      case "dingque": return `定缺 voids: ${e.voids.map((v, s) => `${who(s)} ${voidText(v)}`).join(", ")}`;
      case "xuanbei": return `选倍 multipliers: ${e.values.map((v, s) => `${who(s)} ×${v}`).join(", ")}`;
      case "tsumo": return `${who(e.actor)} draws ${tileText(e.pai)}${e.rinshan ? " (kong replacement)" : ""}`;
      case "dahai": return `${who(e.actor)} discards ${tileText(e.pai)}${e.auto ? " (auto)" : ""}`;
      case "pon": return `${who(e.actor)} 碰 peng ${tileText(e.pai)} from ${who(e.target)}`;
      case "daiminkan": return `${who(e.actor)} 杠 kong ${tileText(e.pai)} from ${who(e.target)}`;
      case "ankan": return `${who(e.actor)} 暗杠 concealed kong`;
      case "kakan": return `${who(e.actor)} 补杠 added kong ${tileText(e.pai)}`;
      case "hora": return `${who(e.actor)} 胡 wins on ${tileText(e.pai)}: ${patternText(e.base)} ${e.fan}番 fan, ${SOURCE_LABELS[e.source] || e.source}${e.source === "self_draw" ? "" : ` from ${who(e.target)}`}`;
      case "pay": return `${e.payer === null ? "the house" : who(e.payer)} pays ${e.amount} to ${e.payee === null ? "the house" : who(e.payee)} (${REASON_LABELS[e.reason] || e.reason})`;
      case "timeout": return `${who(e.actor)} timed out`;
      case "auto_play": return `${who(e.actor)} is auto-played (托管)`;
      case "auto_play_cancelled": return `${who(e.actor)} 取消托管 cancelled auto-play: plays again`;
      case "escape": return `${who(e.actor)} 逃跑 escaped`;
      case "end_checks": return "end checks: 查花猪 flower pig / 查大叫 ready check";
      case "end_hand": return `本局结束 hand over: ${endText(e.reason)}; net ${e.net.map((n) => (n > 0 ? "+" : "") + n).join(" ")}`;
      default: return e.type;
    }
  }

  function apply(t, e) {
    const a = e.actor;
    t.last = null;
    switch (e.type) {
      case "start_hand":
        t.mode = e.mode; t.dealer = e.dealer;
        t.hands = e.tehais.map((h) => sorted(h));
        // The live wall: the table's wall less the tiles dealt (docs/rules.md §10, §11.1).
        t.wall = t.wallTiles - e.tehais.reduce((k, h) => k + h.length, 0);
        break;
      case "huansanzhang":
        for (let s = 0; s < t.n; s++) {
          for (const x of e.given[s]) removeOne(t.hands[s], x);
          t.hands[s] = sorted([...t.hands[s], ...e.received[s]]);
        }
        break;
      case "dingque": t.voids = [...e.voids]; break;
      case "xuanbei": t.multipliers = [...e.values]; break;
      case "tsumo":
        t.turn = a; t.wall -= 1; t.turnNo += 1;
        t.drawn = perSeat(t.n, null);
        t.drawn[a] = e.pai;
        t.hands[a].push(e.pai);
        break;
      case "dahai":
        t.turn = a;
        removeOne(t.hands[a], e.pai);
        t.hands[a] = sorted(t.hands[a]);
        t.drawn = perSeat(t.n, null);
        t.discards[a].push(e.pai);
        t.last = { seat: a, where: "discard", index: t.discards[a].length - 1 };
        t.lastDiscard = a;
        break;
      case "pon":
      case "daiminkan": {
        const kong = e.type === "daiminkan";
        t.discards[e.target].pop();
        for (const x of e.consumed) removeOne(t.hands[a], x);
        t.melds[a].push({ type: kong ? "kong" : "peng", tile: e.pai, from: e.target });
        t.turn = a;
        t.last = { seat: a, where: "meld", index: t.melds[a].length - 1 };
        break;
      }
      case "ankan":
        for (const x of e.consumed) removeOne(t.hands[a], x);
        t.hands[a] = sorted(t.hands[a]);
        t.drawn = perSeat(t.n, null);
        t.melds[a].push({ type: "concealed_kong", tile: e.consumed[0], from: null });
        t.last = { seat: a, where: "meld", index: t.melds[a].length - 1 };
        break;
      case "kakan": {
        removeOne(t.hands[a], e.pai);
        t.hands[a] = sorted(t.hands[a]);
        t.drawn = perSeat(t.n, null);
        const m = t.melds[a].find((x) => x.type === "peng" && x.tile === e.pai);
        if (m) m.type = "kong";
        t.pendingKakan = { seat: a, tile: e.pai };
        break;
      }
      case "hora": {
        const first = !e.winners || e.winners[0] === a;
        if (first) {
          if (e.source === "discard") t.discards[e.target].pop();
          if (e.source === "self_draw") { removeOne(t.hands[a], e.pai); t.hands[a] = sorted(t.hands[a]); }
          if (e.source === "robbed_kong" && t.pendingKakan) {
            const k = t.pendingKakan; // the robbed kong stays a peng (docs/rules.md §10)
            const m = t.melds[k.seat].find((x) => x.type === "kong" && x.tile === k.tile);
            if (m) m.type = "peng";
          }
        }
        t.wins[a].push({ pai: e.pai, fan: e.fan, base: e.base, source: e.source });
        t.drawn = perSeat(t.n, null);
        if (t.mode !== "xueliu") t.inPlay[a] = false; else t.frozen[a] = true;
        break;
      }
      case "pay":
        if (e.payer !== null && e.payer !== undefined) t.net[e.payer] -= e.amount;
        if (e.payee !== null && e.payee !== undefined) t.net[e.payee] += e.amount;
        break;
      case "auto_play": t.auto[a] = true; break;
      case "auto_play_cancelled": t.auto[a] = false; break;
      case "end_hand":
        t.over = true; t.net = [...e.net];
        if (e.coins) t.coins = [...e.coins];
        break;
      default: break;
    }
    if (e.type !== "kakan" && e.type !== "hora") t.pendingKakan = null;
    t.text = describe(e);
  }

  // -- drawing -------------------------------------------------------------------------------------

  function el(tag, cls, text) {
    const x = document.createElement(tag);
    if (cls) x.className = cls;
    if (text !== undefined) x.textContent = text;
    return x;
  }

  let ART = {};
  /** The SVG text of a tile name ("1m".."9s"; "?" and unknown names draw the back). */
  function tileSvg(name) {
    return ART[name] || ART.back || "";
  }

  function tile(name, extra) {
    const x = el("span", "tile" + (extra ? " " + extra : ""));
    const hidden = !name || name === "?";
    x.dataset.tile = hidden ? "?" : name;
    x.title = hidden ? "hidden" : tileText(name);
    x.innerHTML = tileSvg(hidden ? "back" : name); // our own inline SVG, never another's text
    return x;
  }

  function seatPanel(t, s, me, reviewed) {
    const rel = (s - (me === null ? 0 : me) + t.n) % t.n;
    const p = el("section", `seat pos-${POSITIONS[t.n][rel]}`);
    p.dataset.seat = String(s);
    if (t.turn === s && !t.over) p.classList.add("on-turn");
    if (!t.inPlay[s]) p.classList.add("left-play");
    if (reviewed === s) p.classList.add("reviewed");
    const head = el("div", "seat-head");
    const name = el("span", "seat-name", NAMES && NAMES[s] ? NAMES[s] : `Seat ${s}`);
    head.append(name);
    if (NAMES && NAMES[s]) head.append(el("span", "seat-number", `seat ${s}`));
    if (me === s) head.append(el("span", "seat-number", "(this view)"));
    if (t.dealer === s) head.append(el("span", "badge dealer", "庄 dealer"));
    if (t.voids[s]) {
      const v = el("span", `badge void suit-${t.voids[s]}`, voidText(t.voids[s]));
      v.dataset.void = t.voids[s];
      head.append(v);
    }
    if (t.multipliers) head.append(el("span", "badge mult", `选倍 ×${t.multipliers[s]}`));
    if (t.auto[s]) head.append(el("span", "badge auto", "托管 auto-play"));
    const n = t.net[s];
    const net = el("span", `net ${n > 0 ? "plus" : n < 0 ? "minus" : ""}`, `${n > 0 ? "+" : ""}${n}`);
    net.dataset.net = String(n);
    head.append(net);
    if (t.coins) head.append(el("span", "coins", `金 coins ${t.coins[s]}`));
    p.append(head);

    const wins = el("div", "row wins");
    for (const w of t.wins[s]) {
      const chip = el("span", "win-chip");
      chip.append(tile(w.pai), el("span", "", `${patternText(w.base)} ${w.fan}番 fan`));
      wins.append(chip);
    }
    p.append(wins);

    const hand = el("div", "row hand");
    const tiles = [...t.hands[s]];
    const drawn = t.drawn[s];
    if (drawn) removeOne(tiles, drawn);
    for (const x of sorted(tiles)) hand.append(tile(x));
    if (drawn) hand.append(tile(drawn, "drawn"));
    p.append(hand);

    const melds = el("div", "row melds");
    t.melds[s].forEach((m, i) => {
      const g = el("span", "meld");
      g.dataset.type = m.type;
      const n4 = m.type === "peng" ? 3 : 4;
      for (let k = 0; k < n4; k++) {
        const hideIt = m.type === "concealed_kong" && (k === 0 || k === 3 || m.tile === "?");
        g.append(tile(hideIt ? "?" : m.tile, t.last && t.last.seat === s && t.last.where === "meld" && t.last.index === i ? "last" : ""));
      }
      melds.append(g);
    });
    p.append(melds);

    const river = el("div", "row discards");
    t.discards[s].forEach((x, i) => {
      river.append(tile(x, t.last && t.last.seat === s && t.last.where === "discard" && t.last.index === i ? "last" : ""));
    });
    p.append(river);
    return p;
  }

  // -- the page ------------------------------------------------------------------------------------

  function start(data) {
    ART = data.tiles || {};
    NAMES = Array.isArray(data.names) ? data.names : null;
    const shape = data.shape || DEFAULT_SHAPE;
    document.getElementById("table").classList.add(`seats-${shape.players}`);
    let events = [];
    const me = data.seat === undefined ? null : data.seat;
    const review = data.review || null;
    const reviewed = review ? review.seat : null;
    let frames = [blank(shape)];
    let turnStarts = []; // turnStarts[n - 1]: the step where turn n (the n-th draw) begins
    /** Adds events (a live table's new ones) to the frames; `fresh`: a new hand, from scratch. */
    function extend(more, fresh) {
      if (fresh) { events = []; frames = [blank(shape)]; turnStarts = []; }
      for (const e of more) {
        const t = clone(frames[frames.length - 1]);
        apply(t, e);
        frames.push(t);
        events.push(e);
        if (e.type === "tsumo") turnStarts.push(frames.length - 1);
      }
      document.getElementById("scrub").min = String(firstStep());
      document.getElementById("scrub").max = String(events.length);
      document.getElementById("turn-input").max = String(Math.max(1, turnStarts.length));
    }
    /** The first step shown: after the deal (step 0, the felt before it, holds nothing to see). */
    function firstStep() { return events.length ? 1 : 0; }
    extend(data.events, true);
    const byStep = {};
    for (const d of review ? review.decisions : []) (byStep[d.event] = byStep[d.event] || []).push(d);

    const $ = (id) => document.getElementById(id);
    $("title").textContent = data.title || "";
    /** The table in words (its mode and preset), the page's title and its header. */
    function nameTable() {
      const deal = events.find((e) => e.type === "start_hand");
      const label = (data.table && data.table.label) || (deal && MODE_LABELS[deal.mode]) || "";
      $("brand").textContent = label || "xueliu replay";
      document.title = `${label || "xueliu"} — ${review ? `review of seat ${review.seat}` : "replay"}`;
    }
    nameTable();
    const scrub = $("scrub");
    let step = 0;
    let timer = null;
    let shownDecision = null;

    $("side").hidden = !review; // the decisions' column, for a review only
    if (review) {
      const s = $("summary");
      s.innerHTML = "";
      const ag = el("span", "", `agreement ${(review.agreement * 100).toFixed(1)}%`);
      ag.id = "agreement";
      ag.dataset.value = String(review.agreement);
      const tr = el("span", "", ` · total regret ${review.total_regret.toFixed(3)}`);
      tr.id = "total-regret";
      tr.dataset.value = String(review.total_regret);
      const res = el("span", "", ` · ${who(review.seat)} final net ${review.result.seat_net > 0 ? "+" : ""}${review.result.seat_net}`);
      res.id = "seat-net";
      s.append(ag, tr, res);
      const list = $("decision-list");
      const n = review.decisions.length;
      list.append(el("h3", "", `${n} decision${n === 1 ? "" : "s"} of ${who(review.seat)}`));
      for (const d of review.decisions) {
        const item = el("div", "decision-item" + (d.agrees ? "" : " miss"),
          `#${d.number} ${d.kind}: ${d.chosen.text}${d.agrees ? "" : ` (best ${d.best.text}, −${d.regret.toFixed(3)})`}`);
        item.dataset.number = String(d.number);
        item.dataset.regret = String(d.regret);
        item.addEventListener("click", () => { pause(); show(d.event, d); });
        list.append(item);
      }
    }

    function decisionBox(d) {
      const box = $("decision");
      box.innerHTML = "";
      if (!d) return;
      box.dataset.number = String(d.number);
      box.append(el("h3", "", `Decision #${d.number}: ${d.kind}${d.timeout ? " (timeout)" : d.auto ? " (auto-play)" : ""}`));
      const chosenValued = d.chosen_valued !== false;
      const bestValued = d.best_valued !== false;
      const line = el("div", "", `chose ${d.chosen.text} (${valueText(d.chosen_value, chosenValued)}), best ${d.best.text} (${valueText(d.best_value, bestValued)})`);
      box.append(line);
      const r = el("div", d.regret > 0 ? "regret" : "", `regret ${d.regret.toFixed(3)}`);
      r.id = "decision-regret";
      r.dataset.value = String(d.regret);
      box.append(r);
      const table = el("table", "options");
      for (const o of d.options) {
        const tr = el("tr", "");
        if (o.id === d.best.id) tr.classList.add("best");
        if (o.id === d.chosen.id) tr.classList.add("chosen");
        tr.dataset.id = String(o.id);
        const isValued = o.valued !== false;
        const cell = el("td", isValued ? "value" : "value not-valued", valueText(o.value, isValued));
        if (!isValued) cell.title = "the expert's model gives this option no value (docs/review.md)";
        tr.append(el("td", "", o.text), cell);
        table.append(tr);
      }
      box.append(table);
    }

    function valueText(v, isValued) { return isValued ? v.toFixed(3) : "not valued"; }

    function show(i, d) {
      step = Math.max(firstStep(), Math.min(events.length, i));
      const t = frames[step];
      const table = $("table");
      for (const old of table.querySelectorAll(".seat")) old.remove();
      for (let s = 0; s < t.n; s++) table.append(seatPanel(t, s, me, reviewed));
      $("wall").textContent = String(t.wall);
      $("turn-label").textContent = t.turnNo ? `turn ${t.turnNo}${t.turn !== null ? ` · ${who(t.turn)}` : ""}` : "before play";
      $("last-event").textContent = step ? t.text : "no events yet";
      $("step-label").textContent = `event ${step} / ${events.length}`;
      $("step-label").dataset.step = String(step);
      scrub.value = String(step);
      const here = byStep[step] || [];
      shownDecision = d || here[0] || null;
      decisionBox(shownDecision);
      for (const item of document.querySelectorAll(".decision-item")) {
        item.classList.toggle("current", here.some((x) => String(x.number) === item.dataset.number));
      }
    }

    function pause() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      $("play").textContent = "▶ play";
    }
    function play() {
      if (step >= events.length) show(firstStep());
      const rate = Number($("speed").value) || 2;
      timer = setInterval(() => {
        if (step >= events.length) { pause(); return; }
        show(step + 1);
      }, 1000 / rate);
      $("play").textContent = "⏸ pause";
    }

    $("first").addEventListener("click", () => { pause(); show(firstStep()); });
    $("prev").addEventListener("click", () => { pause(); show(step - 1); });
    $("next").addEventListener("click", () => { pause(); show(step + 1); });
    $("last").addEventListener("click", () => { pause(); show(events.length); });
    $("play").addEventListener("click", () => (timer === null ? play() : pause()));
    $("speed").addEventListener("change", () => { if (timer !== null) { pause(); play(); } });
    $("jump").addEventListener("click", () => {
      pause();
      const n = Number($("turn-input").value);
      if (n >= 1 && n <= turnStarts.length) show(turnStarts[n - 1]);
    });
    scrub.addEventListener("input", () => { pause(); show(Number(scrub.value)); });
    document.addEventListener("keydown", (e) => {
      if (e.target && e.target.tagName === "INPUT") return;
      if (e.key === "ArrowRight") { pause(); show(step + 1); }
      else if (e.key === "ArrowLeft") { pause(); show(step - 1); }
      else if (e.key === "Home") { pause(); show(firstStep()); }
      else if (e.key === "End") { pause(); show(events.length); }
      else if (e.key === " ") { e.preventDefault(); timer === null ? play() : pause(); }
    });
    window.replayViewer = { show, get frames() { return frames; }, get step() { return step; } };
    show(data.live ? events.length : firstStep()); // a live table opens at its latest event
    if (data.live) follow(data.live, data.hand, events.length);

    /** A live table (spectators): asks for new events every second and keeps to the latest one
     * unless the viewer has stepped back. The server sends the public view only, one event late. */
    function follow(url, hand, total) {
      let current = hand;
      let have = total;
      const poll = () => {
        fetch(`${url}?since=${current === null ? 0 : have}&hand=${current === null ? "" : current}`)
          .then((r) => r.json())
          .then((d) => {
            if (d.error) { $("title").textContent = d.error; return; }
            if (Array.isArray(d.names)) NAMES = d.names; // who sits where now
            const atEnd = step === events.length;
            const fresh = d.hand !== current;
            if (fresh || d.events.length) {
              current = d.hand;
              extend(d.events, fresh);
              have = events.length;
              if (fresh) nameTable();
              if (atEnd || fresh) show(events.length);
            }
            $("title").textContent = `table ${d.table} · live, public view` + (d.over ? " · hand over" : "");
          })
          .catch(() => {})
          .finally(() => setTimeout(poll, 1000));
      };
      setTimeout(poll, 1000);
    }
  }

  function boot() {
    const node = document.getElementById("replay-data");
    const inline = node ? JSON.parse(node.textContent || "null") : null;
    if (inline) { start(inline); return; }
    const src = node && node.dataset.src; // the server's page: the same viewer, its data fetched
    if (!src) {
      const live = node && node.dataset.live; // a live table's public view (xueliu serve)
      if (live) {
        fetch(`${live}?since=0`).then((r) => r.json()).then((d) => {
          if (d.error) { document.getElementById("title").textContent = d.error; return; }
          start({ seat: null, title: `table ${d.table} · live, public view`, events: d.events,
                  tiles: d.tiles, shape: d.shape, review: null, live, hand: d.hand, names: d.names });
        });
      }
      return;
    }
    // The browser table keeps the player's token here (app.js); only a hand's players may read it.
    const token = localStorage.getItem("xueliu.token");
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    fetch(src, { headers }).then(async (r) => {
      const body = await r.json();
      if (!r.ok) {
        const t = document.getElementById("title");
        t.textContent = `${r.status}: ${body.error || "cannot load this hand"}`;
        t.dataset.status = String(r.status);
        return;
      }
      start(body);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
