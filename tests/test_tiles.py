"""Tiles, melds and hand notation (docs/rules.md §1; vector decisions D1-D4)."""

import pickle

import numpy as np
import pytest

from conftest import cases_before_wild_tiles, load_vectors
from xueliu.tiles import (
    SUITS,
    TILE_NAMES,
    Hand,
    Meld,
    parse_hand,
    suit_index,
    tile_index,
    tile_name,
)

PARSE_CASES = cases_before_wild_tiles(load_vectors(), "parse_cases")


def _id(case):
    return f"{case['id']}-{case['text']}"


# -- the public parse vectors -------------------------------------------------------------------


@pytest.mark.parametrize("case", PARSE_CASES, ids=_id)
def test_parse_vector(case):
    if case["expect"] == "error":
        with pytest.raises(ValueError):
            parse_hand(case["text"])
    else:
        hand = parse_hand(case["text"])
        assert str(hand) == case["expect"]["canonical"]
        assert parse_hand(str(hand)) == hand


# -- kinds and names ----------------------------------------------------------------------------


def test_kind_index_is_suit_times_nine_plus_rank():
    assert len(TILE_NAMES) == 27
    for k in range(27):
        name = tile_name(k)
        assert name == f"{k % 9 + 1}{SUITS[k // 9]}"
        assert tile_index(name) == k
    assert tile_index("5m") == 4 and tile_index("5p") == 13 and tile_index("9s") == 26


def test_tile_index_accepts_the_chinese_suffixes():
    assert tile_index("5万") == tile_index("5萬") == tile_index("5m")
    for spelling in "筒饼餅铜":
        assert tile_index("3" + spelling) == tile_index("3p")
    for spelling in "条條索":
        assert tile_index("7" + spelling) == tile_index("7s")


@pytest.mark.parametrize("bad", ["0m", "10m", "5z", "5M", "m5", "", "55m"])
def test_bad_tile_names_are_value_errors(bad):
    with pytest.raises(ValueError, match="not a tile name"):
        tile_index(bad)


def test_tile_name_and_index_check_types_and_range():
    with pytest.raises(ValueError, match="out of range"):
        tile_name(27)
    with pytest.raises(ValueError, match="out of range"):
        tile_name(-1)
    with pytest.raises(TypeError):
        tile_name("5m")
    with pytest.raises(TypeError):
        tile_name(True)
    with pytest.raises(TypeError):
        tile_index(5)


def test_suit_index_spellings():
    assert [suit_index(s) for s in ("m", "万", "萬", "p", "筒", "饼", "s", "条", "索")] == [
        0, 0, 0, 1, 1, 1, 2, 2, 2]
    with pytest.raises(ValueError, match="unknown suit 'z'"):
        suit_index("z")


# -- parsing and the canonical form -------------------------------------------------------------

