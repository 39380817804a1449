// Engine hooks: the hottest paths of python/xueliu/game/, done on the engine's own Python objects.
//
// _core.turn_step is state.py's step for a discard on a turn; _core.turn_discard is turn.py's
// discard, then (_core.turn_draw) draw.py's draw and open_turn for a plain draw, for the common
// case only: whatever else happens it hands back to Python at a named point (the claim
// window, an empty wall, a frozen or auto-played seat, a forced win), where the Python code of
// those rules takes over. _core.exchange_options lists a seat's 换三张 choices (before_play.py).
// The corpus replay (tests/game/test_corpus_replay.py) and the engine's invariants over
// thousands of random hands hold both to the rules.
//
// Fields are read and written at their __slots__ offsets (slots.hpp); the hands are the engine's
// bytearrays, changed in place. The table shape is the hand's own data (docs/rules.md §11.1): the seats
// are the length of _hands (2, 3 or 4; the next seat is (s + 1) % n) and the waits take the
// shape code in _sp, so every shape runs here as the four-seat table does.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>
#include <vector>

#include "convert.hpp"
#include "hand.hpp"
#include "register.hpp"
#include "slots.hpp"
#include "tiles.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

// What Python does next, the low two bits of the result (the seat in the bits above):
enum Next : long {
  kDone = 0,       // the next seat drew and must decide (its turn is open)
  kClaims = 1,     // open the claim window on the discard: open_claims(g, s, k, False)
  kEmptyWall = 2,  // the wall is empty: end_by_wall(g) ends the hand
  kOpenTurn = 3,   // the seat in the result drew g._drawn: open_turn(g, seat, g._drawn, TK_DRAW)
};

constexpr long kPhaseTurn = 3;  // data.py PH_TURN
constexpr long kTurnDraw = 0;   // data.py TK_DRAW

// The engine's shared objects, registered once by draw.py (register_engine).
struct Shared {
  py::tuple discard, concealed_kong, added_kong;  // the interned actions, by kind
  py::object hu;
  py::tuple only;  // (0,), (1,), (2,), (3,): a turn's pending seats
  py::str dahai, tsumo;
  py::object exchange_of;  // index into actions.TRIPLES -> its interned exchange action
  std::vector<py::object> exchange;  // filled as asked for
  py::object hand_data;  // the engine's HandData class
  bool ready = false;
};
Shared& shared() {
  static Shared* s = new Shared();  // never freed: it outlives the interpreter's teardown
  return *s;
}

void set_int(PyObject* g, Slot& s, long value) {
  py::object v = py::reinterpret_steal<py::object>(PyLong_FromLong(value));
  set(g, s, v.ptr());
}

long as_long(PyObject* o) {
  const long v = PyLong_AsLong(o);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}
// Item i (borrowed) of a list or tuple the engine owns (checked).
PyObject* item(const py::object& seq, long i) {
  PyObject* o = seq.ptr();
  if ((!PyList_Check(o) && !PyTuple_Check(o)) || i < 0 || i >= PySequence_Fast_GET_SIZE(o))
    throw py::type_error("turn_discard: an engine field is not the list it should be");
  return PySequence_Fast_GET_ITEM(o, i);
}
long int_item(const py::object& list, long i) { return as_long(item(list, i)); }
bool flag_item(const py::object& list, long i) {
  const int t = PyObject_IsTrue(item(list, i));
  if (t < 0) throw py::error_already_set();
  return t != 0;
}
void set_item(const py::object& list, long i, long value) {
  if (!PyList_Check(list.ptr()) || i < 0 || i >= PyList_GET_SIZE(list.ptr()))
    throw py::type_error("turn_discard: an engine field is not the list it should be");
  PyObject* v = PyLong_FromLong(value);
  if (!v) throw py::error_already_set();
  PyList_SetItem(list.ptr(), i, v);  // steals v
}
void append(const py::object& list, PyObject* value) {
  if (PyList_Append(list.ptr(), value) != 0) throw py::error_already_set();
}
uint8_t* counts_of(PyObject* hand) {
  if (!PyByteArray_CheckExact(hand) || PyByteArray_GET_SIZE(hand) != kKinds)
    throw py::type_error("turn_discard: a hand is not 27 counts in a bytearray");
  return reinterpret_cast<uint8_t*>(PyByteArray_AS_STRING(hand));
}

