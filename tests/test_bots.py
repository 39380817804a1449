"""Bots (issue 4): the one-method interface and its lifecycle (issue 16), RandomBot, AutoPlayBot
(docs/rules.md §8 托管) and GreedyBot."""

from __future__ import annotations

import json
import textwrap

import pytest

import xueliu
from xueliu.bots import (
    AutoPlayBot, Bot, ExpertBot, GreedyBot, RandomBot, bot_seed, make_bot, play_hand,
)
from xueliu.errors import BotError
from xueliu.game import Action
from xueliu.rules import Rules
from xueliu.simulate import simulate


def obs_for(hand: str, *, seat: int = 0, void=None, mode: str = "xueliu", melds=(), discards=None,
            drawn=None, frozen=False) -> dict:
    """A minimal observation of ``seat`` holding ``hand`` (only the keys bots read)."""
    h = xueliu.parse_hand(hand)
    tiles = [xueliu.tile_name(k) for k in range(27) for _ in range(int(h.counts[k]))]
    all_melds = [[], [], [], []]
    all_melds[seat] = [{"type": t, "tile": tile, "from": None} for t, tile in melds]
    return {"seat": seat, "mode": mode, "hand": tiles, "void": void, "melds": all_melds,
            "discards": discards or [[], [], [], []], "set_aside": [], "drawn": drawn,
            "frozen": [frozen if s == seat else False for s in range(4)]}


def discards_of(hand: str):
    h = xueliu.parse_hand(hand)
    return [Action("discard", xueliu.tile_name(k)) for k in range(27) if h.counts[k]]


def finished(state) -> bool:
    return state.is_over and not state.pending()


# -- the interface ----------------------------------------------------------------------------------


class FirstChoiceBot:
    """The example of the Bot docstring, verbatim in spirit: always the first legal action."""

    name = "first"

    def act(self, observation, legal_actions):
        return legal_actions[0]


def test_a_few_line_bot_satisfies_the_protocol_and_plays_a_hand():
    bot = FirstChoiceBot()
    assert isinstance(bot, Bot)
    state = play_hand(xueliu.new_game("xueliu", seed=11), [bot] * 4)
    assert finished(state)
    assert sum(state.settlement().net) == 0


def test_play_hand_needs_four_bots():
    with pytest.raises(ValueError, match="4 bots"):
        play_hand(xueliu.new_game(seed=1), [RandomBot(0)] * 3)


def test_make_bot_builds_builtin_and_module_class_bots():
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot("autoplay"), AutoPlayBot)
    assert isinstance(make_bot("xueliu.bots.random_bot:RandomBot", seed=3), RandomBot)
    rules = Rules.preset("xuezhan")
    assert make_bot("greedy", rules=rules)._rules is rules
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        make_bot("smart")
    with pytest.raises(ValueError, match="cannot import"):
        make_bot("no_such_module_xyz:Bot")
    with pytest.raises(ValueError, match="has no 'Nope'"):
        make_bot("xueliu.bots:Nope")


class IllegalBot:
    """Answers every question with a discard of 9s: never legal in the exchange."""

    def act(self, observation, legal_actions):
        return Action("discard", "9s")


def test_an_illegal_answer_makes_play_hand_raise_the_engines_error_unchanged():
    with pytest.raises(ValueError) as raised:
        play_hand(xueliu.new_game("xueliu", seed=3),
                  [IllegalBot(), RandomBot(1), RandomBot(2), RandomBot(3)])
    state = xueliu.new_game("xueliu", seed=3)
    answers = {0: Action("discard", "9s")}
    for s in (1, 2, 3):
        answers[s] = RandomBot(s).act_view(state.view(s), state.legal_actions(s))
    with pytest.raises(ValueError) as direct:
        state.step(answers)
    assert str(raised.value) == str(direct.value) and "9s" in str(raised.value)


