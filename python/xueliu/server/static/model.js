// The table as one seat sees it: built from the server's `state` message (the seat's observation)
// and kept current by applying each `event` (docs/events.md) exactly as the engine logs it.
// A `state` message (connect, reconnect, new hand) always replaces the whole model.
// The table's shape (the `state` message's `shape`, docs/rules.md §11.1) says how many seats there are,
// the suits in play and the wall's size: every per-seat list here has one entry per seat.

import { sortTiles } from "./tiles.js";

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
    this.melds = o.melds.map((ms) => ms.map((m) => ({ ...m })));
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
        this.melds[a].push({ type: kong ? "kong" : "peng", tile: e.pai, from: e.target });
        this.handSizes[a] -= kong ? 3 : 2;
        this.turn = a;
        this.lastDiscard = null;
        if (a === me) for (const t of e.consumed) removeOne(this.hand, t);
        break;
      }
      case "ankan":
        this.melds[a].push({ type: "concealed_kong", tile: a === me ? e.consumed[0] : "?", from: null });
        this.handSizes[a] -= 4;
        if (a === me) {
          for (const t of e.consumed) removeOne(this.hand, t);
          this.drawn = null;
        }
        break;
      case "kakan": {
        const m = this.melds[a].find((x) => x.type === "peng" && x.tile === e.pai);
        if (m) m.type = "kong";
        this.pendingKakan = { seat: a, tile: e.pai };
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
            if (m) m.type = "peng";
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
        this.claim = k ? { tile: k.tile, from: k.seat, kind: "rob" }
          : this.lastDiscard ? { tile: this.lastDiscard.tile, from: this.lastDiscard.seat, kind: "discard" } : this.claim;
      } else {
        this.claim = null;
      }
    }
  }
}
