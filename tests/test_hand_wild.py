"""The public hand calls with wild tiles (docs/rules.md §12): a hand written as it is held, the
rules (a wild preset or knobs) and, under a 本金 rule, ``benjin=``."""

import pytest

import xueliu
from conftest import is_wild_tiles_case, load_vectors
from xueliu import Rules

VECTORS = load_vectors()


def case_rules(case):
    knobs = {k: tuple(v) if isinstance(v, list) else v for k, v in case.get("overrides", {}).items()}
    knobs["seven_pairs"] = case["seven_pairs"]
    if "hand_size" in case:
        knobs["hand_size"] = case["hand_size"]
    if "suits" in case:
        knobs["suits"] = tuple(case["suits"])
    return Rules.preset(case.get("preset", "xueliu")).replace(**knobs)


def wild_cases(kind):
    return [case for case in VECTORS[kind] if is_wild_tiles_case(case)]


@pytest.mark.parametrize("case", wild_cases("wait_cases"), ids=lambda c: c["id"])
def test_every_wild_wait_vector_through_the_public_call(case):
    got = xueliu.waits(case["hand"], void=case["void"], rules=case_rules(case),
                       benjin=case.get("benjin"))
    assert got == case["expect_waits"]


@pytest.mark.parametrize("case", wild_cases("shanten_cases"), ids=lambda c: c["id"])
def test_every_wild_shanten_vector_through_the_public_call(case):
    got = xueliu.shanten(case["hand"], void=case["void"], rules=case_rules(case),
                         benjin=case.get("benjin"))
    assert got == case["expect_shanten"]


def test_a_hand_is_written_as_it_is_held():
    assert xueliu.is_win("123456789m55p46p1s", rules="yaoji")  # the 1条 reads 5p
    assert xueliu.waits("123456789m557p1s", rules="yaoji") == ["5p", "6p", "7p", "8p", "9p"]
    assert xueliu.shanten("123456789m55p4p中", rules="hongzhong") == 0


def test_every_hand_form_says_the_same():
    text = "123456789m55p4p1s"
    names = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "5p", "5p", "4p", "1s"]
    counts = xueliu.parse_hand(text).counts
    for hand in (text, names, xueliu.parse_hand(text), counts):
        assert xueliu.waits(hand, rules="yaoji") == ["2p", "3p", "4p", "5p", "6p"], hand


def test_soft_melds_are_written_with_their_wilds():
    assert xueliu.is_win("66m234p567p789p(55m1s)", rules="yaoji")
    # (55m1s) already uses 5万 three times: a 5m pair would be a fifth use.
    assert not xueliu.is_win("55m234p567p789p(55m1s)", rules="yaoji")


def test_the_benjin_decides_the_wilds():
    # 本金 9条: 8条 and 1条 are wild.
    assert xueliu.shanten("123456789m55p4p8s", rules="yibin", benjin="9s") == 0
    assert xueliu.shanten("123456789m55p4p8s", rules="yibin", benjin="5s") == 1


def test_a_benjin_is_required_exactly_under_benjin_rules():
    with pytest.raises(ValueError, match="needs the hand's 本金"):
        xueliu.shanten("123456789m55p4p8s", rules="yibin")
    with pytest.raises(ValueError, match="no wild tiles"):
        xueliu.shanten("123456789m55p4p8s", benjin="9s")
    with pytest.raises(ValueError, match="本金"):
        xueliu.shanten("123456789m55p4p8s", rules="yaoji", benjin="9s")


def test_a_fourth_copy_of_the_benjin_kind_is_refused():
    with pytest.raises(ValueError, match="at most 3"):
        xueliu.shanten("12345m9999s55p4p", rules="yibin", benjin="9s")


def test_red_dragons_only_where_the_rules_add_them():
    with pytest.raises(ValueError, match="extra_wilds"):
        xueliu.shanten("123456789m55p4p7z", rules="yaoji")
    with pytest.raises(ValueError, match="extra_wilds"):
        xueliu.shanten("123456789m5p7z7z7z7z7z", rules="hongzhong")  # the wall holds four


