"""The recorded game corpus: what the engine printed for a few hundred games, kept so that any
change to the engine (issue 7 split ``game/state.py`` and made the loop faster) can be checked to
leave every output byte-identical. ``tests/game/test_corpus_replay.py`` replays it.

Produced by commit e2892b9 (the engine before issue 7), with::

    python -m tests.game.corpus          # from the repository root; writes tests/data/game_corpus.jsonl.gz

Rerun it only on purpose: the file defines "unchanged". Each line of the gzip'd JSON-lines file
is one game (``"kind": "hand"``) or one match of several hands (``"kind": "match"``):

- ``record``: ``state.record()`` (the match's ``Match.record()`` for a match), the input of replay;
- ``events``: ``events(None)`` and each seat's ``events(seat)``;
- ``settlement``: ``settlement().to_dict()`` plus ``kong_income`` and the ``report`` text;
- ``final``: public properties of the finished state (voids, multipliers, coins, auto-play, ...);
- ``observations``: the sha256 of every seat's and the omniscient observation, as JSON text,
  before each recorded decision and at the end (see :func:`walk`).

Games cover both presets, fixed knob combinations and random ones, random / greedy / auto-play
bots, timeouts, escapes, coins (cut payments, ``base="auto"``), scripted walls with and without a
seed, and matches.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import pathlib
import random
from typing import Any, Dict, List, Optional, Tuple

import xueliu
from xueliu import Action, Match, Rules
from xueliu.bots import AutoPlayBot, GreedyBot, RandomBot

CORPUS_PATH = pathlib.Path(__file__).resolve().parent.parent / "data" / "game_corpus.jsonl.gz"
PRODUCED_BY = "e2892b9"


def dumps(obj: Any) -> str:
    """The one JSON spelling the corpus compares (key order kept: it is part of the output)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# reading back a record, step by step


def apply_decision(state: Any, seat: int, what: Any) -> None:
    if what == "timeout":
        state.apply_timeout(seat)
    elif what == "escape":
        state.escape(seat)
    else:
        state.step({seat: Action.from_id(what)})


def _look(state: Any, digest: Any) -> None:
    for seat in (0, 1, 2, 3, None):
        digest.update(dumps(state.observation(seat)).encode())
        digest.update(b"\n")


def walk(rec: Dict[str, Any]) -> Tuple[Any, str]:
    """Replays ``rec`` one decision at a time; returns the final state and the sha256 of every
    observation (four seats, then the omniscient one) before each decision and at the end."""
    state = xueliu.replay({**rec, "decisions": [], "result": None})  # the record's own setup
    digest = hashlib.sha256()
    for seat, what in rec["decisions"]:
        _look(state, digest)
        apply_decision(state, seat, what)
    _look(state, digest)
    return state, digest.hexdigest()


def outputs(state: Any) -> Dict[str, Any]:
    """Everything a finished game prints, as JSON-ready data."""
    st = state.settlement()
    return {
        "events": {"all": state.events(), "seats": [state.events(s) for s in range(4)]},
        "settlement": {**st.to_dict(), "kong_income": st.kong_income, "report": st.report()},
        "final": {"phase": state.phase, "is_over": state.is_over, "voids": state.voids,
                  "multipliers": state.multipliers, "coins": state.coins,
                  "auto_play": state.auto_play, "wall_remaining": state.wall_remaining,
                  "dice": list(state.dice), "break_point": list(state.break_point),
                  "pending": state.pending()},
    }


# ---------------------------------------------------------------------------------------------
# generating


def random_rules(rng: random.Random) -> Rules:
    base = Rules.preset(rng.choice(["xueliu", "xuezhan"]))
    knobs = dict(
        exchange_three=rng.random() < 0.7,
        exchange_direction=rng.choice(["dice", "random", "next", "opposite", "previous"]),
        exchange_same_suit=rng.random() < 0.8,
        declare_void=rng.random() < 0.8,
        player_multipliers=rng.choice([None, {"allowed": (2, 4, 8), "default": 8},
                                       {"allowed": (1, 2), "default": 1}]),
        kong_draw_from=rng.choice(["front", "back"]),
        pass_blocks_discard_win=rng.choice(["off", "not_higher", "any"]),
        forced_win_last_n=rng.choice([0, 0, 4, 10]),
        multiple_winners=rng.random() < 0.8,
        post_win_kongs=frozenset(rng.sample(["concealed", "direct", "added"], rng.randint(0, 3))),
        seven_pairs=rng.random() < 0.8,
        jingoudiao=rng.random() < 0.5,
        heavenly_earthly=rng.random() < 0.5,
        haidi=rng.random() < 0.5,
        self_draw_bonus=rng.choice(["base", "fan", "none"]),
        menqing=rng.random() < 0.3,
        gen_counts=rng.choice(["all_fours", "kongs_only", "none"]),
        duanyaojiu=rng.random() < 0.3,
        yitiaolong=rng.random() < 0.3,
        jiaxinwu=rng.random() < 0.3,
        haidipao=rng.random() < 0.3,
        max_fan=rng.choice([None, None, 4, 6]),
        direct_kong_others=rng.choice([0, 1, 2]),
        kong_settle=rng.choice(["immediate", "on_win"]),
        call_transfer=rng.random() < 0.8,
        pig_payees=rng.choice(["all_non_pig", "unwon_non_pig"]),
        ready_check_payees=rng.choice(["unwon", "all"]),
        dead_waits_ready=rng.random() < 0.7,
        refund_kongs=rng.random() < 0.8,
        dian_gang_hua=rng.choice(["self_draw", "discarder"]),
        escape_penalty=rng.choice([3, 32]),
        room=rng.choice([1, 1, 2]),
        service_fee=rng.choice([0, 0, 3]),
    )
    return base.replace(**knobs)


