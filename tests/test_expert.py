"""ExpertBot (issue 9): only legal actions, nothing but its own view, and the decisions a strong
player agrees with on hand-picked positions."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

import xueliu
from xueliu.bots import BOTS, AutoPlayBot, ExpertBot, RandomBot, make_bot, play_hand
from xueliu.game import Action
from xueliu.rules import Rules


# -- positions: hand-made observations with every key of the JSON observation ----------------------

def names(text: str) -> list[str]:
    h = xueliu.parse_hand(text)
    return [xueliu.tile_name(k) for k in range(27) for _ in range(int(h.counts[k]))]


def position(hand: str, *, seat: int = 0, void: str | None = "p", voids=None, melds=None,
             discards=None, wall: int = 40, mode: str = "xueliu", wins=None, frozen=None,
             claim=None, phase: str = "turn", multipliers=None, set_aside=()) -> dict:
    """The observation of ``seat`` holding ``hand`` (notation), the rest as given."""
    tiles = names(hand)
    melds = melds or [[], [], [], []]
    rivers = [names(d) if d else [] for d in (discards or ["", "", "", ""])]
    voids = list(voids or [void, "m", "m", "m"])
    voids[seat] = void
    sizes = [13 - 3 * len(melds[s]) for s in range(4)]
    sizes[seat] = len(tiles)
    return {"seat": seat, "dealer": 0, "mode": mode, "phase": phase, "is_over": False,
            "turn": seat, "pending": True, "legal_actions": [], "hand": tiles, "drawn": None,
            "void": void, "voids": voids, "multipliers": multipliers, "player_multipliers": None,
            "melds": melds, "discards": rivers, "wins": wins or [[], [], [], []],
            "set_aside": list(set_aside), "claim": claim, "exchange": None,
            "wall_remaining": wall, "dice": [3, 4], "break": [0, 5], "in_play": [True] * 4,
            "frozen": frozen or [False] * 4, "auto_play": [False] * 4, "hand_sizes": sizes,
            "net": [0] * 4, "coins": None, "base": 1}


def discards_of(obs: dict) -> list[Action]:
    return [Action("discard", t) for t in dict.fromkeys(obs["hand"])]


def peng(tile: str, frm: int) -> dict:
    return {"type": "peng", "tile": tile, "from": frm}


def choice(obs: dict, legal: list[Action], rules: Rules | None = None) -> Action:
    action = ExpertBot(rules=rules).act(obs, legal)
    assert action in legal
    return action


# -- registration -------------------------------------------------------------------------------------

def test_expert_is_a_builtin_bot_named_expert():
    assert BOTS["expert"] is ExpertBot
    bot = make_bot("expert", seed=3, rules=Rules.preset("xuezhan"))
    assert isinstance(bot, ExpertBot) and bot.name == "expert"


# -- only legal actions -----------------------------------------------------------------------------

class CheckedExpert:
    """An ExpertBot whose every answer is checked to be one of the legal actions."""

    def __init__(self, rules: Rules) -> None:
        self.bot = ExpertBot(rules=rules)
        self.decisions = 0

    def act(self, observation, legal_actions):
        action = self.bot.act(observation, legal_actions)
        assert any(action is a for a in legal_actions), (action, legal_actions)
        self.decisions += 1
        return action


KNOB_SETS = [
    ("xueliu", {}),
    ("xuezhan", {}),
    ("xueliu", {"declare_void": False, "exchange_three": False}),
    ("xueliu", {"seven_pairs": False, "pass_blocks_discard_win": "any",
                "post_win_kongs": ["added", "concealed", "direct"]}),
    ("xuezhan", {"pass_blocks_discard_win": "not_higher", "multiple_winners": False,
                 "kong_settle": "on_win", "max_fan": 4}),
    ("xueliu", {"player_multipliers": {"allowed": [1, 2], "default": 1},
                "multipliers": list(range(1, 30)), "self_draw_bonus": "fan", "menqing": True}),
    ("xuezhan", {"exchange_same_suit": False, "exchange_direction": "next", "jingoudiao": False,
                 "gen_counts": "kongs_only", "forced_win_last_n": 0, "kong_draw_from": "back"}),
    ("xueliu", {"mode": "xuezhan", "declare_void": False, "duanyaojiu": True,
                "yitiaolong": True, "refund_kongs": False, "call_transfer": False}),
]


@pytest.mark.parametrize("preset, knobs", KNOB_SETS, ids=lambda x: x if isinstance(x, str) else
                         ",".join(x) or "defaults")
def test_expert_only_ever_chooses_legal_actions(preset, knobs):
    rules = Rules.preset(preset).replace(**knobs)
    games = 125
    decisions = 0
    for g in range(games):
        experts = 1 + g % 3  # one, two or three expert seats, the rest random
        seats = [CheckedExpert(rules) if s < experts else RandomBot(seed=g * 4 + s)
                 for s in range(4)]
        rng = random.Random(g)
        rng.shuffle(seats)
        state = play_hand(xueliu.new_game(rules, seed=1000 + g, dealer=g % 4), seats)
        assert state.is_over
        assert sum(state.settlement().net) == 0
        decisions += sum(b.decisions for b in seats if isinstance(b, CheckedExpert))
    assert decisions > 20 * games  # it was asked, and answered, throughout


def test_four_experts_play_whole_hands_of_both_modes():
    for preset in ("xueliu", "xuezhan"):
        rules = Rules.preset(preset)
        for g in range(10):
            bots = [CheckedExpert(rules) for _ in range(4)]
            state = play_hand(xueliu.new_game(rules, seed=g), bots)
            assert state.is_over and sum(state.settlement().net) == 0


# -- nothing but its own view -------------------------------------------------------------------------

def _deal_indices(dealer: int) -> dict[int, list[int]]:
    """Wall indices each seat is dealt (docs/rules.md §10: 12 takes of 4, then 2 + 1 + 1 + 1)."""
    got: dict[int, list[int]] = {s: [] for s in range(4)}
    for take in range(12):
        got[(dealer + take % 4) % 4].extend(range(4 * take, 4 * take + 4))
    got[dealer].extend([48, 49])
    for j in range(1, 4):
        got[(dealer + j) % 4].append(49 + j)
    return got


def _wall_of(state) -> list[str]:
    """A 108-tile wall that deals the hands of a fresh ``state`` and draws its live wall."""
    full = state.observation(None)
    wall = [""] * 108
    for seat, indices in _deal_indices(state.dealer).items():
        for i, tile in zip(indices, full["hands"][seat]):
            wall[i] = tile
    wall[53:] = full["wall"]
    return wall


class RecordingExpert:
    def __init__(self, rules: Rules) -> None:
        self.bot = ExpertBot(rules=rules)
        self.decisions: list[int] = []

    def act(self, observation, legal_actions):
        action = self.bot.act(observation, legal_actions)
        self.decisions.append(action.id)
        return action


def _play(rules: Rules, wall: list[str], seed: int, dealer: int):
    state = xueliu.new_game(rules, wall=wall, seed=seed, dealer=dealer)
    expert = RecordingExpert(rules)
    play_hand(state, [expert, AutoPlayBot(), AutoPlayBot(), AutoPlayBot()])
    return state.events(0), expert.decisions


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_decisions_are_the_same_when_only_hidden_tiles_differ(preset):
    """Two games whose walls differ only in tiles dealt to other seats (swapped between their
    hands): wherever seat 0's view of the whole game is the same, so are its decisions."""
    rules = Rules.preset(preset)
    compared = 0
    for g in range(40):
        dealer = g % 4
        base = _wall_of(xueliu.new_game(rules, seed=500 + g, dealer=dealer))
        events, decisions = _play(rules, base, 500 + g, dealer)
        rng = random.Random(g)
        dealt = _deal_indices(dealer)
        for _ in range(3):
            i = rng.choice(dealt[1])
            j = rng.choice(dealt[2] + dealt[3])
            if base[i] == base[j]:
                continue
            other = list(base)
            other[i], other[j] = other[j], other[i]
            events_b, decisions_b = _play(rules, other, 500 + g, dealer)
            if events_b == events:  # the same game as seat 0 sees it
                assert decisions_b == decisions
                compared += 1
    assert compared >= 20