// The waits of a seat's hand (counts + its (type, kind) melds), as HandData._update_waits;
// `shape` is the hand's shape code (HandData._sp).
uint32_t waits_of(const uint8_t* counts, PyObject* melds, int void_suit, int shape) {
  Hand hand;
  std::copy(counts, counts + kKinds, hand.counts.begin());
  read_melds(melds, hand);
  return waits(hand, void_suit, hand_shape(shape));  // checked: a wrong tile count raises
}

// The seats of the hand: the length of its _hands list (2..4).
long seats_of(const py::object& hands, const char* who) {
  if (!PyList_Check(hands.ptr()) || PyList_GET_SIZE(hands.ptr()) < 2 ||
      PyList_GET_SIZE(hands.ptr()) > 4)
    throw py::type_error(std::string(who) + ": _hands is not a list of 2 to 4 hands");
  return static_cast<long>(PyList_GET_SIZE(hands.ptr()));
}

// The engine's fields, by name.
Slot kHands{"_hands"}, kVoidCount{"_void_count"}, kVoid{"_void"}, kRivers{"_rivers"},
    kSeen{"_seen"}, kDrawn{"_drawn"}, kEv{"_ev"}, kAutoFlag{"_auto_flag"}, kWaits{"_waits"},
    kCoreMelds{"_core_melds"}, kSp{"_sp"}, kInPlay{"_in_play"}, kFront{"_front"}, kBack{"_back"},
    kWall{"_wall"}, kPassRule{"_pass_rule"}, kPassBlock{"_pass_block"},
    kEarthlyDraw{"_earthly_draw"}, kEarthly{"_earthly"}, kFirstDraw{"_first_draw"},
    kAnyMeld{"_any_meld"}, kPhase{"_phase"}, kTurn{"_turn"}, kTurnKind{"_turn_kind"},
    kRinshan{"_rinshan"}, kLastKong{"_last_kong"}, kHaitei{"_haitei"}, kFrozen{"_frozen"},
    kAuto{"_auto"}, kForcedN{"_forced_n"}, kLegal{"_legal"}, kPending{"_pending"},
    kDecisions{"_decisions"};
// The hooks take instances of the registered HandData class (or a subclass: same offsets).
PyObject* hand_data(py::handle state) {
  PyObject* g = state.ptr();
  if (!PyObject_TypeCheck(g, reinterpret_cast<PyTypeObject*>(shared().hand_data.ptr())))
    throw py::type_error("the engine hooks take a HandData");
  return g;
}

bool truth(const py::object& o) {
  const int t = PyObject_IsTrue(o.ptr());
  if (t < 0) throw py::error_already_set();
  return t != 0;
}

long plain_draw(PyObject* g, long t, uint8_t* ht, const py::object& voids,
                const py::object& void_count, const py::object& waits, const py::object& ev);

long discard_and_draw(PyObject* g, long s, long k);

long turn_discard(py::handle state, long s, long k) {
  if (!shared().ready) throw py::value_error("turn_discard: register_engine was not called");
  if (s < 0 || s > 3 || k < 0 || k >= kKinds) throw py::value_error("turn_discard: bad seat or kind");
  return discard_and_draw(hand_data(state), s, k);
}

