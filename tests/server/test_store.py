"""The promises of ``store.py`` and ``db.py`` checked on the real databases (SQLite and the
throwaway PostgreSQL), one operation at a time: every write for a table is fenced by its owner,
a settlement pays exactly once and all or nothing, ownership moves only from a dead process, and
one failing operation in a group commit is rolled back alone. End to end these corners are rare
or never reached (a second settlement, a payout that would go below zero, a write by a process
that lost its table), so here each is reached on purpose."""

from __future__ import annotations

from typing import List

import pytest

from xueliu.server import store
from xueliu.server.db import Conflict, Database

from .client import Db

A, B = "process-a", "process-b"  # process ids


@pytest.fixture
def db(db_url):
    d = Db(db_url)
    yield d
    d.close()


def _two_processes(db: Db) -> None:
    db.run(store.register_process(A, "http://a"))
    db.run(store.register_process(B, "http://b"))


def _table_with_hand(db: Db, owner: str = A):
    """A table owned by ``owner``: ann (coins 1000) and three bots seated, one hand dealt."""
    ann = db.run(store.create_player("ann", "hash-ann", 1000))
    table = db.run(store.create_table(owner, {"preset": "xueliu"}, ann, 3, 1000))
    players = [r[0] for r in db.sql("SELECT player_id FROM seats WHERE table_id = ? ORDER BY seat",
                                    (table,))]
    hand = db.run(store.deal(table, owner, 0, players, {"seed": 1}, seq=1))
    return table, players, hand


def _payout(hand: int, players: List[int], deltas: List[int], house: int = 0) -> store.Payout:
    return store.Payout(hand_id=hand, players=players, deltas=deltas, house=house,
                        record={"decisions": []}, settlement={"net": deltas, "transfers": []},
                        next_dealer=1)


def _coins(db: Db, players: List[int]) -> List[int]:
    return db.run(store.coins_of(players))


# -- the fence: every write for a table checks owner = this process ----------------------------

def test_every_write_for_a_table_is_refused_to_a_process_that_does_not_own_it(db):
    _two_processes(db)
    table, players, hand = _table_with_hand(db, owner=A)
    bob = db.run(store.create_player("bob", "hash-bob", 1000))
    before = db.sql("SELECT * FROM tables"), db.sql("SELECT * FROM seats"), \
        db.sql("SELECT * FROM hands"), db.sql("SELECT * FROM decisions"), \
        db.sql("SELECT id, coins FROM players")
    writes = {
        "join": store.join(table, B, 3, bob),
        "set_leaving": store.set_leaving(table, B, players[0]),
        "unseat": store.unseat(table, B, [players[0]], close=True),
        "deal": store.deal(table, B, 1, players, {"seed": 2}, seq=9),
        "add_decision": store.add_decision(table, B, hand, 0, 0, "5", seq=9),
        "settle": store.settle(table, B, _payout(hand, players, [3, -1, -1, -1])),
    }
    for name, op in writes.items():
        with pytest.raises(store.Fenced):
            db.run(op)
    after = db.sql("SELECT * FROM tables"), db.sql("SELECT * FROM seats"), \
        db.sql("SELECT * FROM hands"), db.sql("SELECT * FROM decisions"), \
        db.sql("SELECT id, coins FROM players")
    assert after == before  # nothing of any refused write holds
    db.run(store.add_decision(table, A, hand, 0, 0, "5", seq=9))  # the owner may
    assert db.sql("SELECT seat, action FROM decisions") == [(0, "5")]


def test_a_table_moves_only_from_a_process_whose_heartbeat_is_older_than_the_lease(db):
    _two_processes(db)
    table, _, _ = _table_with_hand(db, owner=A)
    assert db.run(store.claim(table, B, lease=60.0)) == "http://a"  # A is alive: its address
    assert db.run(store.claim(table, A, lease=60.0)) is None  # the owner's own claim
    assert db.run(store.orphan_tables(60.0)) == []
    db.execute("UPDATE processes SET heartbeat = heartbeat - 120 WHERE id = ?", (A,))
    assert db.run(store.orphan_tables(60.0)) == [table]
    assert db.run(store.claim(table, B, lease=60.0)) is None  # taken over
    assert db.sql("SELECT owner FROM tables WHERE id = ?", (table,)) == [(B,)]
    assert db.run(store.claim(table + 100, B, lease=60.0)) == ""  # no such table


def test_a_clean_shutdown_hands_its_tables_back_at_once(db):
    _two_processes(db)
    table, _, _ = _table_with_hand(db, owner=A)
    db.run(store.release(A))
    assert db.sql("SELECT owner FROM tables WHERE id = ?", (table,)) == [(None,)]
    assert db.run(store.claim(table, B, lease=60.0)) is None  # no lease to wait for