ROUND_TRIP = [
    "",
    "1m",
    "23445677p345789s",
    "11112345678999m",
    "2222445599m1199p",
    "345m11p(777s)(8888m)[9999p]",
    "55m(1111m)(3333m)(7777p)[9999p]",
    "1s[1111m][2222m][3333m][4444m]",
    "1199m1199p1199s",
    "123456789m123456789p123456789s",
    "12334577m23345p",
    "9p(999s)",
    "1m(222p)(333p)(444p)(555p)",
    "44s[4444m](444p)",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_canonical_text_round_trips(text):
    hand = parse_hand(text)
    assert str(hand) == text
    assert parse_hand(str(hand)) == hand
    assert eval(repr(hand), {"Hand": parse_hand}) == hand


def test_display_order_is_man_pin_sou_ascending_then_melds_as_written():
    hand = parse_hand("9s1s 5p 9m1m (222s)[3333p](4444m)")
    assert str(hand) == "19m5p19s(222s)[3333p](4444m)"
    assert repr(hand) == "Hand('19m5p19s(222s)[3333p](4444m)')"


def test_chinese_suffixes_parse_as_their_suits():
    assert parse_hand("123万456筒789条") == parse_hand("123m456p789s")
    assert parse_hand("1萬2饼3餅4铜5條6索") == parse_hand("1m234p56s")
    assert parse_hand("11m(777条)[9999筒]") == parse_hand("11m(777s)[9999p]")


def test_whitespace_is_ignored_everywhere():
    assert parse_hand(" 1 2 3 m\t( 7 7 7 s )\n[9999 p]") == parse_hand("123m(777s)[9999p]")


def test_counts_and_melds():
    hand = parse_hand("11p345m(777s)(8888m)[9999p]")
    counts = hand.counts
    assert isinstance(counts, np.ndarray) and counts.dtype == np.uint8 and counts.shape == (27,)
    assert counts[tile_index("1p")] == 2 and counts[tile_index("4m")] == 1 and counts.sum() == 5
    assert hand.melds == (Meld("peng", "7s"), Meld("kong", "8m"), Meld("concealed_kong", "9p"))
    assert hand.concealed == 5
    assert hand.held()[tile_index("9p")] == 4


def test_the_same_digits_in_two_groups_add_up():
    assert parse_hand("11m1m") == parse_hand("111m")


@pytest.mark.parametrize(
    "text, message",
    [
        ("123x", "unknown suit 'x' in '123x'"),
        ("123M", "unknown suit 'M'"),
        ("0m", "rank 0 in '0m'"),
        ("10m", "rank 0"),
        ("m", "suit 'm' with no digits"),
        ("123mp", "suit 'p' with no digits"),
        ("123", "digits '123' with no suit"),
        ("11111m", "fifth copy of 1m in '11111m'"),
        ("1111m1m", "fifth copy of 1m"),
        ("11s(777s)(7777s)", "fifth copy of 7s"),
        ("1m[1111m]", "fifth copy of 1m"),
        ("(789s)", r"meld '\(789s\)' is not a peng or kong \(no chow melds\)"),
        ("(77s)", "has 2 tiles"),
        ("(7s)", "has 1 tile "),
        ("(77777s)", "has 5 tiles"),
        ("[777s]", r"concealed kong '\[777s\]' needs 4 tiles"),
        ("(777s", "unclosed bracket"),
        ("(777s(888m)", "unclosed bracket"),
        ("777s)", "unmatched '\\)'"),
        ("(777s]", "closes with"),
        ("(777s)11m", "digit after a meld"),
        ("(777)", "has no suit"),
        ("(77s7s)", "digits and one suit"),
        ("(777x)", "unknown suit 'x'"),
        ("[07777s]", "rank 0"),
        ("()", "empty meld"),
        ("(111m)(222m)(333m)(444m)(555m)", "more than 4 melds"),
        ("12m!", "unexpected character '!'"),
        ("123m(777s", "unclosed bracket"),
    ],
)
def test_malformed_notation_names_the_problem(text, message):
    with pytest.raises(ValueError, match=message):
        parse_hand(text)


@pytest.mark.parametrize("bad", [None, 123, b"123m", ["123m"]])
def test_parse_hand_needs_a_str(bad):
    with pytest.raises(TypeError):
        parse_hand(bad)


# -- Hand values --------------------------------------------------------------------------------


def test_hands_compare_and_hash_by_value():
    a = parse_hand("123m456p(777s)")
    b = parse_hand("456筒123万(777条)")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != parse_hand("123m456p(7777s)")
    assert a != parse_hand("123m456p")
    assert a != "123m456p(777s)"
    assert {a: 1}[b] == 1


def test_hand_is_immutable():
    hand = parse_hand("123m456p")
    with pytest.raises(ValueError):
        hand.counts[0] = 3
    with pytest.raises(AttributeError):
        hand.melds = ()
    with pytest.raises(AttributeError):
        hand.counts = np.zeros(27, np.uint8)
    with pytest.raises(AttributeError):
        del hand.melds
    assert str(hand) == "123m456p"


def test_hand_pickles_and_copies():
    hand = parse_hand("11p345m(777s)[9999p]")
    assert pickle.loads(pickle.dumps(hand)) == hand


def test_hand_from_counts_validates():
    counts = parse_hand("123m456p").counts
    assert Hand.from_counts(counts) == parse_hand("123m456p")
    assert Hand(list(counts), [Meld("peng", "7s")]) == parse_hand("123m456p(777s)")
    assert Hand(counts, [("kong", "8m"), ("concealed_kong", 17)]) == parse_hand("123m456p(8888m)[9999p]")
    with pytest.raises(ValueError, match=r"shape \(27,\)"):
        Hand.from_counts([1] * 26)
    with pytest.raises(ValueError, match="count 5 of 1m"):
        Hand.from_counts([5] + [0] * 26)
    with pytest.raises(ValueError, match="count -1 of 2m"):
        Hand.from_counts([0, -1] + [0] * 25)
    with pytest.raises(ValueError, match="integers"):
        Hand.from_counts(np.zeros(27, dtype=float))
    with pytest.raises(ValueError, match="fifth copy of 7s"):
        Hand.from_counts(parse_hand("77s").counts, [Meld("peng", "7s")])
    with pytest.raises(ValueError, match="more than 4 melds"):
        Hand.from_counts([0] * 27, [Meld("peng", k) for k in range(5)])
    with pytest.raises(TypeError):
        Hand.from_counts("123m")
    with pytest.raises(TypeError):
        Hand.from_counts([0] * 27, ["(777s)"])


def test_from_counts_copies_its_input():
    counts = np.zeros(27, dtype=np.int64)
    counts[0] = 2
    hand = Hand.from_counts(counts)
    counts[0] = 3
    assert str(hand) == "11m"


def test_meld_values():
    m = Meld("peng", "7条")
    assert m == Meld("peng", "7s") == Meld("peng", tile_index("7s"))
    assert m.tile == "7s" and m.size == 3 and str(m) == "(777s)"
    assert str(Meld("kong", "8m")) == "(8888m)" and str(Meld("concealed_kong", "9p")) == "[9999p]"
    assert Meld("concealed_kong", "9p").code == 27 * 2 + tile_index("9p")
    with pytest.raises(ValueError, match="no chow melds"):
        Meld("chow", "7s")
    with pytest.raises(ValueError, match="unknown meld kind 'ankong'"):
        Meld("ankong", "7s")
    with pytest.raises(ValueError, match="not a tile name"):
        Meld("peng", "0s")
    with pytest.raises(AttributeError):
        m.tile = "8s"


# -- property: any valid hand prints canonically and parses back ---------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def hands(draw):
    melds = draw(st.lists(st.tuples(st.sampled_from(["peng", "kong", "concealed_kong"]),
                                    st.integers(0, 26)), max_size=4))
    held = [0] * 27
    kept = []
    for kind, k in melds:
        size = 3 if kind == "peng" else 4
        if held[k] + size <= 4:
            held[k] += size
            kept.append(Meld(kind, k))
    counts = [draw(st.integers(0, 4 - held[k])) if draw(st.booleans()) else 0 for k in range(27)]
    return Hand(counts, kept)


@settings(max_examples=200, deadline=None)
@given(hands())
def test_any_hand_round_trips_through_its_text(hand):
    text = str(hand)
    assert parse_hand(text) == hand
    assert str(parse_hand(text)) == text
    # the Chinese suffixes and spaces read the same
    chinese = text.replace("m", "万").replace("p", "筒").replace("s", "条")
    assert parse_hand(" ".join(chinese)) == hand
