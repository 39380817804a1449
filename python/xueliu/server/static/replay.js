// The replay viewer: steps through one hand's events (docs/events.md) as one seat saw them, or
// all of them after the game (docs/review.md). The page's data (#replay-data) holds
//   { seat: 0..n-1 | null, title, events: [...], tiles: { "1m": "<svg…>", …, "back": … },
//     shape: { players, wall_tiles, dealt_tiles } (docs/rules.md §11.1; absent: the four-seat, 108-tile table),
//     review: null | { agreement, total_regret, decisions: [...] } }
// The events are the seat's own stream (GameState.events(seat)) — hidden tiles are already "?"
// in them; nothing here ever sees another seat's concealed tiles in a one-seat view.
(function () {
  "use strict";

  const DEFAULT_SHAPE = { players: 4, wall_tiles: 108, dealt_tiles: 53 }; // the §1–§10 table
  const SUITS = ["m", "p", "s"];
  const SUIT_CHARS = { m: "万", p: "筒", s: "条" };
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
  function tileText(t) { return t && t !== "?" ? `${t[0]}${SUIT_CHARS[t[1]]}` : "?"; }

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
    const who = (s) => `seat ${s}`;
    switch (e.type) {
      case "start_hand": return `deal: dealer ${who(e.dealer)}, dice ${e.dice.join("+")}`;
      case "huansanzhang": return `${e.given[0].length === 4 ? "换四张" : "换三张"}: each seat receives from ${e.direction}`;
      case "dingque": return `定缺: ${e.voids.map((v, s) => `${s}:${SUIT_CHARS[v] || "?"}`).join(" ")}`;
      case "xuanbei": return `选倍: ${e.values.map((v) => "×" + v).join(" ")}`;
      case "tsumo": return `${who(e.actor)} draws ${tileText(e.pai)}${e.rinshan ? " (kong replacement)" : ""}`;
      case "dahai": return `${who(e.actor)} discards ${tileText(e.pai)}${e.auto ? " (auto)" : ""}`;
      case "pon": return `${who(e.actor)} 碰 peng ${tileText(e.pai)} from ${who(e.target)}`;
      case "daiminkan": return `${who(e.actor)} 杠 kong ${tileText(e.pai)} from ${who(e.target)}`;
      case "ankan": return `${who(e.actor)} 暗杠 concealed kong`;
      case "kakan": return `${who(e.actor)} 补杠 added kong ${tileText(e.pai)}`;
      case "hora": return `${who(e.actor)} 胡 wins on ${tileText(e.pai)}: ${PATTERNS[e.base] || e.base} ${e.fan}番 (${e.source})`;
      case "pay": return `${e.payer === null ? "house" : who(e.payer)} pays ${e.amount} to ${e.payee === null ? "the house" : who(e.payee)} (${e.reason})`;
      case "timeout": return `${who(e.actor)} timed out`;
      case "auto_play": return `${who(e.actor)} is auto-played (托管)`;
      case "escape": return `${who(e.actor)} escaped`;
      case "end_checks": return "end checks (查花猪 / 查大叫)";
      case "end_hand": return `hand over (${e.reason}): ${e.net.map((n) => (n > 0 ? "+" : "") + n).join(" ")}`;
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
    head.append(el("span", "seat-name", `Seat ${s}${me === s ? " (this view)" : ""}`));
    if (t.dealer === s) head.append(el("span", "badge dealer", "庄"));
    if (t.voids[s]) {
      const v = el("span", `badge void suit-${t.voids[s]}`, `缺${SUIT_CHARS[t.voids[s]]}`);
      v.dataset.void = t.voids[s];
      head.append(v);
    }
    if (t.multipliers) head.append(el("span", "badge mult", `×${t.multipliers[s]}`));
    if (t.auto[s]) head.append(el("span", "badge", "托管"));
    const n = t.net[s];
    const net = el("span", `net ${n > 0 ? "plus" : n < 0 ? "minus" : ""}`, `${n > 0 ? "+" : ""}${n}`);
    net.dataset.net = String(n);
    head.append(net);
    if (t.coins) head.append(el("span", "coins", `金 ${t.coins[s]}`));
    p.append(head);

    const wins = el("div", "row wins");
    for (const w of t.wins[s]) {
      const chip = el("span", "win-chip");
      chip.append(tile(w.pai), el("span", "", `${PATTERNS[w.base] || w.base} ${w.fan}番`));
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
      document.getElementById("scrub").max = String(events.length);
      document.getElementById("turn-input").max = String(Math.max(1, turnStarts.length));
    }
    extend(data.events, true);
    const byStep = {};
    for (const d of review ? review.decisions : []) (byStep[d.event] = byStep[d.event] || []).push(d);

    const $ = (id) => document.getElementById(id);
    $("title").textContent = data.title || "";
    const scrub = $("scrub");
    let step = 0;
    let timer = null;
    let shownDecision = null;

    if (review) {
      const s = $("summary");
      s.innerHTML = "";
      const ag = el("span", "", `agreement ${(review.agreement * 100).toFixed(1)}%`);
      ag.id = "agreement";
      ag.dataset.value = String(review.agreement);
      const tr = el("span", "", ` · total regret ${review.total_regret.toFixed(3)}`);
      tr.id = "total-regret";
      tr.dataset.value = String(review.total_regret);
      const res = el("span", "", ` · seat ${review.seat} net ${review.result.seat_net > 0 ? "+" : ""}${review.result.seat_net}`);
      res.id = "seat-net";
      s.append(ag, tr, res);
      const list = $("decision-list");
      list.append(el("h3", "", `Decisions of seat ${review.seat}`));
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
      const line = el("div", "", `chose ${d.chosen.text} (${d.chosen_value.toFixed(3)}), best ${d.best.text} (${d.best_value.toFixed(3)})`);
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
        tr.append(el("td", "", o.text), el("td", "value", o.value.toFixed(3)));
        table.append(tr);
      }
      box.append(table);
    }

    function show(i, d) {
      step = Math.max(0, Math.min(events.length, i));
      const t = frames[step];
      const table = $("table");
      for (const old of table.querySelectorAll(".seat")) old.remove();
      for (let s = 0; s < t.n; s++) table.append(seatPanel(t, s, me, reviewed));
      $("wall").textContent = String(t.wall);
      $("turn-label").textContent = t.turnNo ? `turn ${t.turnNo}${t.turn !== null ? ` · seat ${t.turn}` : ""}` : "before play";
      $("last-event").textContent = step ? t.text : "the deal";
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
      if (step >= events.length) show(0);
      const rate = Number($("speed").value) || 2;
      timer = setInterval(() => {
        if (step >= events.length) { pause(); return; }
        show(step + 1);
      }, 1000 / rate);
      $("play").textContent = "⏸ pause";
    }

    $("first").addEventListener("click", () => { pause(); show(0); });
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
      else if (e.key === "Home") { pause(); show(0); }
      else if (e.key === "End") { pause(); show(events.length); }
      else if (e.key === " ") { e.preventDefault(); timer === null ? play() : pause(); }
    });
    window.replayViewer = { show, get frames() { return frames; }, get step() { return step; } };
    show(0);
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
            const atEnd = step === events.length;
            const fresh = d.hand !== current;
            if (fresh || d.events.length) {
              current = d.hand;
              extend(d.events, fresh);
              have = events.length;
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
                  tiles: d.tiles, shape: d.shape, review: null, live, hand: d.hand });
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