def test_a_heartbeat_forgets_processes_dead_a_day_that_own_nothing(db):
    _two_processes(db)
    table, _, _ = _table_with_hand(db, owner=A)
    db.run(store.register_process("gone", "http://gone"))
    db.execute("UPDATE processes SET heartbeat = heartbeat - 90000 WHERE id IN (?, ?)", ("gone", A))
    db.run(store.heartbeat(B))
    # "gone" owned nothing: forgotten; A is as old but still owns the table: kept.
    assert sorted(r[0] for r in db.sql("SELECT id FROM processes")) == [A, B]


# -- settlement: exactly once, all or nothing --------------------------------------------------

def test_a_hand_is_settled_exactly_once(db):
    _two_processes(db)
    table, players, hand = _table_with_hand(db)
    payout = _payout(hand, players, [6, -3, -2, -2], house=1)
    assert db.run(store.settle(table, A, payout)) is True
    assert db.run(store.settle(table, A, payout)) is False  # a second attempt pays nothing
    assert _coins(db, players) == [1006, 997, 998, 998]
    held, fees, issued = db.run(store.totals())
    assert (fees, held + fees) == (1, issued)


def test_a_settlement_that_does_not_conserve_coins_is_refused_before_the_database(db):
    _two_processes(db)
    table, players, hand = _table_with_hand(db)
    with pytest.raises(ValueError, match="conserve"):
        store.settle(table, A, _payout(hand, players, [5, -1, -1, -1]))


def test_a_payout_that_would_take_coins_below_zero_changes_nothing(db):
    """Coins never go below zero (a CHECK): the engine cuts payments to what a payer has; a
    payout that would break it anyway fails whole — the hand stays unsettled, nobody is paid."""
    _two_processes(db)
    table, players, hand = _table_with_hand(db)
    with pytest.raises(Conflict):
        db.run(store.settle(table, A, _payout(hand, players, [1001, -1001, 0, 0])))
    assert _coins(db, players) == [1000] * 4
    assert db.sql("SELECT status FROM hands WHERE id = ?", (hand,)) == [("playing",)]
    held, fees, issued = db.run(store.totals())
    assert held + fees == issued


def test_a_second_playing_hand_at_a_table_is_refused(db):
    _two_processes(db)
    table, players, _ = _table_with_hand(db)
    with pytest.raises(Conflict):
        db.run(store.deal(table, A, 1, players, {"seed": 2}, seq=5))
    assert db.sql("SELECT COUNT(*) FROM hands") == [(1,)]


def test_a_player_sits_at_one_table_at_a_time(db):
    _two_processes(db)
    ann = db.run(store.create_player("ann", "hash-ann", 1000))
    db.run(store.create_table(A, {}, ann, 0, 1000))
    with pytest.raises(Conflict):
        db.run(store.create_table(A, {}, ann, 0, 1000))
    assert db.sql("SELECT COUNT(*) FROM tables") == [(1,)]  # the refused table is not there


# -- the database thread: group commit --------------------------------------------------------

def test_an_operation_that_fails_in_a_group_commit_is_rolled_back_alone(db):
    def fails(conn):
        conn.execute("INSERT INTO players (name, token_hash, coins, bot, created)"
                     " VALUES ('half', NULL, 5, 0, 0)")
        raise RuntimeError("this operation fails after writing")

    results = db.together(store.create_player("p1", "h1", 10), fails,
                          store.create_player("p2", "h2", 10))
    assert isinstance(results[1], RuntimeError)
    assert isinstance(results[0], int) and isinstance(results[2], int)
    assert sorted(r[0] for r in db.sql("SELECT name FROM players")) == ["p1", "p2"]
    assert db.run(store.totals()) == (20, 0, 20)


def test_a_database_of_another_schema_version_is_refused(db_url):
    d = Db(db_url)
    d.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
    d.close()
    with pytest.raises(ValueError, match="schema version 0"):
        Database(db_url).start(store.setup)


def test_sqlite_runs_in_wal_mode_with_full_synchronous_commits(tmp_path):
    """docs/server.md: SQLite in WAL mode with ``synchronous=FULL`` (a commit survives a power
    cut, not only a killed process)."""
    d = Db(f"sqlite:///{tmp_path}/wal.db")
    try:
        assert d.sql("PRAGMA journal_mode") == [("wal",)]
        assert d.sql("PRAGMA synchronous") == [(2,)]  # FULL
    finally:
        d.close()
