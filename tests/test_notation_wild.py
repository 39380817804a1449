"""docs/rules.md §12.5 notation in the native core: 红中 (7z, 中, 红中), soft melds written with their
wilds, the canonical text, and the Hand a physical hand makes under a wild set."""

import pytest

import wild_reference as wild
import xueliu._core as core
from conftest import is_wild_tiles_case, load_vectors

CASES = [case for case in load_vectors()["parse_cases"] if is_wild_tiles_case(case)]
PLAIN_CASES = [case for case in load_vectors()["parse_cases"] if not is_wild_tiles_case(case)]
YAOJI = 1 << 18  # every 1条 wild
HONGZHONG = 1 << 27


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_every_wild_parse_vector(case):
    if case["expect"] == "error":
        with pytest.raises(ValueError):
            core.parse_physical(case["text"])
    else:
        assert core.format_physical(case["text"]) == case["expect"]["canonical"]
        assert core.format_physical(case["expect"]["canonical"]) == case["expect"]["canonical"]


def test_the_wild_parse_vectors_are_all_here():
    assert len(CASES) == 16


@pytest.mark.parametrize("case", [c for c in PLAIN_CASES if c["expect"] != "error"], ids=lambda c: c["id"])
def test_a_hand_without_wilds_reads_the_same_both_ways(case):
    counts, melds = core.parse_physical(case["text"])
    hand = core.parse_hand(case["text"])
    assert counts[:27] == hand.counts and counts[27] == 0
    assert [(t, k) for t, k, w in melds] == hand.melds and all(w == () for _, _, w in melds)


@pytest.mark.parametrize("text", ["123m7z中(55m1s)[5p11s7z]", "红中红中123456789m55p", "(5m中1s)",
                                  "1s1s(5555p)[6p1s1s7z]", "99s1s1s2p"])
def test_the_physical_tiles_match_the_reference_parser(text):
    counts, melds = core.parse_physical(text)
    ref_counts, ref_melds = wild.parse_wild(text)
    assert list(counts) == ref_counts
    assert [(w_kind, k, tuple(w)) for w_kind, k, w in melds] == [
        ({"peng": 0, "kong": 1, "concealed_kong": 2}[t], k, tuple(w)) for t, k, w in
        wild._norm_melds(ref_melds)]


def test_red_dragons_are_the_only_z_tile():
    assert core.parse_physical("7z中红中")[0][27] == 3
    for text in ("1z", "8z", "红", "z"):
        with pytest.raises(ValueError):
            core.parse_physical(text)


def test_a_thirteenth_red_dragon_is_refused():
    with pytest.raises(ValueError, match="more than 12 红中"):
        core.parse_physical("7z" * 13)


def test_under_yaoji_every_1s_is_a_wild():
    hand = core.hand_of_physical("123456789m55p46p1s", YAOJI)
    assert hand.wilds == 1 and hand.counts[18] == 0
    soft = core.hand_of_physical("123456789m1s(55p1s)", YAOJI)
    assert soft.melds == [(0, 13, 1)] and soft.wilds == 1


def test_a_wild_that_the_rules_do_not_make_wild_is_refused():
    with pytest.raises(ValueError, match="red dragons"):
        core.hand_of_physical("123456789m55p4p7z", YAOJI)
    with pytest.raises(ValueError, match="not a wild"):
        core.hand_of_physical("123456789m(55p1p)", YAOJI)
    with pytest.raises(ValueError, match="wild kind"):
        core.hand_of_physical("123456789m(111s)", YAOJI)


def test_red_dragons_are_wilds_where_the_rules_add_them():
    hand = core.hand_of_physical("123456789m55p4p7z", HONGZHONG)
    assert hand.wilds == 1 and sum(hand.counts) == 12