// state.py step for its most frequent call, {seat: a discard} on the seat's turn: the seat is
// pending, the action one of its legal actions (interned: identity is equality), the decision is
// logged, then the discard. Anything else (another phase, a kong, 自摸, a seat or action that is
// not what it should be) returns -1 and changes nothing: step's own path checks it and raises.
long turn_step(py::handle state, py::handle seat, py::handle action) {
  Shared& sh = shared();
  if (!sh.ready) throw py::value_error("turn_step: register_engine was not called");
  PyObject* g = hand_data(state);
  if (!PyLong_CheckExact(seat.ptr())) return -1;
  const long s = PyLong_AsLong(seat.ptr());
  if (s < 0 || s > 3) {
    PyErr_Clear();
    return -1;
  }
  if (as_long(get(g, kPhase).ptr()) != kPhaseTurn) return -1;
  long k = -1;
  for (long j = 0; j < kKinds && k < 0; ++j)
    if (action.ptr() == sh.discard[static_cast<size_t>(j)].ptr()) k = j;
  if (k < 0) return -1;
  py::object pending = get(g, kPending);
  if (!PyTuple_Check(pending.ptr()) && !PyList_Check(pending.ptr())) return -1;
  bool is_pending = false;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(pending.ptr()); ++i) {
    PyObject* q = PySequence_Fast_GET_ITEM(pending.ptr(), i);
    if (PyLong_CheckExact(q) && PyLong_AsLong(q) == s) is_pending = true;
  }
  if (!is_pending) return -1;
  py::object legal_by_seat = get(g, kLegal);
  if (!PyDict_CheckExact(legal_by_seat.ptr())) return -1;
  PyObject* legal = PyDict_GetItem(legal_by_seat.ptr(), seat.ptr());  // borrowed
  if (!legal || !PyList_Check(legal)) return -1;
  bool is_legal = false;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(legal) && !is_legal; ++i)
    is_legal = PyList_GET_ITEM(legal, i) == action.ptr();
  if (!is_legal) return -1;
  append(get(g, kDecisions), py::make_tuple(s, k).ptr());
  return discard_and_draw(g, s, k) | k << 4;  // the kind for step's own next move
}

// turn.py discard, then (when nobody may claim the tile) the next seat's plain draw.
long discard_and_draw(PyObject* g, long s, long k) {
  Shared& sh = shared();

  // --- turn.py discard: seat s discards kind k.
  py::object hands = get(g, kHands);
  const long n = seats_of(hands, "turn_discard");
  if (s >= n) throw py::value_error("turn_discard: bad seat");
  uint8_t* counts[4];
  for (long q = 0; q < n; ++q) counts[q] = counts_of(PyList_GET_ITEM(hands.ptr(), q));
  uint8_t* h = counts[s];
  if (h[k] == 0) throw py::value_error("turn_discard: the seat does not hold the tile");
  py::object void_count = get(g, kVoidCount), voids = get(g, kVoid);
  const long void_s = int_item(voids, s);
  h[k] -= 1;
  long vc_s = int_item(void_count, s);
  if (vc_s && k / kRanks == void_s) set_item(void_count, s, --vc_s);
  py::object rivers = get(g, kRivers);
  py::object kind = py::reinterpret_steal<py::object>(PyLong_FromLong(k));
  append(py::reinterpret_borrow<py::object>(item(rivers, s)), kind.ptr());
  py::object seen = get(g, kSeen);
  set_item(seen, k, int_item(seen, k) + 1);
  const long drawn = as_long(get(g, kDrawn).ptr());
  py::object ev = get(g, kEv);
  append(ev, py::make_tuple(sh.dahai, s, kind, py::bool_(k == drawn), get(g, kAutoFlag)).ptr());
  // A seat's waits describe its hand without the tile just drawn: discarding that tile keeps them.
  py::object waits = get(g, kWaits);
  if (k != drawn) {
    const uint32_t w = vc_s ? 0 : waits_of(h, item(get(g, kCoreMelds), s),
                                           static_cast<int>(void_s),
                                           static_cast<int>(as_long(get(g, kSp).ptr())));
    set_item(waits, s, w);
  }
  // Most discards interest nobody: no other seat waits on it or holds two (turn.py's test).
  long w_any = 0;
  uint8_t held = 0;
  for (long i = 1; i < n; ++i) {
    const long q = (s + i) % n;
    w_any |= int_item(waits, q);
    held |= counts[q][k];
  }
  if (((w_any >> k) & 1) || held > 1) return kClaims;
  py::object in_play = get(g, kInPlay);
  long t = -1;
  for (long i = 1; i <= n && t < 0; ++i)
    if (flag_item(in_play, (s + i) % n)) t = (s + i) % n;
  if (t < 0) throw py::value_error("turn_discard: no seat in play");
  return plain_draw(g, t, counts[t], voids, void_count, waits, ev);
}