# -- positions a strong player agrees with -------------------------------------------------------------

def test_keeps_a_ready_qingyise_over_a_faster_pinghu_when_the_wall_is_long():
    # 1122334568999m5s: throw 5s -> 清一色 ready on 7m/8m (two live: three 7m and two 8m seen);
    # throw 8m -> 平胡 ready on 5s alone (three live). More winning tiles, a quarter of the pay.
    obs = position("1122334568999m5s", void="p", wall=50, discards=["777m", "88m", "", ""])
    assert xueliu.waits("1122334568999m", void="p") == ["7m", "8m"]
    assert xueliu.waits("112233456999m5s", void="p") == ["5s"]
    assert choice(obs, discards_of(obs)) == Action("discard", "5s")


COLLECTOR_MELDS = [[], [peng("3s", 2), peng("7s", 3)], [], []]


def _late_position(seat1_river: str) -> dict:
    # Seat 0 (void m) is one from ready on a pin 清一色 with one stray 6s; seat 1 has two sou
    # pengs. Late in the hand (12 tiles left).
    return position("1223445567899p6s", void="m", voids=["m", "m", "p", "p"],
                    melds=COLLECTOR_MELDS, wall=12,
                    discards=["1m9m4s", seat1_river, "1p4s6s9s", "2p3s8p"])


