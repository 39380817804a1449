"""The bots at the tables with wild tiles (docs/rules.md §12): every built-in bot that plays them and
a ``cmd:`` program play legal, complete hands in every wild-tile preset; a program is told the
wilds in its ``hello`` and in each request (docs/protocol.md); the expert keeps its wilds, values
soft melds, 提 and 无鸡, and is deterministic from its view. (The expert's strength at these
tables is measured by the arena, docs/expert-bot.md, not here.)"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import xueliu
from xueliu.bots import ExpertBot, ExternalBot, GreedyBot, make_bot, play_hand
from xueliu.bots.expert_wild_choice import table_stake
from xueliu.game.actions import Action
from xueliu.rules import WILD_PRESET_NAMES, Rules
from xueliu.simulate import simulate

PROGRAM = Path(__file__).parent / "wild_program.py"


def names(text: str) -> list[str]:
    """``"123m7z"`` -> ``["1m", "2m", "3m", "7z"]``."""
    out: list[str] = []
    digits = ""
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits += ch
        else:
            out.extend(d + ch for d in digits)
            digits = ""
    return out


def position(preset: str, hand: str, *, void: str | None = None, melds=None, wall: int = 40,
             claim: str | None = None, drawn: str | None = None) -> tuple[Rules, dict]:
    """The rules of ``preset`` and the observation of seat 0 holding ``hand`` at such a table
    (its own ``melds``; on its turn having drawn ``drawn``, or in the claim window of seat 3's
    discard ``claim``), nothing discarded yet."""
    rules = Rules.preset(preset)
    tiles = names(hand)
    melds = [melds or [], [], [], []]
    sizes = [13 - 3 * len(melds[s]) for s in range(4)]
    sizes[0] = len(tiles)
    kinds = [xueliu.tiles.PHYSICAL_NAMES[k] for k in sorted(rules.wild_set())]
    return rules, {
        "seat": 0, "dealer": 0, "mode": rules.mode, "phase": "claim" if claim else "turn",
        "is_over": False, "turn": 3 if claim else 0, "pending": True, "legal_actions": [],
        "hand": tiles, "drawn": drawn, "void": void, "voids": [void, None, None, None],
        "multipliers": None, "player_multipliers": None, "melds": melds,
        "discards": [[], [], [], []], "wins": [[], [], [], []], "set_aside": [],
        "claim": {"tile": claim, "from": 3, "kind": "discard"} if claim else None,
        "exchange": None, "wall_remaining": wall, "dice": [3, 4], "break": [0, 5],
        "in_play": [True] * 4, "frozen": [False] * 4, "auto_play": [False] * 4,
        "hand_sizes": sizes, "net": [0] * 4, "coins": None, "base": 1,
        "wilds": {"kinds": kinds, "benjin": None, "in_wall": rules.wild_count_in_wall()}}


def discards_of(obs: dict, wilds: bool = False) -> list[Action]:
    """The discards of the hand (its wilds too with ``wilds``: ``wild_discard = "dead"``)."""
    wild = obs["wilds"]["kinds"]
    return [Action("discard", t) for t in dict.fromkeys(obs["hand"]) if wilds or t not in wild]


def expert_choice(rules: Rules, obs: dict, legal: list[Action]) -> Action:
    bot = ExpertBot(rules=rules)
    chosen = bot.act(obs, legal)
    assert chosen in legal
    # the review's values (docs/review.md) list the same choice first at these tables too
    assert ExpertBot(rules=rules).valued_options(obs, legal)[0].action is chosen
    return chosen


@pytest.mark.parametrize("preset", WILD_PRESET_NAMES)
def test_the_built_in_bots_play_legal_complete_hands_at_every_wild_preset(preset):
    rules = Rules.preset(preset)
    for seed in range(3):
        for first in range(4):  # each bot once in each seat
            names = ["expert", "random", "autoplay", "greedy"]
            names = names[first:] + names[:first]
            bots = [make_bot(n, seed=seed, rules=rules) for n in names]
            state = play_hand(xueliu.new_game(rules, seed=seed, dealer=first), bots)
            assert state.is_over  # play_hand raises on an illegal action
            assert sum(state.settlement().net) == 0


@pytest.mark.parametrize("preset", WILD_PRESET_NAMES)
def test_the_arena_plays_every_wild_preset_and_names_it(preset):
    # (its figures at these tables: docs/expert-bot.md, 2,000 walls a preset)
    from xueliu.arena import arena, format_table

    result = arena(["expert", "random"], 1, rules=preset, seed=3)
    assert result.preset == preset and [line.hands for line in result.lines] == [4, 4]
    assert f"preset {preset}," in format_table(result)


# -- the expert's use of the wilds -----------------------------------------------------------------


class _Watching(ExpertBot):
    """An expert that checks each of its discards: a wild goes only when no natural tile may, or
    as the hand's last wild (no wild melded either) for 无鸡."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules=rules)
        self.wilds_thrown = 0
        self.discards = 0

    def act(self, observation, legal_actions):
        chosen = super().act(observation, legal_actions)
        wild = observation["wilds"]["kinds"]
        self.discards += chosen.kind == "discard"
        if chosen.kind == "discard" and chosen.tile in wild:
            self.wilds_thrown += 1
            if any(a.kind == "discard" and a.tile not in wild for a in legal_actions):
                held = sum(t in wild for t in observation["hand"])
                melded = [m for m in observation["melds"][observation["seat"]] if m["wilds"]]
                assert held == 1 and not melded and observation["claim"] is None
        return chosen