class NoSeedBot:
    """A user bot whose constructor takes neither seed nor rules: make_bot must not pass them."""

    def __init__(self):
        self.made = True

    def act(self, observation, legal_actions):
        return legal_actions[0]


class NotABot:
    def __init__(self, seed=0):
        self.seed = seed


def test_make_bot_passes_only_the_arguments_a_class_takes_and_refuses_a_class_without_act():
    import sys
    import types

    module = types.ModuleType("xueliu_test_user_bots")
    module.NoSeedBot, module.NotABot = NoSeedBot, NotABot
    sys.modules[module.__name__] = module
    try:
        bot = make_bot("xueliu_test_user_bots:NoSeedBot", seed=5, rules=Rules.preset("xueliu"))
        assert isinstance(bot, NoSeedBot) and bot.made
        with pytest.raises(ValueError, match="no act"):
            make_bot("xueliu_test_user_bots:NotABot")
    finally:
        del sys.modules[module.__name__]


def test_a_bot_spec_is_a_string_and_is_checked_without_starting_anything():
    from xueliu.bots import check_bot_spec

    for spec in (None, 3, ["greedy"]):
        with pytest.raises(TypeError, match="a bot spec is a str"):
            check_bot_spec(spec)
        with pytest.raises(TypeError, match="a bot spec is a str"):
            make_bot(spec)
    check_bot_spec("cmd:python3 -c pass")  # looked up, not run
    with pytest.raises(ValueError, match="not a program"):
        check_bot_spec("cmd:no-such-program-xueliu")


# -- RandomBot ----------------------------------------------------------------------------------


def test_random_bot_is_reproducible_from_its_seed():
    """Asked directly, a RandomBot follows its constructor's seed."""
    def answers(seed):
        bot, options = RandomBot(seed), list(range(10))
        return [bot.act({}, options) for _ in range(30)]

    assert answers(100) == answers(100)
    assert answers(100) != answers(200)


def test_in_play_hand_a_random_bot_is_reseeded_from_the_hand():
    """Inside the lifecycle the hand's seed decides (start_hand reseeds), not the constructor's:
    play_hand's master seed is ``seed=`` or the hand's own seed."""
    def play(bot_seeds, **kwargs):
        state = play_hand(xueliu.new_game("xuezhan", seed=5), [RandomBot(s) for s in bot_seeds],
                          **kwargs)
        return state.record()["decisions"], state.settlement().net

    assert play([100, 101, 102, 103]) == play([200, 201, 202, 203]) == play([None] * 4)
    assert play([0] * 4, seed=100) == play([1] * 4, seed=100)
    assert play([0] * 4, seed=100)[0] != play([0] * 4, seed=200)[0]


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_random_bots_play_legal_hands_to_the_end(preset):
    for seed in range(15):
        state = play_hand(xueliu.new_game(preset, seed=seed), [RandomBot(seed * 4 + s) for s in range(4)])
        assert finished(state)
        assert sum(t.amount * ((t.payee is not None) - (t.payer is not None))
                   for t in state.settlement().transfers) == 0


# -- AutoPlayBot --------------------------------------------------------------------------------


def _non_timeout_events(state):
    """The events with the timeout bookkeeping left out ("auto" marks a move made for a seat)."""
    return [{k: v for k, v in e.items() if k != "auto"} for e in state.events()
            if e["type"] not in ("timeout", "auto_play")]


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_autoplay_bot_plays_exactly_the_timeout_defaults(preset):
    rules = Rules.preset(preset)
    for seed in range(6):
        by_timeout = xueliu.new_game(rules, seed=seed)
        while not by_timeout.is_over:
            by_timeout.apply_timeout(by_timeout.pending()[0])
        by_bot = play_hand(xueliu.new_game(rules, seed=seed), [AutoPlayBot(rules=rules)] * 4)
        assert _non_timeout_events(by_bot) == _non_timeout_events(by_timeout)
        assert by_bot.settlement().net == by_timeout.settlement().net