def test_late_in_the_hand_it_holds_back_a_tile_of_the_suit_an_opponent_collects():
    # Seat 1 has thrown no sou at all: it collects sou. Keeping 6s costs one pin's worth.
    obs = _late_position("19m2p5p8p1p")
    assert choice(obs, discards_of(obs)).tile != "6s"


def test_the_same_stray_tile_goes_when_nobody_is_seen_collecting_its_suit():
    obs = _late_position("19m2p5p8p1s")  # seat 1 has thrown a sou: no 清一色 read
    assert choice(obs, discards_of(obs)) == Action("discard", "6s")


def test_never_throws_a_tile_a_won_hand_is_known_to_wait_on_when_another_costs_little():
    # Seat 2 won (血流: its hand is frozen, its waits fixed) on 5p. Seat 0 holds a stray 5p and
    # a stray 9s beside two sets, a pair and a sequence in each suit; either stray goes at no cost.
    win = {"order": 1, "seat": 2, "tile": "5p", "source": "self_draw", "from": None,
           "flags": ["self_draw"], "fan": 1, "multiplier": 1, "base": "pinghu", "base_fan": 1,
           "gen": 0, "extras": []}
    obs = position("123789p5p11s234s6s9s", void="m", voids=["m", "m", "m", "p"], wall=30,
                   wins=[[], [], [win], []], frozen=[False, False, True, False],
                   discards=["", "1p", "2s", "3p"], set_aside=["5p"])
    assert choice(obs, discards_of(obs)).tile != "5p"
    # Without the win, the 5p is the stray to go (a middle tile far from the pin sets is no use).
    calm = position("123789p5p11s234s6s9s", void="m", voids=["m", "m", "m", "p"], wall=30,
                    discards=["", "1p", "2s", "3p"])
    assert choice(calm, discards_of(calm)).tile in ("5p", "9s")


def test_does_not_break_a_good_ready_hand_for_a_peng():
    # 234m 567m 789p 11p 56p: ready on 4p/7p with 1p1p as the pair. A peng of 1p leaves at best a
    # single-tile wait.
    obs = position("234567m789p11p56p", void="s", phase="claim", discards=["", "", "1p", ""],
                   claim={"tile": "1p", "from": 2, "kind": "discard"})
    assert xueliu.waits("234567m789p11p56p", void="s") == ["4p", "7p"]
    legal = [Action("peng", "1p"), Action("pass")]
    assert choice(obs, legal) == Action("pass")