def test_a_wild_in_a_soft_meld_must_be_wild_here():
    with pytest.raises(ValueError, match="not a wild"):
        xueliu.is_win("66m234p567p789p(55m1p)", rules="yaoji")


def test_tables_without_wilds_answer_as_before():
    assert xueliu.waits("12334577m23345p") == xueliu.waits("12334577m23345p", rules="xueliu")
    with pytest.raises(ValueError):
        xueliu.waits("1233457m23345p7z")


# --- batch calls --------------------------------------------------------------------------------


def test_batch_rows_take_natural_counts_and_a_wild_count():
    import numpy as np

    from xueliu import batch

    texts = ["123456789m557p1s", "123456789m5p1s1s1s", "1234567m55p4p1s1s1s", "123456789m1s1s1s1s"]
    counts = np.zeros((len(texts), 27), np.uint8)
    wilds = np.zeros(len(texts), np.uint8)
    for i, text in enumerate(texts):
        hand = xueliu.parse_hand(text).counts.copy()
        wilds[i], hand[18] = hand[18], 0  # the 1条 are the wilds
        counts[i] = hand
    assert list(batch.shanten(counts, wilds=wilds, rules="yaoji")) == [
        xueliu.shanten(t, rules="yaoji") for t in texts]
    masks = batch.waits(counts, wilds=wilds, rules="yaoji")
    assert [[xueliu.tile_name(k) for k in range(27) if m >> k & 1] for m in masks] == [
        xueliu.waits(t, rules="yaoji") for t in texts]


def test_batch_wilds_need_wild_rules_and_empty_wild_columns():
    import numpy as np

    from xueliu import batch

    counts = np.zeros((1, 27), np.uint8)
    counts[0, :12] = 1
    with pytest.raises(ValueError, match="no wild tiles"):
        batch.shanten(counts, wilds=np.ones(1, np.uint8))
    counts[0, 18] = 1  # a natural 1条 under 幺鸡
    with pytest.raises(ValueError, match="row 0: 1s is a wild kind"):
        batch.shanten(counts, wilds=np.zeros(1, np.uint8), rules="yaoji")


# --- 进张 with the wild -------------------------------------------------------------------------


def test_jinzhang_list_the_wild_last_with_the_wilds_not_seen():
    # 幺鸡: four wilds in the wall set; the hand holds one.
    assert xueliu.jinzhang("123456789m557p1s", rules="yaoji") == (
        ("5p", 2), ("6p", 4), ("7p", 3), ("8p", 4), ("9p", 4), ("wild", 3))
    # Two more 幺鸡 and a 5p in sight.
    assert xueliu.jinzhang("123456789m557p1s", rules="yaoji", visible="1s1s5p") == (
        ("5p", 1), ("6p", 4), ("7p", 3), ("8p", 4), ("9p", 4), ("wild", 1))


def test_the_face_up_benjin_is_a_seen_tile():
    # 本金 9条: its three other copies are in play, the wilds are 8条 and 1条 (8 of them).
    got = dict(xueliu.jinzhang("123456789m55p4p8s", rules="yibin", benjin="9s"))
    assert got["wild"] == 7
    got = dict(xueliu.jinzhang("123456789m99s4s8s", rules="yibin", benjin="9s"))
    assert got["9s"] == 1  # 4 - the two held - the one face up


def test_seeing_more_wilds_than_the_wall_holds_is_refused():
    with pytest.raises(ValueError, match="wall set"):
        xueliu.jinzhang("123456789m557p1s", rules="yaoji", visible="1s1s1s1s")


# --- evaluate and 查听 with wilds ----------------------------------------------------------------

FLAGS = ("self_draw", "kong_replacement", "after_kong_discard", "robbed_kong", "last_tile",
         "heavenly", "earthly")