def test_the_expert_throws_a_wild_only_when_nothing_else_may_go_or_for_wuji():
    # 红中 (wild_discard = "dead"): four experts, every discard of a wild checked
    rules = Rules.preset("hongzhong")
    bots = [_Watching(rules) for _ in range(4)]
    for seed in range(6):
        play_hand(xueliu.new_game(rules, seed=seed), bots)
    assert sum(b.discards for b in bots) > 100  # (each checked in act)
    assert sum(b.wilds_thrown for b in bots) >= 1  # seed 1: a last wild thrown for 无鸡


def test_the_expert_throws_its_last_wild_when_wuji_is_within_reach():
    # 123456789m 1123p + 红中: without the 红中 the hand is ready on 1p/4p with 无鸡 (+3 fan, a
    # 40 a win), with it a wait on nearly anything at 2 or 3 fan
    rules, obs = position("hongzhong", "123456789m1123p7z", drawn="7z")
    assert expert_choice(rules, obs, discards_of(obs, wilds=True)) == Action("discard", "7z")
    # with two wilds 无鸡 is out of reach: both stay (each is a 根 there, and a wild wait)
    rules, obs = position("hongzhong", "123456789m112p7z7z", drawn="7z")
    assert expert_choice(rules, obs, discards_of(obs, wilds=True)).tile != "7z"


def test_the_expert_spends_no_wild_on_a_kong_that_costs_it_its_ready_hand():
    # 3468m 14567889s + two 红中: 8s8s and both wilds could be a concealed kong, but the hand
    # thrown 1s or 8s is ready with the wilds as wilds
    rules, obs = position("hongzhong", "3468m14567889s7z7z", drawn="7z")
    legal = discards_of(obs, wilds=True) + [Action("concealed_kong", "8s")]
    assert expert_choice(rules, obs, legal).kind == "discard"


@pytest.mark.parametrize("hand", ["5p12p789s234s99s", "5p12p789s234s69s"])
def test_the_expert_takes_a_wild_back_with_ti(hand):
    # a soft peng (5p 5p 幺鸡) and a natural 5p in hand: 提 puts it in the meld and the wild in
    # the hand, which then waits on far more
    melds = [{"type": "peng", "tile": "5p", "from": 1, "wilds": ["1s"]}]
    rules, obs = position("yaoji", hand, void="m", melds=melds, drawn="9s")
    legal = discards_of(obs) + [Action("swap_back", "5p")]
    assert expert_choice(rules, obs, legal) == Action("swap_back", "5p")


def test_the_expert_keeps_a_pair_of_wilds_out_of_a_soft_peng():
    # 乐山 (soft_peng "two"): two 幺鸡 may peng the 9s; the hand is better with its wilds
    rules, obs = position("leshan", "123p456p789p23s1s1s", void="m", claim="9s")
    assert expert_choice(rules, obs, [Action("peng", "9s"), Action("pass")]).kind == "pass"


def test_the_expert_pays_the_stake_of_the_table():
    # what a typical win of another seat costs against the §1-§10 table: more with 无鸡 and a
    # multiplier table; at a table without wilds the rates are the §1-§10 ones
    stakes = {p: table_stake(Rules.preset(p)) for p in WILD_PRESET_NAMES}
    assert 1.0 < stakes["yaoji"] < 1.5 and 1.0 < stakes["yibin"] < 1.5
    assert stakes["luzhou_gui"] > 4 and stakes["hongzhong"] > stakes["luzhou_gui"]
    import xueliu.bots.expert_value as value
    from xueliu.bots.expert_view import read_view

    bot = ExpertBot()
    state = xueliu.new_game("xuezhan", seed=2)
    view = read_view(state.observation(0), state.rules.shape)
    ctx = bot._context(view, state.rules)
    assert ctx.exit_rate == value.LOSS_RATE * ctx.sd_units / 3.0 and not ctx.own_draw_waits


@pytest.mark.parametrize("preset", ["yaoji", "hongzhong"])
def test_the_experts_decisions_depend_on_its_view_alone(preset):
    """Two hands that differ only in tiles seat 0 cannot see, played alike: wherever its
    observation is the same, so is the expert's decision (docs/rules.md §7)."""
    import random

    from hidden_twins import same_view_states, twin_hands

    rng = random.Random(5)
    compared = 0
    for a, b, seat in twin_hands(preset, "other_hands", 6, rng):
        for _ in same_view_states(a, b, seat, rng):
            if seat not in a.pending():
                continue
            legal = a.legal_actions(seat)
            first = ExpertBot(rules=a.rules).act(a.observation(seat), legal)
            assert ExpertBot(rules=b.rules).act(b.observation(seat), legal) == first
            compared += 1
    assert compared > 10


