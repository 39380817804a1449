// The table as one seat sees it: built from the server's `state` message (the seat's observation)
// and kept current by applying each `event` (docs/events.md) exactly as the engine logs it.
// A `state` message (connect, reconnect, new hand) always replaces the whole model.
// The table's shape (the `state` message's `shape`, docs/rules.md §11.1) says how many seats there are,
// the suits in play and the wall's size: every per-seat list here has one entry per seat; at a
// table with wild tiles (docs/rules.md §12) its `wilds` says which they are.

import { SUITS, kindOf, sortTiles } from "./tiles.js";

/** The §1–§10 table (4 seats, m p s, 108 tiles, 53 dealt): the shape of a `state` message that
 * carries none. */
export const DEFAULT_SHAPE = {
  players: 4, suits: ["m", "p", "s"], wall_tiles: 108, dealt_tiles: 53, hand_size: 13,
  declare_void: true, exchange_three: true, exchange_count: 3,
};

/** One entry per seat: `value` (a list is a fresh empty list for each seat). */
export function perSeat(n, value) {
  return Array.from({ length: n }, () => (Array.isArray(value) ? [] : value));
}

function removeOne(list, tile) {
  const i = list.indexOf(tile);
  if (i >= 0) list.splice(i, 1);
}

function nameOfKind(k) {
  return `${(k % 9) + 1}${SUITS[Math.floor(k / 9)]}`;
}

/** The wild kinds a 本金 makes (docs/rules.md §12.1): the kinds of its suit one rank below and
 * one above, wrapping round (本金 1 → 9 and 2); under "benjin_plus" its own kind too. */
export function benjinWilds(benjin, rule) {
  const k = kindOf(benjin);
  const suit = Math.floor(k / 9) * 9;
  const r = k % 9;
  const kinds = [suit + ((r + 8) % 9), suit + ((r + 1) % 9)];
  if (rule === "benjin_plus") kinds.push(k);
  return kinds.sort((a, b) => a - b).map(nameOfKind);
}

/** The wilds of a new hand at a table of this shape, before its 本金 is turned up (`null`: a table
 * without wild tiles): the shape's fixed wild kinds (幺鸡's 1s, the 红中 "7z"), none yet under a
 * 本金 rule. */
function wildsOfShape(shape) {
  const w = shape.wilds;
  return w ? { kinds: [...w.kinds], benjin: null, inWall: w.in_wall } : null;
}

/** A meld as the observation gives it, copied; `wilds` (the physical wild tiles in it, docs/events.md)
 * is [] where the observation has none, `null` for another seat's concealed kong. */
function copyMeld(m) {
  return { ...m, wilds: m.wilds === null ? null : [...(m.wilds || [])] };
}

/** The observation of a table before its first deal: nobody has anything. */
function blank(n) {
  return {
    mode: null, dealer: null, phase: "waiting", is_over: false, turn: null, hand: [], drawn: null,
    void: null, voids: perSeat(n, null), multipliers: null, melds: perSeat(n, []),
    discards: perSeat(n, []), wins: perSeat(n, []), set_aside: [], claim: null, exchange: null,
    wall_remaining: 0, dice: null, in_play: perSeat(n, true), frozen: perSeat(n, false),
    auto_play: perSeat(n, false), hand_sizes: perSeat(n, 0), net: perSeat(n, 0), coins: null, base: 1,
  };
}

export class TableModel {
  constructor(table, seat, observation, events, shape = DEFAULT_SHAPE) {
    this.table = table;
    this.seat = seat;
    this.shape = shape;
    this.players = shape.players;
    const n = this.players;
    // Before the first deal (people still sitting down) there is no observation: an empty table.
    const o = observation || blank(n);
    this.mode = o.mode;
    this.dealer = o.dealer;
    this.phase = o.phase;
    this.isOver = o.is_over;
    this.turn = o.turn;
    this.hand = sortTiles(o.hand || []);
    this.drawn = o.drawn;
    this.void = o.void;
    this.voids = o.voids || perSeat(n, null);
    this.multipliers = o.multipliers;
    this.melds = o.melds.map((ms) => ms.map(copyMeld));
    // The hand's wild tiles (docs/rules.md §12): `kinds` (tile names, "7z" for 红中), `benjin`
    // (the face-up 本金, or null) and `inWall` (how many wilds the wall set holds); null at a
    // table without wilds.
    this.wilds = o.wilds ? { kinds: [...o.wilds.kinds], benjin: o.wilds.benjin, inWall: o.wilds.in_wall }
      : wildsOfShape(shape);
    this.discards = o.discards.map((d) => [...d]);
    this.wins = o.wins.map((ws) => [...ws]);
    this.setAside = [...o.set_aside];
    this.claim = o.claim;
    this.exchange = o.exchange;
    this.wallRemaining = o.wall_remaining;
    this.dice = o.dice;
    this.inPlay = [...o.in_play];
    this.frozen = [...o.frozen];
    this.autoPlay = [...o.auto_play];
    this.handSizes = [...o.hand_sizes];
    this.net = [...o.net];
    this.coins = o.coins;
    this.base = o.base;
    this.lastDiscard = null;
    // Tiles received in the exchange, marked in the hand until this seat's first discard.
    this.received = [];
    if (o.exchange && o.exchange.received && o.discards[this.seat].length === 0) {
      this.received = o.exchange.received.filter((t) => t !== "?");
    }
    this.endChecks = null;
    this.endReason = null;
    // What the settlement report lists: every win and every transfer of this hand, in order.
    this.horas = [];
    this.pays = [];
    this.log = [];
    this.escaped = perSeat(n, false); // an escaped seat stays auto-played to the end of the hand
    for (const e of events || []) this.remember(e);
  }

