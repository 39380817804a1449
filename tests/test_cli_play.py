"""``xueliu play`` as a person meets it (issue 47): a move with no other choice is made for them and
said, the exchange takes tiles by name with a clear re-prompt, the void takes a suit, and the 查听
help the browser table shows is printed for the person's hand at each decision of play."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import List

from xueliu import Rules, new_game
from xueliu.analysis import analyze
from xueliu.bots import GreedyBot
from xueliu.cli import tile_text
from xueliu.cli.play import help_lines


def play(*args: str, answers: List[str]) -> str:
    p = subprocess.run([sys.executable, "-m", "xueliu", "play", *args],
                       input="".join(a + "\n" for a in answers), capture_output=True, text=True,
                       encoding="utf-8", timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


ZEROS = ["0"] * 400


def test_a_forced_move_is_made_for_the_person_and_said():
    out = play("--seed", "5", answers=ZEROS)
    assert "choose 0-0" not in out
    # seed 5: after the void (万) the person holds one 万 at a time and must discard it
    assert "only one choice, made for you: 打 discard 8万\nyou discard 8万" in out
    assert "详细结算 Detailed settlement" in out


def test_the_exchange_takes_tiles_by_name_and_says_what_is_wrong():
    out = play("--seed", "5", answers=["1m", "1m 2m 3m", "4m 6m 2p", "5p 5p 5p", "(555p)", "x",
                                       "5p5p7p", "p", *ZEROS])
    lines = out.splitlines()
    start = lines.index("your hand: 469万 23557筒 234477条")
    prompt = "give 3 tiles of one suit by name (e.g. 4m 6m 9m), or 0: "
    assert lines[start + 1:start + 15] == [
        "   0  换三张 give 4万 6万 9万   (a GreedyBot's pick)",  # one choice listed, not 18
        prompt + "1m",
        "give 3 tiles, not 1: '1m'",
        prompt + "1m 2m 3m",
        "you hold no 1万: '1m 2m 3m'",
        prompt + "4m 6m 2p",
        "the 3 tiles you give must be of one suit: '4m 6m 2p'",
        prompt + "5p 5p 5p",
        "you hold only two 5筒: '5p 5p 5p'",
        prompt + "(555p)",
        "not a choice: '(555p)' (name the tiles alone, e.g. 1m 2m 5m)",
        prompt + "x",
        "not a choice: 'x'",
        prompt + "5p5p7p",
    ]
    assert "you gave 5筒 5筒 7筒, received 1万 2万 8万" in out
    assert "choose 0-2: p\n定缺 voids: you 筒," in out  # the void by its suit


def test_zero_at_the_exchange_gives_what_a_greedybot_would():
    rules = Rules.preset("xuezhan")
    state = new_game(rules, seed=11, dealer=0)
    pick = GreedyBot(rules=rules).act(state.observation(0), state.legal_actions(0))
    out = play("--seed", "11", "--preset", "xuezhan", answers=ZEROS)
    assert f"you gave {' '.join(tile_text(t) for t in pick.tiles)}," in out


def test_the_help_is_shown_before_every_decision_of_play():
    out = play("--seed", "5", answers=["5p5p7p", "p", *ZEROS])
    blocks = out.split("\nwall ")[1:]  # one block per decision shown
    in_play = [b for b in blocks if re.match(r"\d+ left · phase (turn|claim)", b)]
    assert in_play and all("\n查听 help: " in b for b in in_play)
    assert all("查听 help" not in b for b in blocks if re.match(r"\d+ left · phase (exchange|void)",
                                                                b))
    assert "查听 help: best discards" in out
    assert "查听 help: 听牌 ready" in out and "  6万  left 0 · 平胡 pinghu — 1 番 fan" in out
    assert "查听 help: 胡 complete: 平胡 pinghu — 1 番 fan" in out
    assert re.search(r"查听 help: 向听 shanten \d · 进张 useful draws \d+: ", out) or \
        "shanten 1, 进张 useful draws" in out


def test_the_help_is_the_analysis_of_the_hand_from_what_the_seat_sees():
    rules = Rules.preset("xueliu")
    state = new_game(rules, seed=5, dealer=0)
    while state.phase != "turn":  # every seat takes its first choice until play starts
        state.step({s: state.legal_actions(s)[0] for s in state.pending()})
    obs = state.observation(0)
    seen = [t for river in obs["discards"] for t in river]
    result = analyze(state.hand(0), void=obs["void"], visible=seen, rules=rules)
    lines = help_lines(state, 0, rules)
    assert lines[0] == "查听 help: best discards"
    assert len(lines) == 1 + min(5, len(result["discards"]))
    assert [line.split()[0] for line in lines[1:]] == \
        [tile_text(o.discard) for o in result["discards"][:5]]
    # a 2-seat table's 7-tile hand is analysed at its own size
    two = Rules.preset("erren_yifang")
    assert help_lines(new_game(two, seed=3, dealer=0), 1, two)[0].startswith("查听 help: ")