def test_takes_a_concealed_kong_that_keeps_the_hand_ready():
    obs = position("1111m234567m22p56p", void="s", wall=40)
    legal = discards_of(obs) + [Action("concealed_kong", "1m")]
    assert choice(obs, legal) == Action("concealed_kong", "1m")


def test_voids_the_suit_of_loose_singles_rather_than_the_shortest_suit_holding_a_pair():
    # 万 1 4 7 (three loose singles), 筒 23456788, 条 55 (two tiles, a pair for the eyes). Either
    # void leaves the same shanten; with 万 void the 55s stays as the pair.
    hand = "147m23456788p55s"
    assert xueliu.shanten(hand, void="m") == xueliu.shanten(hand, void="s")
    obs = position(hand, void=None, voids=[None] * 4, phase="void")
    legal = [Action("void", suit=s) for s in "mps"]
    assert choice(obs, legal) == Action("void", suit="m")


def test_exchanges_the_three_loose_tiles_of_the_suit_it_gives_up():
    obs = position("159s234567m23468p", void=None, voids=[None] * 4, phase="exchange")
    legal = sorted({Action("exchange", tiles=c) for c in combinations(obs["hand"], 3)
                    if len({t[-1] for t in c}) == 1}, key=lambda a: a.id)  # one suit, any three
    assert choice(obs, legal) == Action("exchange", tiles=("1s", "5s", "9s"))


def test_multiplier_is_the_largest_on_a_good_hand_and_the_smallest_on_a_poor_one():
    rules = Rules.preset("xuezhan")
    legal = [Action("multiplier", value=v) for v in (2, 4, 8)]
    good = position("234567m789p11p56p", void="s", mode="xuezhan", phase="multiplier")
    poor = position("1479m1369p12589s", void="s", mode="xuezhan", phase="multiplier")
    assert xueliu.shanten("1479m1369p12589s", void="s") >= 4  # scattered, void tiles to shed
    assert choice(good, legal, rules) == Action("multiplier", value=8)
    assert choice(poor, legal, rules) == Action("multiplier", value=2)


@pytest.mark.parametrize("mode", ["xueliu", "xuezhan"])
def test_always_wins_when_it_may(mode):
    obs = position("234567m789p11p567p", void="s", mode=mode)
    assert xueliu.is_win("234567m789p11p567p", void="s")
    legal = discards_of(obs) + [Action("hu")]
    assert choice(obs, legal) == Action("hu")


# -- 进张: the one function the core's DiscardOption.jinzhang can replace ---------------------------

def test_jinzhang_lists_exactly_the_kinds_whose_draw_lowers_the_shanten():
    from xueliu.bots.expert_plan import jinzhang

    rng = random.Random(9)
    for _ in range(30):
        tiles = rng.sample([k for k in range(18) for _ in range(4)], 14)  # 万 and 筒
        counts = [0] * 27
        for k in tiles:
            counts[k] += 1
        remaining = [4 - c for c in counts]
        remaining[3] = 0  # a kind this seat can see no copy of is left out
        discards = [k for k in range(27) if counts[k]]
        shanten, jin = jinzhang(counts, (), 2, remaining, discards, True)
        for d, sh, got in zip(discards, shanten, jin):
            after = list(counts)
            after[d] -= 1
            text = "".join(xueliu.tile_name(k) * after[k] for k in range(27))
            hand = xueliu.parse_hand("".join(xueliu.tile_name(k) for k in range(27)
                                             for _ in range(after[k])))
            assert sh == xueliu.shanten(hand, void="s"), text
            want = []
            for t in range(27):
                if remaining[t] and t // 9 != 2:
                    after[t] += 1
                    h = xueliu.parse_hand("".join(xueliu.tile_name(k) for k in range(27)
                                                  for _ in range(after[k])))
                    if xueliu.shanten(h, void="s") < sh:
                        want.append((t, remaining[t]))
                    after[t] -= 1
            assert got == want


# -- 血战 after others have left: only the seats still in play count -------------------------------------