def test_autoplay_bot_reads_the_multiplier_default_from_the_observation():
    # the default (1) is not the largest allowed value (2), and the bot is not told the rules
    rules = Rules.preset("xuezhan").replace(player_multipliers={"allowed": (1, 2), "default": 1})
    for seed in range(3):
        state = xueliu.new_game(rules, seed=seed)
        assert state.observation(0)["player_multipliers"] == {"allowed": [1, 2], "default": 1}
        by_timeout = xueliu.new_game(rules, seed=seed)
        while not by_timeout.is_over:
            by_timeout.apply_timeout(by_timeout.pending()[0])
        play_hand(state, [AutoPlayBot()] * 4)
        assert state.multipliers == by_timeout.multipliers == [1, 1, 1, 1]
        assert _non_timeout_events(state) == _non_timeout_events(by_timeout)
    assert xueliu.new_game("xueliu", seed=1).observation(0)["player_multipliers"] is None


def test_autoplay_exchanges_the_three_highest_tiles_of_the_shortest_suit():
    obs = obs_for("1234567m2589p345s")  # 条 has 3 tiles: the shortest suit with at least 3
    legal = [Action("exchange", tiles=t) for t in (("2p", "5p", "8p"), ("3s", "4s", "5s"),
                                                     ("5m", "6m", "7m"))]
    assert AutoPlayBot().act(obs, legal).tiles == ("3s", "4s", "5s")
    obs = obs_for("12345678m2589p45s")  # 条 has only 2: 筒 (4 tiles) gives its highest three
    legal = [Action("exchange", tiles=t) for t in (("2p", "5p", "8p"), ("5p", "8p", "9p"),
                                                     ("6m", "7m", "8m"))]
    assert AutoPlayBot().act(obs, legal).tiles == ("5p", "8p", "9p")


def test_autoplay_voids_the_suit_with_fewest_tiles_lower_suit_on_ties():
    legal = [Action("void", suit=s) for s in "mps"]
    assert AutoPlayBot().act(obs_for("1234567m234p2345s"), legal).suit == "p"
    assert AutoPlayBot().act(obs_for("12345m6789p12345s"), legal).suit == "p"
    assert AutoPlayBot().act(obs_for("1234m56789p12345s"), legal).suit == "m"


def test_autoplay_discards_the_drawn_tile_else_the_highest_legal_and_always_wins():
    bot = AutoPlayBot()
    hand = "1234567m2345p123s"
    legal = discards_of(hand)
    assert bot.act(obs_for(hand, drawn="3p"), legal).tile == "3p"
    void_rule = [Action("discard", "1s"), Action("discard", "2s"), Action("discard", "3s")]
    assert bot.act(obs_for(hand, drawn="3p", void="s"), void_rule).tile == "3s"
    assert bot.act(obs_for(hand, drawn="3p"), legal + [Action("hu")]).kind == "hu"
    assert bot.act(obs_for(hand), [Action("peng", "5p"), Action("pass")]).kind == "pass"


# -- GreedyBot -----------------------------------------------------------------------------------


def test_greedy_always_takes_a_win():
    bot = GreedyBot()
    hand = "1155m123p456p789p"
    assert bot.act(obs_for(hand), [Action("peng", "5m"), Action("hu"), Action("pass")]).kind == "hu"
    assert bot.act(obs_for(hand + "5m"), discards_of(hand + "5m") + [Action("hu")]).kind == "hu"


def test_greedy_voids_and_exchanges_the_weakest_suit():
    bot = GreedyBot()
    hand = "12345678m234p159s"  # 条 is three isolated tiles: the weakest suit
    assert bot.act(obs_for(hand), [Action("void", suit=s) for s in "mps"]).suit == "s"
    legal = [Action("exchange", tiles=t) for t in (("2p", "3p", "4p"), ("1s", "5s", "9s"),
                                                     ("1m", "2m", "3m"))]
    assert bot.act(obs_for(hand), legal).tiles == ("1s", "5s", "9s")