# Named tables: each preset as it is, and knob sets one at a time far from the defaults.
FIXED_RULES: Dict[str, Rules] = {
    "xueliu": Rules.preset("xueliu"),
    "xuezhan": Rules.preset("xuezhan"),
    "xueliu-seed002": Rules.preset("xueliu").replace(
        seven_pairs=False, kong_settle="on_win", post_win_kongs=frozenset({"added"}), menqing=True),
    "xueliu-back-kongs-pass-any": Rules.preset("xueliu").replace(
        kong_draw_from="back", pass_blocks_discard_win="any", multiple_winners=False),
    "xueliu-not-higher-fans": Rules.preset("xueliu").replace(
        pass_blocks_discard_win="not_higher", self_draw_bonus="fan", duanyaojiu=True,
        yitiaolong=True, jiaxinwu=True, haidipao=True, haidi=True, max_fan=5),
    "xueliu-linear": Rules.preset("xueliu").replace(
        multipliers=tuple(range(1, 41)), gen_counts="kongs_only",
        player_multipliers={"allowed": (1, 2), "default": 1}),
    "xuezhan-no-exchange": Rules.preset("xuezhan").replace(
        exchange_three=False, declare_void=False, forced_win_last_n=10,
        ready_check_payees="all", dead_waits_ready=False),
    "xuezhan-on-win": Rules.preset("xuezhan").replace(
        kong_settle="on_win", call_transfer=False, refund_kongs=False, dian_gang_hua="self_draw",
        exchange_same_suit=False, exchange_direction="opposite", room=2, service_fee=2),
    "xuezhan-auto-base": Rules.preset("xuezhan").replace(base="auto", escape_penalty=5),
}

BOT_MIXES = (("random",) * 4, ("greedy",) * 4, ("greedy", "random", "autoplay", "random"),
             ("autoplay", "greedy", "greedy", "random"))


def make_bots(names: Tuple[str, ...], seed: int, rules: Rules) -> List[Any]:
    out: List[Any] = []
    for seat, name in enumerate(names):
        if name == "random":
            out.append(RandomBot(seed * 4 + seat))
        elif name == "greedy":
            out.append(GreedyBot(rules=rules))
        else:
            out.append(AutoPlayBot(rules=rules))
    return out


def drive(state: Any, bots: List[Any], rng: random.Random, *, timeouts: float,
          escapes: float) -> None:
    """Plays to the end: bots answer, now and then a seat times out or escapes; joint decisions
    are given sometimes all at once, sometimes one seat at a time."""
    while not state.is_over:
        if escapes and rng.random() < escapes:
            seat = rng.randrange(4)
            if not state.auto_play[seat]:
                state.escape(seat)
                continue
        pending = state.pending()
        if timeouts and rng.random() < timeouts:
            state.apply_timeout(rng.choice(pending))
            continue
        seats = pending if rng.random() < 0.7 else [rng.choice(pending)]
        state.step({s: bots[s].act(state.observation(s), state.legal_actions(s)) for s in seats})


def shuffled_wall(rng: random.Random) -> List[str]:
    wall = [f"{r}{s}" for s in "mps" for r in range(1, 10) for _ in range(4)]
    rng.shuffle(wall)  # test data only: the engine never uses random.shuffle
    return wall


def hand_entry(name: str, state: Any, rec: Dict[str, Any]) -> Dict[str, Any]:
    final, digest = walk(rec)
    assert dumps(final.events()) == dumps(state.events()), name  # the walk is the game
    return {"kind": "hand", "name": name, "record": rec, **outputs(state), "observations": digest}


