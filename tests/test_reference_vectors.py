"""The pure-Python reference (tests/reference.py) reproduces every public vector of hands.json.

This checks the reference itself, so the property tests that compare the C++ core against it
stand on vectors written independently from RULES.md.
"""

import pytest

import reference as ref
from conftest import load_vectors

VECTORS = load_vectors()


def _id(case):
    return f"{case['id']}-{case.get('note', '')}"


@pytest.mark.parametrize("case", VECTORS["parse_cases"], ids=_id)
def test_parse_case(case):
    if case["expect"] == "error":
        with pytest.raises(ValueError):
            ref.parse(case["text"])
    else:
        counts, melds = ref.parse(case["text"])
        assert ref.to_text(counts, melds) == case["expect"]["canonical"]
        assert ref.parse(ref.to_text(counts, melds)) == (counts, melds)


@pytest.mark.parametrize("case", VECTORS["wait_cases"], ids=_id)
def test_wait_case(case):
    counts, melds = ref.parse(case["hand"])
    got = ref.waits(counts, melds, case["void"], case["seven_pairs"])
    assert [ref.TILE_NAMES[t] for t in got] == case["expect_waits"]


@pytest.mark.parametrize("case", VECTORS["shanten_cases"], ids=_id)
def test_shanten_case(case):
    counts, melds = ref.parse(case["hand"])
    assert ref.shanten(counts, melds, case["void"], case["seven_pairs"]) == case["expect_shanten"]


@pytest.mark.parametrize("case", VECTORS["eval_cases"], ids=_id)
def test_eval_case(case):
    counts, melds = ref.parse(case["hand"])
    rules = ref.make_rules(case["preset"], **case.get("overrides", {}))
    ctx = dict(case["context"])
    void = ctx.pop("void")
    expect = case["expect"]
    assert ref.is_win(counts, melds, void, rules["seven_pairs"]) == expect["win"]
    if not expect["win"]:
        with pytest.raises(ValueError, match="not a winning hand"):
            ref.evaluate(counts, melds, void, rules, **ctx)
        return
    got = ref.evaluate(counts, melds, void, rules, **ctx)
    # The reference applies the full D13/D22 tie-break, so it must name exactly the listed base.
    assert got == ref.FanResult(expect["fan"], expect["multiplier"], expect["base"],
                                expect["base_fan"], expect["gen"], tuple(expect["extras"]))
    # Every listed alternative is a real tie: same total on the same decomposition fans.
    for pid, base_fan, gen in expect.get("alternatives", []):
        assert base_fan + gen == expect["base_fan"] + expect["gen"]
        assert pid in ref.PATTERN_IDS