def test_greedy_discards_to_ready_with_the_most_remaining_winning_tiles():
    hand = "223445679m12399p"  # discard 2m: waits 8m (4 left); discard 9m: waits 3m (3 left)
    bot = GreedyBot()
    assert bot.act(obs_for(hand), discards_of(hand)).tile == "2m"
    # Two 8m already discarded by others: 9m (three 3m left) now keeps more winning tiles.
    seen = [["8m"], ["8m"], [], []]
    assert bot.act(obs_for(hand, discards=seen), discards_of(hand)).tile == "9m"


def test_greedy_discards_the_only_tile_that_keeps_the_hand_ready():
    hand = "12345678m22p4566p"
    assert GreedyBot().act(obs_for(hand), discards_of(hand)).tile == "6p"


def test_greedy_respects_the_legal_discards_of_the_void_rule():
    hand = "12345678m22p4566p"
    only_void = [Action("discard", "2p"), Action("discard", "4p"), Action("discard", "5p"),
                 Action("discard", "6p")]
    assert GreedyBot().act(obs_for(hand, void="p"), only_void).tile in {"2p", "4p", "5p", "6p"}


def test_greedy_pengs_when_shanten_does_not_rise_and_passes_when_it_would():
    bot = GreedyBot()
    claim = [Action("peng", "5m"), Action("pass")]
    assert bot.act(obs_for("1155m123p456p789p"), claim).kind == "peng"  # 0 -> complete
    claim = [Action("peng", "1m"), Action("pass")]
    assert bot.act(obs_for("11224455m6688p9p"), claim).kind == "pass"  # seven pairs: 0 -> 2


def test_greedy_kongs_a_discard_that_keeps_the_shanten():
    bot = GreedyBot()
    claim = [Action("kong", "9p"), Action("peng", "9p"), Action("pass")]
    assert bot.act(obs_for("123m456m789m999p5p"), claim).kind == "kong"


def test_greedy_won_xueliu_hand_takes_an_offered_kong():
    bot = GreedyBot()
    legal = [Action("discard", "9p"), Action("concealed_kong", "9p")]
    assert bot.act(obs_for("123m456m789m999p5p9p", drawn="9p", frozen=True), legal).kind == \
        "concealed_kong"


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_greedy_self_play_finishes_hands(preset):
    for seed in range(8):
        state = play_hand(xueliu.new_game(preset, seed=seed), [GreedyBot() for _ in range(4)])
        assert finished(state)


def test_greedy_beats_three_random_bots_clearly():
    summary = simulate(48, bots=["greedy", "random", "random", "random"], seed=4, duplicate=True)
    greedy, random_ = summary.bots
    assert greedy.name == "greedy" and random_.name == "random"
    assert greedy.interval[0] > 0 > random_.interval[1]
    assert greedy.win_rate > 0.5 > random_.win_rate


# -- the Bot base class and the seat view (issue 7) -------------------------------------------------


def test_the_built_in_bots_share_the_bot_base_class_and_duck_typed_bots_still_count():
    for cls in (GreedyBot, RandomBot, AutoPlayBot):
        assert Bot in cls.__mro__  # nominally: a list[Bot] of them type-checks
    assert isinstance(FirstChoiceBot(), Bot) and issubclass(FirstChoiceBot, Bot)
    assert not isinstance(object(), Bot)
    bots: list[Bot] = [GreedyBot(), RandomBot(1), AutoPlayBot(), FirstChoiceBot()]
    assert finished(play_hand(xueliu.new_game("xuezhan", seed=12), bots))


class ObservationOnlyBot(Bot):
    """A Bot subclass with only act(): play_hand hands it the JSON observation."""

    name = "observer"

    def __init__(self):
        self.seen = []

    def act(self, observation, legal_actions):
        self.seen.append(observation)
        return legal_actions[-1]