def play_game(name: str, rules: Rules, bots: Tuple[str, ...], rng: random.Random, *,
              seed: Optional[int], wall: Optional[List[str]] = None,
              coins: Optional[List[int]] = None, timeouts: float = 0.0,
              escapes: float = 0.0) -> Dict[str, Any]:
    dealer = rng.randrange(4)
    state = xueliu.new_game(rules, seed=seed, wall=wall, dealer=dealer, coins=coins)
    drive(state, make_bots(bots, rng.randrange(1 << 30), rules), rng, timeouts=timeouts,
          escapes=escapes)
    return hand_entry(name, state, state.record())


def play_match(name: str, rules: Rules, seed: int, coins: Optional[List[int]], hands: int,
               rng: random.Random) -> Dict[str, Any]:
    m = Match(rules, seed=seed, coins=coins)
    per_hand = []
    for i in range(hands):
        state = m.next_hand()
        drive(state, make_bots(BOT_MIXES[i % len(BOT_MIXES)], seed + i, rules), rng,
              timeouts=0.02, escapes=0.003)
        per_hand.append({**outputs(state), "after": {"totals": m.totals, "coins": m.coins,
                                                     "dealer": m.dealer}})
    return {"kind": "match", "name": name, "record": m.record(), "coins": coins,
            "hands": per_hand}


def generate() -> List[Dict[str, Any]]:
    rng = random.Random(20240707)
    games: List[Dict[str, Any]] = []
    n = 0

    def add(entry: Dict[str, Any]) -> None:
        games.append(entry)

    for label, rules in FIXED_RULES.items():
        for mix in BOT_MIXES:
            for j in range(4):
                n += 1
                coins = None
                if rules.base == "auto" or j == 3:
                    coins = [rng.choice([20, 60, 300, 2000]) for _ in range(4)]
                add(play_game(f"{label}/{'-'.join(mix)}/{j}", rules, mix, rng,
                              seed=rng.randrange(1 << 63), coins=coins,
                              timeouts=0.03 if j == 1 else 0.0,
                              escapes=0.004 if j == 2 else 0.0))
    for i in range(120):
        rules = random_rules(rng)
        mix = BOT_MIXES[i % len(BOT_MIXES)]
        coins = [rng.choice([10, 50, 500]) for _ in range(4)] if i % 3 == 0 else None
        add(play_game(f"random-knobs/{i}", rules, mix, rng, seed=rng.randrange(1 << 63),
                      coins=coins, timeouts=0.02 * (i % 2), escapes=0.002 * (i % 5 == 0)))
    # Scripted walls: with a seed (it rolls the dice), and alone (dice from the wall, as records
    # written by this commit have them).
    for i in range(16):
        label = "xueliu" if i % 2 else "xuezhan"
        add(play_game(f"wall/{label}/{'seed' if i < 8 else 'alone'}/{i}", Rules.preset(label),
                      BOT_MIXES[i % len(BOT_MIXES)], rng,
                      seed=rng.randrange(1 << 63) if i < 8 else None, wall=shuffled_wall(rng),
                      timeouts=0.02 * (i % 3 == 0)))
    # Rare moments, searched for (bounded): wins by robbing a kong, on a replacement tile,
    # heavenly and earthly wins; three games of each are kept.
    wanted = {"robbed_kong": 3, "kong_replacement": 3, "heavenly": 3, "earthly": 3}
    for i in range(6000):
        if not any(wanted.values()):
            break
        rules = random_rules(rng).replace(heavenly_earthly=True)
        mix = BOT_MIXES[i % len(BOT_MIXES)]
        seed = rng.randrange(1 << 63)
        state = xueliu.new_game(rules, seed=seed, dealer=i % 4)
        drive(state, make_bots(mix, i, rules), rng, timeouts=0.0, escapes=0.0)
        found = {f for w in state.settlement().wins for f in w.flags if wanted.get(f)}
        if found:
            for f in found:
                wanted[f] -= 1
            add(hand_entry(f"rare/{'+'.join(sorted(found))}/{i}", state, state.record()))
    for i, (label, coins) in enumerate((("xueliu", None), ("xuezhan", [500] * 4),
                                        ("xuezhan-auto-base", [800, 400, 1200, 100]),
                                        ("xueliu-linear", None))):
        add(play_match(f"match/{label}/{i}", FIXED_RULES[label], rng.randrange(1 << 63), coins,
                       6, rng))
    return games


def main() -> None:
    games = generate()
    CORPUS_PATH.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(dumps(g) + "\n" for g in games).encode()
    with open(CORPUS_PATH, "wb") as raw:  # mtime 0: the same games give the same file
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
            f.write(text)
    print(f"{len(games)} entries -> {CORPUS_PATH} ({CORPUS_PATH.stat().st_size:,} bytes)")


def load() -> List[Dict[str, Any]]:
    with gzip.open(CORPUS_PATH, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


if __name__ == "__main__":
    main()
