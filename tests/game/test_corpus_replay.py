"""The recorded corpus (tests/data/game_corpus.jsonl.gz, written by commit e2892b9 through
tests/game/corpus.py) replays byte-identically: every record gives back the same record, the same
events for every seat and the omniscient view, the same settlement, transfers and report, and the
same observations before every decision. Any change of behaviour, however small, shows here."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

import xueliu
from xueliu import Match, Rules

from .corpus import apply_decision, dumps, load, outputs, walk

CORPUS = load()
HANDS = [g for g in CORPUS if g["kind"] == "hand"]
MATCHES = [g for g in CORPUS if g["kind"] == "match"]


def _same(name: str, what: str, got: Any, want: Any) -> None:
    got_text, want_text = dumps(got), dumps(want)
    if got_text != want_text:
        at = next((i for i, (a, b) in enumerate(zip(got_text, want_text)) if a != b),
                  min(len(got_text), len(want_text)))
        pytest.fail(f"{name}: {what} differs at character {at}:\n"
                    f"  recorded {want_text[max(0, at - 120):at + 120]}\n"
                    f"  replayed {got_text[max(0, at - 120):at + 120]}")


def test_the_corpus_covers_what_it_claims():
    presets = {g["record"]["rules"]["mode"] for g in HANDS}
    events = {e["type"] for g in HANDS for e in g["events"]["all"]}
    sources = {e["source"] for g in HANDS for e in g["events"]["all"] if e["type"] == "hora"}
    assert len(HANDS) >= 250 and len(MATCHES) >= 3
    assert presets == {"xueliu", "xuezhan"}
    assert {"timeout", "escape", "auto_play", "ankan", "kakan", "daiminkan", "pon",
            "huansanzhang", "dingque", "xuanbei", "end_checks"} <= events
    assert sources == {"discard", "self_draw", "robbed_kong"}
    assert any(g["record"]["coins"] for g in HANDS)
    assert any(g["record"]["wall"] and g["record"]["seed"] is None for g in HANDS)


@pytest.mark.parametrize("chunk", range(8))
def test_every_recorded_hand_replays_byte_identically(chunk):
    for g in HANDS[chunk::8]:
        name, rec = g["name"], g["record"]
        state = xueliu.replay(rec)
        _same(name, "record", state.record(), rec)
        got = outputs(state)
        for key in ("events", "settlement", "final"):
            _same(name, key, got[key], g[key])
        walked, digest = walk(rec)
        _same(name, "observations (sha256)", digest, g["observations"])
        _same(name, "events of the step-by-step walk", walked.events(), g["events"]["all"])


def _replay_match(g: Dict[str, Any]) -> List[Dict[str, Any]]:
    rec = g["record"]
    m = Match(Rules.from_dict(rec["rules"]), seed=rec["seed"], coins=g["coins"])
    out = []
    for hand_rec in rec["hands"]:
        state = m.next_hand()
        for seat, what in hand_rec["decisions"]:
            apply_decision(state, seat, what)
        out.append({**outputs(state), "after": {"totals": m.totals, "coins": m.coins,
                                                "dealer": m.dealer}})
    _same(g["name"], "match record", m.record(), rec)
    return out


@pytest.mark.parametrize("index", range(len(MATCHES)))
def test_every_recorded_match_replays_byte_identically(index):
    g = MATCHES[index]
    for i, (got, want) in enumerate(zip(_replay_match(g), g["hands"])):
        for key in ("events", "settlement", "final", "after"):
            _same(f"{g['name']} hand {i}", key, got[key], want[key])