class ViewBot(Bot):
    """A Bot subclass with act_view(): play_hand hands it the seat view."""

    name = "viewer"

    def __init__(self):
        self.views = 0

    def act(self, observation, legal_actions):  # pragma: no cover - play_hand uses act_view
        raise AssertionError("act_view should have been used")

    def act_view(self, view, legal_actions):
        assert view.seat in (0, 1, 2, 3) and view.pending
        assert [a.id for a in legal_actions] == [a.id for a in view.legal_actions]
        self.views += 1
        return legal_actions[-1]


def test_play_hand_asks_through_the_view_when_a_bot_reads_it_else_through_the_observation():
    observer, viewer = ObservationOnlyBot(), ViewBot()
    state = xueliu.new_game("xueliu", seed=13)
    plain = xueliu.new_game("xueliu", seed=13)
    play_hand(state, [observer, viewer, viewer, viewer])
    assert finished(state) and viewer.views > 0
    assert observer.seen and all(isinstance(o, dict) and o["seat"] == 0 for o in observer.seen)
    # The observations were the real ones: the same choices replayed give the same first one.
    assert observer.seen[0] == plain.observation(0)


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_built_in_bots_choose_the_same_through_the_view_as_through_the_observation(preset):
    rules = Rules.preset(preset)
    for seed in range(4):
        state = xueliu.new_game(rules, seed=seed, dealer=seed)
        by_obs = [GreedyBot(rules=rules), AutoPlayBot(rules=rules), RandomBot(seed)]
        by_view = [GreedyBot(rules=rules), AutoPlayBot(rules=rules), RandomBot(seed)]
        while not state.is_over:
            choice = {}
            for seat in state.pending():
                legal = state.legal_actions(seat)
                obs, view = state.observation(seat), state.view(seat)
                answers = [bot.act(obs, legal) for bot in by_obs]
                assert [bot.act_view(view, legal) for bot in by_view] == answers
                choice[seat] = answers[seat % 2]
            state.step(choice)


# -- the lifecycle: start_hand(seat, rules, seed) / act / end_hand ----------------------------------


class RecordingBot:
    """A duck-typed bot with the whole lifecycle, noting every call in order."""

    def __init__(self):
        self.calls = []

    def start_hand(self, seat, rules, seed):
        self.calls.append(("start_hand", seat, rules, seed))

    def act(self, observation, legal_actions):
        self.calls.append(("act", observation["seat"]))
        return legal_actions[0]

    def end_hand(self, observation):
        self.calls.append(("end_hand", observation))


def test_play_hand_starts_every_bot_asks_it_and_ends_the_hand():
    state = xueliu.new_game("xuezhan", seed=21)
    bots = [RecordingBot() for _ in range(4)]
    play_hand(state, bots)
    for seat, bot in enumerate(bots):
        first, *acts, last = bot.calls
        assert first == ("start_hand", seat, state.rules, bot_seed(21, 0, seat))
        assert isinstance(first[2], Rules)
        assert acts and all(call == ("act", seat) for call in acts)
        assert last == ("end_hand", state.observation(seat))  # the seat's last view, nothing more


def test_play_hand_takes_the_master_seed_of_the_bots_seeds():
    bots = [RecordingBot() for _ in range(4)]
    play_hand(xueliu.new_game(seed=21), bots, seed=9)
    assert [b.calls[0][3] for b in bots] == [bot_seed(9, 0, seat) for seat in range(4)]
    with pytest.raises(TypeError, match="seed"):
        play_hand(xueliu.new_game(seed=21), bots, seed="9")


def test_a_bot_with_only_act_still_plays_everywhere():
    assert finished(play_hand(xueliu.new_game(seed=3), [FirstChoiceBot() for _ in range(4)]))
    summary = simulate(4, bots=["tests.test_bots:FirstChoiceBot", "random", "greedy", "random"])
    assert summary.games == 4


