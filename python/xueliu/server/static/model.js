// The table as one seat sees it: built from the server's `state` message (the seat's observation)
// and kept current by applying each `event` (docs/events.md) exactly as the engine logs it.
// A `state` message (connect, reconnect, new hand) always replaces the whole model.

import { sortTiles } from "./tiles.js";

const LIVE_WALL_AFTER_DEAL = 108 - 53; // RULES §10: 53 tiles are dealt

function removeOne(list, tile) {
  const i = list.indexOf(tile);
  if (i >= 0) list.splice(i, 1);
}

const BLANK = {
  mode: null, dealer: null, phase: "waiting", is_over: false, turn: null, hand: [], drawn: null,
  void: null, voids: [null, null, null, null], multipliers: null, melds: [[], [], [], []],
  discards: [[], [], [], []], wins: [[], [], [], []], set_aside: [], claim: null, exchange: null,
  wall_remaining: 0, dice: null, in_play: [true, true, true, true],
  frozen: [false, false, false, false], auto_play: [false, false, false, false],
  hand_sizes: [0, 0, 0, 0], net: [0, 0, 0, 0], coins: null, base: 1,
};

export class TableModel {
  constructor(table, seat, observation, events) {
    this.table = table;
    this.seat = seat;
    // Before the first deal (people still sitting down) there is no observation: an empty table.
    const o = observation || BLANK;
    this.mode = o.mode;
    this.dealer = o.dealer;
    this.phase = o.phase;
    this.isOver = o.is_over;
    this.turn = o.turn;
    this.hand = sortTiles(o.hand || []);
    this.drawn = o.drawn;
    this.void = o.void;
    this.voids = o.voids || [null, null, null, null];
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
    for (const e of events || []) this.remember(e);
  }

  /** Keeps the report's and the log's share of an event (the observation already holds its effect). */
  remember(e) {
    if (e.type === "hora") this.horas.push(e);
    else if (e.type === "pay") this.pays.push(e);
    else if (e.type === "end_checks") this.endChecks = e.seats;
    else if (e.type === "end_hand") this.endReason = e.reason;
    this.log.push(e);
  }

  /** Applies one event the server sent after the `state` message. `phase` is the engine's phase
   * the server sent with it (the phase once this event's step is done; docs/server.md). */
  apply(e, phase) {
    this.remember(e);
    const me = this.seat;
    const a = e.actor;
    switch (e.type) {
      case "start_hand":
        // A new hand at the same table: start from scratch (the server also sends `state`).
        this.mode = e.mode;
        this.dealer = e.dealer;
        this.dice = e.dice;
        this.autoPlay = [false, false, false, false];
        this.hand = sortTiles(e.tehais[me]);
        this.handSizes = e.tehais.map((t) => t.length);
        this.melds = [[], [], [], []];
        this.discards = [[], [], [], []];
        this.wins = [[], [], [], []];
        this.setAside = [];
        this.voids = [null, null, null, null];
        this.void = null;
        this.multipliers = null;
        this.wallRemaining = LIVE_WALL_AFTER_DEAL;
        this.inPlay = [true, true, true, true];
        this.frozen = [false, false, false, false];
        this.net = [0, 0, 0, 0];
        this.isOver = false;
        this.horas = [];
        this.pays = [];
        this.log = [e];
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
            // The robbed kong stays a peng (RULES §10).
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
        if (this.mode === "xuezhan") this.inPlay[a] = false;
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