// draw.py draw (not a kong replacement) and open_turn: seat t draws from the front of the live
// wall and its turn opens. Its hand is `ht`; the other arguments are the engine's own lists.
long plain_draw(PyObject* g, long t, uint8_t* ht, const py::object& voids,
                const py::object& void_count, const py::object& waits, const py::object& ev) {
  Shared& sh = shared();
  const long front = as_long(get(g, kFront).ptr()), back = as_long(get(g, kBack).ptr());
  if (back < front) return kEmptyWall | t << 2;
  const long d = int_item(get(g, kWall), front);
  if (d < 0 || d >= kKinds) throw py::value_error("turn_discard: a wall tile out of range");
  set_int(g, kFront, front + 1);
  ht[d] += 1;
  const long void_t = int_item(voids, t);
  if (d / kRanks == void_t) set_item(void_count, t, int_item(void_count, t) + 1);
  if (truth(get(g, kPassRule))) {
    py::object blocks = get(g, kPassBlock);
    if (!PyList_Check(blocks.ptr())) throw py::type_error("turn_discard: _pass_block");
    Py_INCREF(Py_None);
    PyList_SetItem(blocks.ptr(), t, Py_None);  // 过水 lasts until the seat's own next draw
  }
  if (truth(get(g, kEarthlyDraw))) {  // 地胡 on a first draw (earthly_win not "first_discard")
    py::object first = get(g, kFirstDraw);
    if (!PyList_Check(first.ptr())) throw py::type_error("turn_discard: _first_draw");
    const bool earthly = flag_item(first, t) && !truth(get(g, kAnyMeld));
    set(g, kEarthly, earthly ? Py_True : Py_False);
    Py_INCREF(Py_False);
    PyList_SetItem(first.ptr(), t, Py_False);
  }
  set_int(g, kPhase, kPhaseTurn);
  set_int(g, kTurn, t);
  set_int(g, kDrawn, d);
  set_int(g, kTurnKind, kTurnDraw);
  set(g, kRinshan, Py_False);
  set(g, kLastKong, Py_None);
  const bool empty = back < front + 1;  // this draw emptied the live wall (海底)
  set(g, kHaitei, empty ? Py_True : Py_False);
  py::object drawn_kind = py::reinterpret_steal<py::object>(PyLong_FromLong(d));
  append(ev, py::make_tuple(sh.tsumo, t, drawn_kind, py::bool_(false)).ptr());

  // --- draw.py open_turn (a draw, not frozen, not auto-played): seat t's legal actions.
  if (flag_item(get(g, kFrozen), t) || flag_item(get(g, kAuto), t)) return kOpenTurn | t << 2;
  const bool hu = (int_item(waits, t) >> d) & 1;
  if (hu && as_long(get(g, kForcedN).ptr()) != 0) return kOpenTurn | t << 2;  // _forced_win
  py::list legal;
  const long vc_t = int_item(void_count, t);
  if (vc_t) {  // it must discard a tile of its void suit, and may do nothing else
    for (long j = kRanks * void_t; j < kRanks * (void_t + 1); ++j)
      if (ht[j]) legal.append(sh.discard[static_cast<size_t>(j)]);
  } else {
    for (int j = 0; j < kKinds; ++j)
      if (ht[j]) legal.append(sh.discard[static_cast<size_t>(j)]);
    if (!empty) {  // no kong when the wall is empty
      for (int j = 0; j < kKinds; ++j)
        if (ht[j] == 4) legal.append(sh.concealed_kong[static_cast<size_t>(j)]);
      // Added kongs onto its pengs whose fourth tile it holds, by kind.
      PyObject* melds = item(get(g, kCoreMelds), t);
      if (!PyList_Check(melds)) throw py::type_error("turn_discard: melds are not a list");
      uint32_t added = 0;
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(melds); ++i) {
        PyObject* m = PyList_GET_ITEM(melds, i);
        if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 2)
          throw py::type_error("turn_discard: a meld is not a (type, kind) pair");
        const long type = as_long(PyTuple_GET_ITEM(m, 0)), j = as_long(PyTuple_GET_ITEM(m, 1));
        if (type == 0 && j >= 0 && j < kKinds && ht[j]) added |= 1u << j;
      }
      for (int j = 0; j < kKinds; ++j)
        if (added >> j & 1) legal.append(sh.added_kong[static_cast<size_t>(j)]);
    }
    if (hu) legal.append(sh.hu);
  }
  py::dict by_seat;
  by_seat[py::int_(t)] = legal;
  set(g, kLegal, by_seat.ptr());
  set(g, kPending, sh.only[static_cast<size_t>(t)].ptr());
  return kDone | t << 2;
}