def _xuezhan_with_seat_3_gone(*, kong: bool = True, gone_multiplier: int = 8) -> dict:
    """Seat 0 to discard in 血战, 29 tiles in the wall; seat 3 won on a discard of seat 0 and has
    left play (in_play False, its hand out of the game); seat 0 holds a concealed kong of 1m."""
    melds = [[{"type": "concealed_kong", "tile": "1m", "from": None}] if kong else [],
             [peng("6m", 2)], [], []]
    obs = position("234m67m2346s88s" if kong else "1m234m67m2346s88s", void="p", mode="xuezhan",
                   wall=29, melds=melds, voids=["p", "s", "m", "s"],
                   discards=["9p5p1s", "1p3p9s4s", "9m7m2m5m", "5p6p"],
                   multipliers=[8, 8, 8, gone_multiplier],
                   wins=[[], [], [], [{"order": 1, "seat": 3, "tile": "8m", "source": "discard",
                                       "from": 0, "flags": [], "fan": 1, "multiplier": 1,
                                       "base": "pinghu", "base_fan": 1, "gen": 0, "extras": []}]])
    obs["in_play"] = [True, True, True, False]
    return obs


def _context_of(obs: dict):
    from xueliu.bots.expert_view import read_view

    rules = Rules.preset("xuezhan")
    view = read_view(obs)
    return view, ExpertBot(rules=rules)._context(view, rules)


def test_xuezhan_a_seat_that_has_left_does_not_shorten_the_experts_horizon():
    """The 血战 hand ends when the other seats *still in play* have won (the third win): the bot's
    draws left are E[min(D, M)], M the time by which those seats have won (docs/expert-bot.md,
    "The end of the wall"). A winner that has left is not one more win to wait for."""
    from xueliu.bots.expert_danger import ready_chance, table_pace
    from xueliu.bots.expert_value import game_horizon

    view, ctx = _context_of(_xuezhan_with_seat_3_gone())
    pace = table_pace(view)
    assert ctx.others == [1, 2]
    in_play = game_horizon(view.draws_left, [ready_chance(view, o, pace) for o in (1, 2)], pace)
    assert ctx.draws == in_play[0]
    # The corner is real here: counting the departed seat would wait for a fourth win that
    # never comes, and stretch the horizon.
    counting_it = game_horizon(view.draws_left,
                               [ready_chance(view, o, pace) for o in (1, 2, 3)], pace)
    assert counting_it[0] > in_play[0] + 0.5


def test_xuezhan_tuishui_estimate_takes_the_kong_income_of_the_seats_still_in_play_only():
    """退税 takes a concealed kong's income back from a seat not ready at the end — 2 units from
    each seat still in play (8 × 8 here, both), never from the seat that has left, which pays
    nothing more: the kong adds exactly 2 × (64 + 64) to the end-of-wall estimate, times the
    chance the hand lasts to the wall's end, whatever the departed seat's multiplier."""
    from xueliu.bots.expert_danger import ready_chance, table_pace
    from xueliu.bots.expert_value import game_horizon

    for gone_multiplier in (2, 8):
        view, with_kong = _context_of(_xuezhan_with_seat_3_gone(gone_multiplier=gone_multiplier))
        _, without = _context_of(_xuezhan_with_seat_3_gone(kong=False,
                                                           gone_multiplier=gone_multiplier))
        assert without.draws == with_kong.draws  # the same horizon: only the own melds differ
        pace = table_pace(view)
        _, lasts = game_horizon(view.draws_left, [ready_chance(view, o, pace) for o in (1, 2)],
                                pace)
        assert with_kong.end_fixed - without.end_fixed == pytest.approx(lasts * 2 * (64 + 64))


