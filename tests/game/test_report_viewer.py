"""Settlement.report(viewer): the report a seat may read (docs/rules.md §7) — no other seat's winning hand
or waits, everything public (fans, end-check outcomes, every transfer) still there."""

import xueliu
from xueliu.bots import GreedyBot, play_hand


def _finished(seed: int) -> "xueliu.Settlement":
    return play_hand(xueliu.new_game("xueliu", seed=seed), [GreedyBot() for _ in range(4)]).settlement()


def _seat_block(detailed: str, seat: int) -> str:
    """The lines of one seat in the detailed settlement."""
    return detailed.split(f"\nSeat {seat}")[1].split("\n\n")[0]


def test_a_seats_report_hides_other_winners_hands_and_waits_only():
    checked = 0
    for seed in range(40):
        st = _finished(seed)
        full = st.report()
        for viewer in range(4):
            mine = st.report(viewer)
            for w in st.wins:
                shown = f"[{w.hand}]" in mine
                assert shown == (w.seat == viewer), (seed, viewer, w.seat)
            detailed = mine.split("个人结算")[0]
            for s, check in enumerate(st.end_checks or []):
                block = _seat_block(detailed, s)
                if check["ready"] and not check["won"]:
                    assert ("ready on " in block) == (s == viewer), (seed, viewer, s)
            # Every transfer line (个人结算) is public and identical.
            assert mine.split("个人结算")[1] == full.split("个人结算")[1]
            checked += 1
    assert checked == 160


def test_the_full_report_is_unchanged_without_a_viewer():
    st = _finished(3)
    assert st.report() == st.report(None)
    assert all(f"[{w.hand}]" in st.report() for w in st.wins)