// draw.py draw for a plain draw (not a kong replacement): seat s draws, its turn opens.
long turn_draw(py::handle state, long s) {
  if (!shared().ready) throw py::value_error("turn_draw: register_engine was not called");
  if (s < 0 || s > 3) throw py::value_error("turn_draw: bad seat");
  PyObject* g = hand_data(state);
  py::object hands = get(g, kHands);
  if (s >= seats_of(hands, "turn_draw")) throw py::value_error("turn_draw: bad seat");
  return plain_draw(g, s, counts_of(PyList_GET_ITEM(hands.ptr(), s)), get(g, kVoid),
                    get(g, kVoidCount), get(g, kWaits), get(g, kEv));
}

// The index of the sorted triple (a, b, c) in combinations_with_replacement(range(27), 3).
int triple_index(int a, int b, int c) {
  static const std::vector<int> table = [] {
    std::vector<int> t(kKinds * kKinds * kKinds, -1);
    int i = 0;
    for (int x = 0; x < kKinds; ++x)
      for (int y = x; y < kKinds; ++y)
        for (int z = y; z < kKinds; ++z) t[(x * kKinds + y) * kKinds + z] = i++;
    return t;
  }();
  return table[(a * kKinds + b) * kKinds + c];
}

// before_play.py's exchange options: every distinct sorted triple of kinds the hand can give
// (within one suit with `same_suit`), in lexicographic order, as interned exchange actions.
py::list exchange_options(py::handle hand, bool same_suit) {
  Shared& sh = shared();
  if (!sh.ready) throw py::value_error("exchange_options: register_engine was not called");
  const uint8_t* h = counts_of(hand.ptr());
  py::list out;
  auto add = [&](int a, int b, int c) {
    const size_t i = static_cast<size_t>(triple_index(a, b, c));
    if (sh.exchange.size() <= i) sh.exchange.resize(i + 1);
    if (!sh.exchange[i]) sh.exchange[i] = sh.exchange_of(i);
    out.append(sh.exchange[i]);
  };
  for (int u = 0; u < (same_suit ? kSuits : 1); ++u) {
    const int lo = same_suit ? kRanks * u : 0, hi = same_suit ? lo + kRanks : kKinds;
    for (int a = lo; a < hi; ++a) {
      if (!h[a]) continue;
      for (int b = a; b < hi; ++b) {
        if (!h[b] || (b == a && h[a] < 2)) continue;
        for (int c = b; c < hi; ++c) {
          if (!h[c]) continue;
          if (a == b ? h[a] < (b == c ? 3 : 2) : (b == c && h[b] < 2)) continue;
          add(a, b, c);
        }
      }
    }
  }
  return out;
}