def test_xuezhan_the_multiplier_of_a_seat_that_has_left_changes_no_decision_value():
    """A seat that has won and left 血战 pays nothing more: its player multiplier enters neither
    the expert's valuation of each discard nor its choice."""
    from xueliu.bots.expert_view import KIND

    bot = ExpertBot(rules=Rules.preset("xuezhan"))
    scores = []
    decisions = []
    for gone_multiplier in (2, 8):
        obs = _xuezhan_with_seat_3_gone(gone_multiplier=gone_multiplier)
        view, ctx = _context_of(obs)
        planner, danger = bot._models(view, Rules.preset("xuezhan"))
        kinds = sorted({KIND[t] for t in obs["hand"]})
        scores.append(bot._discard_scores(planner, danger, view.counts, tuple(view.melds),
                                          view.void, kinds))
        decisions.append(choice(obs, discards_of(obs)))
    assert scores[0] == scores[1]
    assert decisions[0] == decisions[1]


# -- the risk model's rules (expert_danger.py), each reached on purpose ---------------------------------

def _danger(obs: dict, memory=None):
    from xueliu.bots.expert_danger import DangerModel, table_pace
    from xueliu.bots.expert_view import read_view

    view = read_view(obs)
    others = [o for o in range(4) if o != view.seat and view.in_play[o]]
    safe = [memory.safe_against(o, view) if memory is not None and view.frozen[o] else set()
            for o in range(4)]
    return DangerModel(view, others, safe, True, table_pace(view))


K = {xueliu.tile_name(k): k for k in range(27)}


def test_a_seat_cannot_deal_in_on_its_void_suit_nor_while_it_still_holds_void_tiles():
    """docs/rules.md §3.2: a seat never wins on its void suit, and not at all while it still holds tiles
    of it (it has thrown nothing else and made no meld)."""
    # Seat 1 is void in 万 and has thrown a 筒 (clear of 万); seats 2 and 3 have thrown only
    # tiles of their void suits so far: they may still hold some and cannot win yet.
    obs = position("123456789p12345s", void="m", voids=["m", "m", "s", "p"], wall=30,
                   discards=["", "1m2m9p", "1s2s", "1p2p"])
    danger = _danger(obs)
    assert danger.seats == [1]  # only seat 1 can win now
    assert danger.cost(K["5m"]) == 0.0  # seat 1's void suit
    assert danger.cost(K["5p"]) > 0.0 and danger.cost(K["5s"]) > 0.0
    # Once seat 2 throws a tile of another suit, it is counted.
    obs["discards"][2] = ["1s", "2s", "5m"]
    assert _danger(obs).seats == [1, 2]


def test_a_frozen_hand_is_known_safe_against_the_tiles_discarded_since_it_won():
    """A won 血流 hand keeps its waits: a tile anyone discarded after it froze, and it did not win
    on, is none of them; the tile it won on is one for sure."""
    from xueliu.bots.expert_view import HandMemory, read_view

    win = {"order": 1, "seat": 2, "tile": "5p", "source": "self_draw", "from": None,
           "flags": ["self_draw"], "fan": 1, "multiplier": 1, "base": "pinghu", "base_fan": 1,
           "gen": 0, "extras": []}
    kw = dict(void="m", voids=["m", "m", "m", "m"], wall=30, wins=[[], [], [win], []],
              frozen=[False, False, True, False], set_aside=["5p"])
    at_win = position("123789p4p11s234s6s9s", discards=["", "1s", "2s", "3s"], **kw)
    memory = HandMemory()
    memory.update(at_win, read_view(at_win))  # first seen frozen: the rivers' lengths now
    later = position("123789p4p11s234s6s9s", discards=["4p", "1s", "2s", "3s"], **kw)
    memory.update(later, read_view(later))
    danger = _danger(later, memory)
    assert K["4p"] in memory.safe_against(2, read_view(later))
    assert danger.seats == [1, 2, 3]
    assert danger.chance(K["5p"]) == 1.0  # the tile seat 2 won on deals in for sure
    # 4p was thrown after the win: against seat 2 it is safe, so it costs only the others' share.
    no_memory = _danger(later)
    assert danger.cost(K["4p"]) < no_memory.cost(K["4p"])