def eval_rules(case):
    knobs = {k: tuple(v) if isinstance(v, list) else v for k, v in case.get("overrides", {}).items()}
    return Rules.preset(case.get("preset", "xueliu")).replace(**knobs)


@pytest.mark.parametrize("case", wild_cases("eval_cases"), ids=lambda c: c["id"])
def test_every_wild_eval_vector_through_the_public_call(case):
    context = dict(case["context"])
    kw = {"void": context.pop("void"), "win_tile": context.pop("win_tile", None),
          **{f: context.pop(f) for f in FLAGS}}
    assert not context
    call = lambda: xueliu.evaluate(case["hand"], rules=eval_rules(case), benjin=case.get("benjin"),  # noqa: E731
                                   **kw)
    expect = case["expect"]
    if not expect["win"]:
        with pytest.raises(ValueError, match="not a winning hand"):
            call()
        return
    got = call()
    assert (got.fan, got.multiplier, got.base, got.base_fan, got.gen, got.extras) == (
        expect["fan"], expect["multiplier"], expect["base"], expect["base_fan"], expect["gen"],
        tuple(expect["extras"]))


def _without(text, tile):
    """Notation text less one tile (a concealed one)."""
    import wild_reference as wild

    counts, melds = wild.parse_wild(text)
    counts[wild.kind_of(tile)] -= 1
    return wild.to_notation_wild(counts, melds)


def _with(text, tile):
    import wild_reference as wild

    counts, melds = wild.parse_wild(text)
    counts[wild.kind_of(tile)] += 1
    return wild.to_notation_wild(counts, melds)


@pytest.mark.parametrize("text, preset", [
    ("123456789m55p46p1s", "yaoji"), ("123456789m5p1s1s1s4p", "yaoji"),
    ("1123457899m45p7z7z", "hongzhong"), ("22345666m789p(55m7z)", "hongzhong"),
    ("2345678999s1s1s22p", "leshan"),
])
def test_best_discards_agree_with_the_single_calls(text, preset):
    wild_tile = {"yaoji": "1s", "hongzhong": "7z", "leshan": "1s"}[preset]
    for option in xueliu.best_discards(text, rules=preset):
        discarded = wild_tile if option.discard == "wild" else option.discard
        rest = _without(text, discarded)
        assert option.shanten == xueliu.shanten(rest, rules=preset)
        # The discarded tile counts as seen.
        assert option.jinzhang == xueliu.jinzhang(rest, rules=preset, visible=discarded)
        if option.shanten == 0:
            assert [w.tile for w in option.waits] == xueliu.waits(rest, rules=preset) + ["wild"]
            for w in option.waits:
                tile = wild_tile if w.tile == "wild" else w.tile
                assert w.discard_win == xueliu.evaluate(_with(rest, tile), rules=preset,
                                                        win_tile=tile)


def test_jinzhang_of_an_option_count_the_discard_as_seen():
    option = next(o for o in xueliu.best_discards("123456789m557p1s1s", rules="yaoji")
                  if o.discard == "5p")
    assert option.jinzhang == xueliu.jinzhang("123456789m57p1s1s", rules="yaoji", visible="5p")


def test_a_wild_is_a_discard_only_where_the_rules_let_it_be():
    text = "123456789m55p46p1s"
    assert "wild" not in {o.discard for o in xueliu.best_discards(text, rules="yaoji")}
    dead = Rules.preset("yaoji").replace(wild_discard="dead")
    assert "wild" in {o.discard for o in xueliu.best_discards(text, rules=dead)}


def test_a_wild_wait_drawn_to_a_fourth_wild_scores_siji_as_a_self_draw():
    # 幺鸡 (four_wilds "cap", max_fan 4): the fourth 幺鸡 drawn makes 四鸡, on a discard it cannot.
    option = xueliu.best_discards("1s1s1s123456m789p55p", rules="yaoji")[0]
    wild = next(w for w in option.waits if w.tile == "wild")
    assert wild.self_draw.base == "siji" and wild.self_draw.fan == 4
    assert wild.discard_win.base != "siji"