  /** Whether a tile is a wild of this hand. */
  isWild(tile) {
    return Boolean(this.wilds) && this.wilds.kinds.includes(tile);
  }

  /** Keeps the report's and the log's share of an event (the observation already holds its effect). */
  remember(e) {
    if (e.type === "hora") this.horas.push(e);
    else if (e.type === "pay") this.pays.push(e);
    else if (e.type === "end_checks") this.endChecks = e.seats;
    else if (e.type === "end_hand") this.endReason = e.reason;
    else if (e.type === "escape") this.escaped[e.actor] = true;
    this.log.push(e);
  }

  /** Applies one event the server sent after the `state` message. `phase` is the engine's phase
   * the server sent with it (the phase once this event's step is done; docs/server.md). */
  apply(e, phase) {
    this.remember(e);
    const me = this.seat;
    const n = this.players;
    const a = e.actor;
    switch (e.type) {
      case "start_hand":
        // A new hand at the same table: start from scratch (the server also sends `state`).
        this.mode = e.mode;
        this.dealer = e.dealer;
        this.dice = e.dice;
        this.autoPlay = perSeat(n, false);
        this.hand = sortTiles(e.tehais[me]);
        this.handSizes = e.tehais.map((t) => t.length);
        this.melds = perSeat(n, []);
        this.discards = perSeat(n, []);
        this.wins = perSeat(n, []);
        this.setAside = [];
        this.wilds = wildsOfShape(this.shape);
        this.voids = perSeat(n, null);
        this.void = null;
        this.multipliers = null;
        // The live wall: the table's wall less the tiles dealt (docs/rules.md §10, §11.1: 108 − 53 at
        // four seats, 72 − 40 at 三人两房).
        this.wallRemaining = this.shape.wall_tiles - this.handSizes.reduce((x, y) => x + y, 0);
        this.inPlay = perSeat(n, true);
        this.frozen = perSeat(n, false);
        this.net = perSeat(n, 0);
        this.isOver = false;
        this.horas = [];
        this.pays = [];
        this.log = [e];
        this.escaped = perSeat(n, false);
        this.endChecks = null;
        this.endReason = null;
        this.received = [];
        this.exchange = null;
        this.claim = null;
        this.phase = "exchange";
        break;
      case "benjin":
        // The wall's last tile turned face up (docs/rules.md §12.1): it leaves the live wall, and
        // under a 本金 rule its neighbours are this hand's wild kinds.
        this.wallRemaining -= 1;
        if (!this.wilds) this.wilds = { kinds: [], benjin: null, inWall: 0 };
        this.wilds.benjin = e.pai;
        if (this.shape.wilds && this.shape.wilds.benjin) {
          this.wilds.kinds = sortTiles([...this.shape.wilds.kinds, ...benjinWilds(e.pai, this.shape.wilds.benjin)]);
        }
        break;
      case "huansanzhang":
        if (e.given[me][0] !== "?") {
          for (const t of e.given[me]) removeOne(this.hand, t);
          this.hand = sortTiles([...this.hand, ...e.received[me]]);
        }
        this.exchange = { direction: e.direction, die: e.die, given: e.given[me], received: e.received[me] };
        this.received = e.received[me].filter((t) => t !== "?");
        break;
      case "dingque":
        this.voids = [...e.voids];
        this.void = e.voids[me];
        break;
      case "xuanbei":
        this.multipliers = [...e.values];
        break;
      case "tsumo":
        this.phase = "turn";
        this.turn = a;
        this.wallRemaining -= 1;
        this.handSizes[a] += 1;
        this.claim = null;
        if (a === me) {
          this.hand = sortTiles([...this.hand, e.pai]);
          this.drawn = e.pai;
        }
        break;
      case "dahai":
        this.phase = "turn";
        this.turn = a;
        this.discards[a].push(e.pai);
        this.handSizes[a] -= 1;
        this.lastDiscard = { seat: a, tile: e.pai };
        if (a === me) {
          removeOne(this.hand, e.pai);
          this.drawn = null;
          this.received = [];
        }
        break;
      case "pon":
      case "daiminkan": {
        const kong = e.type === "daiminkan";
        this.discards[e.target].pop();
        // `consumed`: the claimer's own tiles, a soft meld's wilds among them (docs/events.md).
        this.melds[a].push({
          type: kong ? "kong" : "peng", tile: e.pai, from: e.target,
          wilds: e.consumed.filter((t) => t !== e.pai),
        });
        this.handSizes[a] -= kong ? 3 : 2;
        this.turn = a;
        this.lastDiscard = null;
        if (a === me) for (const t of e.consumed) removeOne(this.hand, t);
        break;
      }
      case "ankan": {
        // The meld's kind is its natural tile's; another seat's is hidden, its wilds too.
        const tile = a === me ? e.consumed.find((t) => !this.isWild(t)) || e.consumed[0] : "?";
        this.melds[a].push({
          type: "concealed_kong", tile, from: null,
          wilds: a === me ? e.consumed.filter((t) => t !== tile) : null,
        });
        this.handSizes[a] -= 4;
        if (a === me) {
          for (const t of e.consumed) removeOne(this.hand, t);
          this.drawn = null;
        }
        break;
      }
      case "kakan": {
        // `consumed` is the peng (its wilds included); `pai` the added tile, a natural or a wild.
        const m = this.melds[a].find((x) => x.type === "peng" && e.consumed.includes(x.tile));
        if (m) {
          m.type = "kong";
          if (e.pai !== m.tile) m.wilds = [...(m.wilds || []), e.pai];
        }
        this.pendingKakan = { seat: a, tile: m ? m.tile : e.pai, added: e.pai };
        this.handSizes[a] -= 1;
        if (a === me) {
          removeOne(this.hand, e.pai);
          this.drawn = null;
        }
        break;
      }
      case "hora": {
        this.wins[a].push(e);
        const first = !e.winners || e.winners[0] === a;
        if (first) {
          this.setAside.push(e.pai);
          if (e.source === "discard") this.discards[e.target].pop();
          if (e.source === "robbed_kong" && this.pendingKakan) {
            // The robbed kong stays a peng (docs/rules.md §10).
            const k = this.pendingKakan;
            const m = this.melds[k.seat].find((x) => x.type === "kong" && x.tile === k.tile);
            if (m) {
              m.type = "peng";
              if (k.added !== k.tile && m.wilds) removeOne(m.wilds, k.added); // a robbed wild
            }
          }
          if (e.source === "self_draw") {
            this.handSizes[a] -= 1;
            if (a === me) {
              removeOne(this.hand, e.pai);
              this.drawn = null;
            }
          }
        }
        if (this.mode !== "xueliu") this.inPlay[a] = false; // 血战, 倒倒胡: a winner leaves
        else this.frozen[a] = true;
        break;
      }
      case "ti": {
        // 提 (docs/rules.md §12.3): the natural tile goes into the exposed meld of its kind, the
        // meld's wild comes back to the hand — as the drawn tile when the drawn kind is gone.
        const m = this.melds[a].find((x) => x.type !== "concealed_kong" && x.tile === e.pai);
        if (m && m.wilds) removeOne(m.wilds, e.wild);
        if (a === me) {
          removeOne(this.hand, e.pai);
          this.hand = sortTiles([...this.hand, e.wild]);
          if (this.drawn === e.pai && !this.hand.includes(e.pai)) this.drawn = e.wild;
        }
        break;
      }
      case "pay":
        if (e.payer !== null && e.payer !== undefined) this.net[e.payer] -= e.amount;
        if (e.payee !== null && e.payee !== undefined) this.net[e.payee] += e.amount;
        break;
      case "auto_play":
        this.autoPlay[a] = true;
        break;
      case "auto_play_cancelled": // 取消托管: the seat decides again from its next decision
        this.autoPlay[a] = false;
        break;
      case "end_hand":
        this.isOver = true;
        this.phase = "over";
        this.net = [...e.net];
        if (e.coins) this.coins = [...e.coins];
        break;
      default:
        break;
    }
    if (e.type !== "kakan" && e.type !== "hora") this.pendingKakan = null;
    if (phase) {
      // The engine's own phase (a claim window opens only when some seat can claim).
      this.phase = phase;
      if (phase === "claim") {
        const k = this.pendingKakan;
        this.claim = k ? { tile: k.added || k.tile, from: k.seat, kind: "rob" }
          : this.lastDiscard ? { tile: this.lastDiscard.tile, from: this.lastDiscard.seat, kind: "discard" } : this.claim;
      } else {
        this.claim = null;
      }
    }
  }
}