void register_engine_objects(py::object hand_data, py::tuple discard, py::tuple concealed_kong,
                             py::tuple added_kong, py::object hu, py::tuple only,
                             py::object exchange_of) {
  if (!PyType_Check(hand_data.ptr())) throw py::type_error("register_engine: HandData class");
  if (discard.size() != kKinds || concealed_kong.size() != kKinds ||
      added_kong.size() != kKinds || only.size() != 4)
    throw py::value_error("register_engine: 27 actions of each kind and four pending tuples");
  Shared& sh = shared();
  sh.discard = discard;
  sh.concealed_kong = concealed_kong;
  sh.added_kong = added_kong;
  sh.hu = hu;
  sh.only = only;
  sh.dahai = py::str("dahai");
  sh.tsumo = py::str("tsumo");
  sh.exchange_of = exchange_of;
  sh.exchange.clear();
  sh.hand_data = hand_data;
  resolve(reinterpret_cast<PyTypeObject*>(hand_data.ptr()),
          {&kHands, &kVoidCount, &kVoid, &kRivers, &kSeen, &kDrawn, &kEv, &kAutoFlag, &kWaits,
           &kCoreMelds, &kSp, &kInPlay, &kFront, &kBack, &kWall, &kPassRule, &kPassBlock,
           &kEarthlyDraw, &kEarthly, &kFirstDraw, &kAnyMeld, &kPhase, &kTurn, &kTurnKind,
           &kRinshan, &kLastKong, &kHaitei, &kFrozen, &kAuto, &kForcedN, &kLegal, &kPending,
           &kDecisions});
  sh.ready = true;
}

}  // namespace

void register_engine(py::module_& m) {
  m.def("register_engine", &register_engine_objects, py::arg("hand_data"), py::arg("discard"),
        py::arg("concealed_kong"), py::arg("added_kong"), py::arg("hu"), py::arg("only"),
        py::arg("exchange_of"),
        "Engine hook (python/xueliu/game/draw.py, once): the interned actions and pending tuples "
        "the hooks put into a hand's state; exchange_of(i) is the exchange action of TRIPLES[i].");
  m.def("turn_step", &turn_step, py::arg("state"), py::arg("seat"), py::arg("action"),
        "Engine hook: state.step({seat: action}) when action is a legal discard of the seat on "
        "turn: checked, logged, played as turn_discard (its result + 16 * the kind); -1 (nothing "
        "done) for any other call.");
  m.def("turn_draw", &turn_draw, py::arg("state"), py::arg("seat"),
        "Engine hook: seat draws from the front of the live wall (not a kong replacement) and "
        "its turn opens; returns as turn_discard (0 done, 2 the wall is empty, 3 open the turn "
        "in Python).");
  m.def("exchange_options", &exchange_options, py::arg("hand"), py::arg("same_suit"),
        "Engine hook: the exchange actions a hand (27 counts, a bytearray) may give, in "
        "lexicographic order of the kind triples; within one suit with same_suit.");
  m.def("turn_discard", &turn_discard, py::arg("state"), py::arg("seat"), py::arg("kind"),
        "Engine hook: seat discards kind in the hand `state` (a legal discard on its turn); when "
        "nobody may claim it, the next seat in play draws and its turn opens. Returns "
        "next + 4 * seat: next 0 done, 1 open the claim window, 2 that seat draws (in Python), "
        "3 that seat drew: open its turn (in Python).");
}

}  // namespace xueliu::bindings