def test_bot_seed_is_a_documented_one_way_hash_of_master_hand_and_seat():
    import hashlib
    digest = hashlib.blake2b(b"xueliu-bot:7:3:2", digest_size=8).digest()
    assert bot_seed(7, 3, 2) == int.from_bytes(digest, "big") >> 1
    seeds = {bot_seed(m, h, s) for m in range(3) for h in range(3) for s in range(4)}
    assert len(seeds) == 36 and all(0 <= x < 2 ** 63 for x in seeds)
    with pytest.raises(TypeError, match="seat"):
        bot_seed(7, 3, True)


def test_a_random_bot_plays_the_same_hand_the_same_way_after_any_history():
    """Reseeded at start_hand, what it did in earlier hands does not change its next hand."""
    fresh = [RandomBot() for _ in range(4)]
    used = [RandomBot(seed=s) for s in range(4)]
    for seed in (1, 2):
        play_hand(xueliu.new_game(seed=seed), used)
    a = play_hand(xueliu.new_game(seed=8), fresh).record()["decisions"]
    b = play_hand(xueliu.new_game(seed=8), used).record()["decisions"]
    assert a == b


def test_an_expert_bot_forgets_the_last_hand_when_the_next_starts():
    """The same decisions in a hand whether the ExpertBot played other hands before or not."""
    def play(bot, seed):
        others = [GreedyBot() for _ in range(3)]
        return play_hand(xueliu.new_game(seed=seed, dealer=seed % 4), [bot, *others])

    veteran = ExpertBot()
    for seed in (30, 31, 32):
        play(veteran, seed)
    assert (play(veteran, 33).record()["decisions"]
            == play(ExpertBot(), 33).record()["decisions"])


def test_start_hand_gives_greedy_and_expert_the_hands_rules():
    rules = Rules.preset("xuezhan")
    for cls in (GreedyBot, ExpertBot):
        bot = cls()
        bot.start_hand(1, rules, 5)
        assert bot._rules is rules


def test_simulate_starts_each_bot_with_the_seat_and_the_documented_seed(tmp_path, monkeypatch):
    (tmp_path / "notebot.py").write_text(textwrap.dedent("""
        import json, os

        class NoteBot:
            def start_hand(self, seat, rules, seed):
                with open(os.environ["NOTEBOT_LOG"], "a") as f:
                    f.write(json.dumps([seat, rules.mode, seed]) + "\\n")

            def act(self, observation, legal_actions):
                return legal_actions[0]
    """), "utf-8")
    log = tmp_path / "starts.jsonl"
    monkeypatch.setenv("NOTEBOT_LOG", str(log))
    monkeypatch.syspath_prepend(str(tmp_path))
    simulate(8, bots=["notebot:NoteBot", "random", "random", "random"], seed=4,
             duplicate=True, rules="xuezhan")
    starts = [json.loads(x) for x in log.read_text().splitlines()]
    # duplicate: hand i plays the wall i // 4 with the bots rotated, NoteBot at seat (4 - i % 4) % 4
    expected = []
    for hand in range(8):
        seat = (4 - hand % 4) % 4
        expected.append([seat, "xuezhan", bot_seed(4, hand, seat)])
    assert starts == expected


def test_a_bot_that_raises_in_start_hand_is_named(tmp_path, monkeypatch):
    (tmp_path / "badstart.py").write_text(textwrap.dedent("""
        class BadStart:
            def start_hand(self, seat, rules, seed):
                raise RuntimeError("no")

            def act(self, observation, legal_actions):
                return legal_actions[0]
    """), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotError, match=r"bot 'badstart:BadStart' at seat 0 raised RuntimeError in "
                                       r"start_hand: no \(hand 0"):
        simulate(4, bots=["badstart:BadStart", "random", "random", "random"])