def test_the_memory_of_a_frozen_hand_starts_again_with_a_new_hand():
    """What is remembered within a hand (the rivers when a seat froze) is forgotten when the
    dice, dealer or break point say a new hand has begun."""
    from xueliu.bots.expert_view import HandMemory, read_view

    kw = dict(void="m", voids=["m", "m", "m", "m"], wall=30, frozen=[False, False, True, False])
    first = position("123789p4p11s234s6s9s", discards=["", "1s", "2s", "3s"], **kw)
    memory = HandMemory()
    memory.update(first, read_view(first))
    again = position("123789p4p11s234s6s9s", discards=["4p", "1s", "2s", "3s"], **kw)
    memory.update(again, read_view(again))
    assert memory.safe_against(2, read_view(again)) == {K["4p"]}
    new_hand = dict(again, dice=[1, 1])  # another deal, seat 2 frozen again at once
    memory.update(new_hand, read_view(new_hand))
    assert memory.safe_against(2, read_view(new_hand)) == set()


def test_a_seat_that_has_left_xuezhan_is_no_danger():
    """A 血战 winner that has left play never wins again: the expert's risk of a discard counts
    only the seats still in play."""
    obs = _xuezhan_with_seat_3_gone()
    from xueliu.bots.expert_view import read_view

    rules = Rules.preset("xuezhan")
    _, danger = ExpertBot(rules=rules)._models(read_view(obs), rules)
    assert 3 not in danger.seats


# -- which options the value model valued (ExpertBot.valued_options, docs/review.md) ---------------

def test_valued_options_are_option_values_with_a_flag_and_the_same_choice():
    obs = position("123456m11335578s", wall=20, voids=["p", "s", "s", "s"],
                   discards=["", "19m", "28m", "37m"])
    legal = discards_of(obs)
    judged = ExpertBot(rules=Rules.preset("xueliu")).valued_options(obs, legal)
    assert [(o.action, o.value) for o in judged] == ExpertBot().option_values(obs, legal)
    assert judged[0].action == choice(obs, legal)
    assert all(isinstance(o.valued, bool) for o in judged)


def test_the_flag_and_not_the_value_says_which_discards_the_model_valued():
    """With no draw left every hand is worth 0 and these discards carry no danger: the discards
    that keep the best shape are valued at exactly 0.0, those a step behind it (``SPAN``) are
    skipped — at the same 0.0."""
    obs = position("1234567m113355s9s", wall=0)
    judged = ExpertBot(rules=Rules.preset("xueliu")).valued_options(obs, discards_of(obs))
    assert all(o.value == 0.0 for o in judged)
    assert {o.action.tile for o in judged if o.valued} == {"9s", "1m", "4m", "7m"}
    assert {o.action.tile for o in judged if not o.valued} == {"2m", "3m", "5m", "6m", "1s",
                                                              "3s", "5s"}


def test_a_skipped_discard_carrying_danger_is_not_valued():
    """A discard a step behind the best shape is skipped: it shows its deal-in danger alone (a
    small negative number), flagged not valued."""
    obs = position("123456m11335578s", wall=20, voids=["p", "s", "s", "s"],
                   discards=["", "19m", "28m", "37m"])
    judged = ExpertBot(rules=Rules.preset("xueliu")).valued_options(obs, discards_of(obs))
    skipped = [o for o in judged if not o.valued]
    assert {o.action.tile for o in skipped} == {"1m", "2m", "3m", "4m", "5m", "6m"}
    assert all(-0.1 < o.value < 0.0 for o in skipped)
    assert all(o.valued and o.value > 1.0 for o in judged if o.action.tile[-1] == "s")


def test_a_discard_is_flagged_skipped_exactly_when_the_planner_skips_it(monkeypatch):
    """Valuing every discard as a plain hand (``SPAN`` wide) leaves no option unflagged."""
    from xueliu.bots import expert_plan
    obs = position("123456m11335578s", wall=20, voids=["p", "s", "s", "s"],
                   discards=["", "19m", "28m", "37m"])
    monkeypatch.setattr(expert_plan, "SPAN", 9)
    judged = ExpertBot(rules=Rules.preset("xueliu")).valued_options(obs, discards_of(obs))
    assert all(o.valued for o in judged)
    assert all(o.value > 0.0 for o in judged)