@pytest.mark.parametrize("preset", WILD_PRESET_NAMES)
def test_a_program_plays_legal_complete_hands_at_every_wild_preset(preset):
    bot = f"cmd:{sys.executable} {PROGRAM}"
    summary = simulate(8, bots=(bot, "expert", "greedy", "random"), rules=preset, seed=3,
                       duplicate=True)
    program = next(b for b in summary.bots if b.name == bot)
    assert program.decisions > 20
    assert program.defaults == {"late": 0, "garbage": 0, "illegal": 0, "dead": 0}
    assert sum(b.seat_hands for b in summary.bots) == 32


def _play_with_program(rules: Rules, seed: int, seat: int, log: Path, observation: bool,
                       as_dict: bool = False):
    """One hand with the program at ``seat`` (the others play greedy): the lines it read, and
    ``(observation, legal actions, its answer)`` at each of its requests."""
    state = xueliu.new_game(rules, seed=seed)
    others = {s: GreedyBot(rules=rules) for s in range(4) if s != seat}
    seen = []
    with ExternalBot([sys.executable, str(PROGRAM), str(log)], timeout=10,
                     observation=observation) as bot:
        bot.start_hand(seat, rules.to_dict() if as_dict else rules, seed=5)
        while not state.is_over:
            answers = {q: others[q].act_view(state.view(q), state.legal_actions(q))
                       for q in state.pending() if q != seat}
            if seat in state.pending():
                obs, legal = state.observation(seat), state.legal_actions(seat)
                answers[seat] = bot.decide(state, seat)
                assert answers[seat] is not None  # answered, legally
                seen.append((obs, legal, answers[seat]))
            state.step(answers)
        bot.end_hand(state, seat)
        assert not bot.dead
    lines = [json.loads(x) for x in log.read_text("utf-8").splitlines()]
    return lines, seen


@pytest.mark.parametrize("preset", WILD_PRESET_NAMES)
def test_a_program_is_told_the_wilds_in_the_hello_and_in_every_request(preset, tmp_path):
    rules = Rules.preset(preset)
    lines, seen = _play_with_program(rules, seed=4, seat=1, log=tmp_path / "lines.jsonl",
                                     observation=True)
    hello = lines[0]
    fixed = [] if rules.uses_benjin else [xueliu.tiles.PHYSICAL_NAMES[k]
                                          for k in sorted(rules.wild_set())]
    assert hello["wilds"] == {"kinds": fixed, "benjin": None,
                              "in_wall": rules.wild_count_in_wall()}
    requests = [m for m in lines if m["type"] == "request"]
    assert len(requests) == len(seen) > 5
    for request, (obs, _legal, _answer) in zip(requests, seen):
        assert list(request) == ["type", "actions", "wilds", "observation"]  # the key order
        assert request["wilds"] == obs["wilds"] == request["observation"]["wilds"]
        wild = set(obs["wilds"]["kinds"])
        assert wild and obs["wilds"]["in_wall"] == rules.wild_count_in_wall()
        if rules.uses_benjin:  # the 本金 turned up names the wilds
            assert obs["wilds"]["benjin"] is not None
            assert wild == {xueliu.tiles.PHYSICAL_NAMES[k] for k in
                            rules.wild_set(obs["wilds"]["benjin"])}
    # the program used them: it threw a wild only when no natural tile could go
    for obs, legal, answer in seen:
        wild = obs["wilds"]["kinds"]
        if answer.kind == "discard" and answer.tile in wild:
            assert all(a.tile in wild for a in legal if a.kind == "discard")


def test_the_hello_reads_the_wilds_from_the_rules_as_a_dict_too(tmp_path):
    # ExternalBot.start_hand takes a Rules or its to_dict() (the learning environments, the
    # table server); other keys the mapping carries are left alone
    rules = Rules.preset("luzhou_gui")
    lines, _ = _play_with_program(rules, seed=2, seat=0, log=tmp_path / "lines.jsonl",
                                  observation=False, as_dict=True)
    assert lines[0]["wilds"] == {"kinds": ["7z"], "benjin": None, "in_wall": 4}
    assert lines[0]["rules"] == rules.to_dict()


def test_without_wild_tiles_the_hello_and_the_requests_are_as_before(tmp_path):
    rules = Rules.preset("xuezhan")
    lines, seen = _play_with_program(rules, seed=4, seat=2, log=tmp_path / "lines.jsonl",
                                     observation=False)
    assert "wilds" not in lines[0]
    requests = [m for m in lines if m["type"] == "request"]
    assert requests and all(list(r) == ["type", "actions"] for r in requests)
