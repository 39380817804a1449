// _core.encode_obs_v1: the obs_v1 tensors of many seats' views at once (python/xueliu/_core.pyi).
//
// Each view is read straight from the hand in progress (the engine's HandData, its fields at their
// __slots__ offsets: slots.hpp), exactly what xueliu.game.view.public_pieces hands out — what docs/rules.md
// §7 lets the seat see, and the four hand sizes — into the core's plain ObsView (cpp/encode.hpp)
// under the GIL; the channels are then written with the GIL released. Every value read is type-
// and range-checked: a bad one is a TypeError / ValueError naming the state and the field, and
// nothing is written to `out` before every view has been read. tests/learn/test_view_encoding.py
// holds the result to the observation-dict path bit for bit, and to the seat's blindness. It reads
// tables without wild tiles: a hand of 28 counts (a table with wilds, whose 红中 no row of 27
// kinds holds) is refused before anything is written, never misread.
#include <pybind11/numpy.h>

#include <cstring>
#include <string>
#include <vector>

#include "encode.hpp"
#include "register.hpp"
#include "slots.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

// Reads one view; errors name it as states[i].<field>.
class Reader {
 public:
  // Errors name list[index].piece (piece "" : list[index]).
  Reader(const char* list, py::ssize_t index, const char* piece)
      : list_(list), index_(index), piece_(piece) {}

  [[noreturn]] void fail(bool type, const std::string& what) const {
    const std::string msg = std::string(list_) + "[" + std::to_string(index_) + "]" +
                            (*piece_ ? "." : "") + piece_ + ": " + what;
    if (type) throw py::type_error(msg);
    throw py::value_error(msg);
  }

  // An int (or any integer with __index__, numpy's included) in lo..hi.
  long integer(PyObject* o, long lo, long hi) const {
    long v;
    if (PyLong_Check(o)) {
      v = PyLong_AsLong(o);
    } else {
      PyObject* index = PyNumber_Index(o);
      if (!index) {
        PyErr_Clear();
        fail(true, std::string("expected an int, got ") + Py_TYPE(o)->tp_name);
      }
      v = PyLong_AsLong(index);
      Py_DECREF(index);
    }
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      fail(false, "an int out of range");
    }
    if (v < lo || v > hi)
      fail(false, std::to_string(v) + " is outside " + std::to_string(lo) + ".." +
                      std::to_string(hi));
    return v;
  }
  int kind(PyObject* o) const {
    if (PyBool_Check(o)) fail(true, "expected a tile kind 0..26, got a bool");
    return static_cast<int>(integer(o, 0, kKinds - 1));
  }
  int seat(PyObject* o) const {
    if (PyBool_Check(o)) fail(true, "expected a seat 0..3, got a bool");
    return static_cast<int>(integer(o, 0, 3));
  }
  bool flag(PyObject* o) const {
    if (o == Py_True) return true;
    if (o == Py_False) return false;
    return integer(o, 0, 1) != 0;
  }

  // A list or tuple (borrowed items); `n` >= 0 requires that length.
  PyObject** items(PyObject* o, py::ssize_t* len, py::ssize_t n = -1) const {
    PyObject** p;
    if (PyList_Check(o)) {
      *len = PyList_GET_SIZE(o);
      p = PySequence_Fast_ITEMS(o);
    } else if (PyTuple_Check(o)) {
      *len = PyTuple_GET_SIZE(o);
      p = PySequence_Fast_ITEMS(o);
    } else {
      fail(true, std::string("expected a list or tuple, got ") + Py_TYPE(o)->tp_name);
    }
    if (n >= 0 && *len != n)
      fail(false, "expected " + std::to_string(n) + " items, got " + std::to_string(*len));
    return p;
  }
  void four_flags(PyObject* o, bool out[4]) const {
    py::ssize_t n;
    PyObject** it = items(o, &n, 4);
    for (int q = 0; q < 4; ++q) out[q] = flag(it[q]);
  }
  // Adds each kind of a list of kinds to `c` (counts), e.g. an exchange.
  void count_kinds(PyObject* o, Counts& c) const {
    py::ssize_t n;
    PyObject** it = items(o, &n);
    if (n > 14) fail(false, "more than 14 tiles");
    for (py::ssize_t i = 0; i < n; ++i) ++c[kind(it[i])];
  }
  // A hand: the engine's bytearray of 27 counts 0..4.
  void counts(PyObject* o, Counts& c) const {
    if (!PyByteArray_CheckExact(o))
      fail(true, std::string("expected a bytearray, got ") + Py_TYPE(o)->tp_name);
    if (PyByteArray_GET_SIZE(o) == kKinds + 1)  // 28: kind 27 is 红中 (docs/rules.md §12)
      fail(false, "28 counts: a table with wild tiles, which this encoder does not read (the "
                  "encoders take the observation-dict path there)");
    if (PyByteArray_GET_SIZE(o) != kKinds) fail(false, "expected 27 counts");
    std::memcpy(c.data(), PyByteArray_AS_STRING(o), kKinds);
    check_counts(c);
  }
  void check_counts(const Counts& c) const {
    for (uint8_t x : c)
      if (x > 4) fail(false, "a count above 4");
  }

  void set_piece(const char* piece) { piece_ = piece; }

 private:
  const char* list_;
  py::ssize_t index_;
  const char* piece_;
};

// The engine's fields a seat's view reads (data.py), and the objects register_views gives.
Slot kPhase{"_phase"}, kDealer{"dealer"}, kTurn{"_turn"}, kCFrom{"_c_from"}, kCTile{"_c_tile"},
    kCRob{"_c_rob"}, kDrawn{"_drawn"}, kExchange{"_exchange"}, kPending{"_pending"},
    kXueliu{"_xueliu"}, kHands{"_hands"}, kRivers{"_rivers"}, kOpenMelds{"_open_melds"},
    kCoreMelds{"_core_melds"}, kWinTiles{"_win_tiles"}, kSetAside{"_set_aside"}, kVoid{"_void"},
    kAnswers{"_answers"}, kVoidsRevealed{"_voids_revealed"}, kMult{"_mult"},
    kMultRevealed{"_mult_revealed"}, kInPlay{"_in_play"}, kFrozen{"_frozen"}, kAuto{"_auto"},
    kFront{"_front"}, kBack{"_back"};
struct Views {
  py::object hand_data;  // the engine's HandData class
  py::tuple void_actions;  // actions.VOID: a void choice's suit is its index
  bool ready = false;
};
Views& views() {
  static Views* v = new Views();  // never freed: it outlives the interpreter's teardown
  return *v;
}
constexpr long kPhaseVoid = 1, kPhaseTurn = 3, kPhaseClaim = 4;  // data.py PH_*

bool truth(const Reader& r, PyObject* o) {
  const int t = PyObject_IsTrue(o);
  if (t < 0) {
    PyErr_Clear();
    r.fail(true, "not a truth value");
  }
  return t != 0;
}

// xueliu.game.view.public_pieces(g, seat), field by field, into v (v.seat set).
void read_state(PyObject* g, py::ssize_t index, ObsView& v) {
  Reader r("states", index, "");
  auto field = [&](Slot& s) {
    r.set_piece(s.text);
    return get(g, s);
  };
  const int seat = v.seat;
  v.phase = static_cast<int>(r.integer(field(kPhase).ptr(), 0, 5));
  v.dealer = r.seat(field(kDealer).ptr());
  const long turn = r.integer(field(kTurn).ptr(), 0, 3);
  if (v.phase == kPhaseClaim) {
    v.turn = r.seat(field(kCFrom).ptr());
    v.claim_tile = r.kind(field(kCTile).ptr());
    v.robbing = truth(r, field(kCRob).ptr());
  } else {
    v.turn = v.phase == kPhaseTurn ? static_cast<int>(turn) : -1;
  }
  const long drawn = r.integer(field(kDrawn).ptr(), -1, kKinds - 1);
  v.drawn = v.phase == kPhaseTurn && turn == seat ? static_cast<int>(drawn) : -1;
  py::object exchange = field(kExchange);
  if (!exchange.is_none()) {  // {"given": [4 lists], "received": [4 lists], ...}
    if (!PyDict_Check(exchange.ptr())) r.fail(true, "not a dict");
    PyObject* given = PyDict_GetItemString(exchange.ptr(), "given");
    PyObject* received = PyDict_GetItemString(exchange.ptr(), "received");
    if (!given || !received) r.fail(false, "no given or received");
    py::ssize_t n;
    r.count_kinds(r.items(given, &n, 4)[seat], v.given);
    r.count_kinds(r.items(received, &n, 4)[seat], v.received);
  }
  py::ssize_t n;
  py::object pending = field(kPending);
  PyObject** who = r.items(pending.ptr(), &n);
  for (py::ssize_t i = 0; i < n; ++i) v.pending = v.pending || r.seat(who[i]) == seat;
  v.xuezhan = !truth(r, field(kXueliu).ptr());
  py::object hands = field(kHands);
  PyObject** hs = r.items(hands.ptr(), &n, 4);
  for (int q = 0; q < 4; ++q) {  // the hand sizes are public (every observation's hand_sizes)
    Counts c{};
    r.counts(hs[q], c);
    int size = 0;
    for (uint8_t x : c) size += x;
    v.hand_size[q] = size;
    if (q == seat) v.hand = c;
  }
  py::object rivers = field(kRivers);
  PyObject** rs = r.items(rivers.ptr(), &n, 4);
  for (int q = 0; q < 4; ++q) {
    py::ssize_t len;
    PyObject** it = r.items(rs[q], &len);
    for (py::ssize_t i = 0; i < len; ++i) v.add_discard(q, r.kind(it[i]));
  }
  // Every seat's melds as all see them (a concealed kong's kind -1), the seat's own from its
  // core melds, where its concealed kongs show their kinds.
  py::object open = field(kOpenMelds);
  PyObject** om = r.items(open.ptr(), &n, 4);
  py::object core = field(kCoreMelds);
  PyObject** cm = r.items(core.ptr(), &n, 4);
  for (int q = 0; q < 4; ++q) {
    const bool own = q == seat;
    r.set_piece(own ? kCoreMelds.text : kOpenMelds.text);
    py::ssize_t len;
    PyObject** it = r.items(own ? cm[q] : om[q], &len);
    if (len > kMaxMelds) r.fail(false, "more than 4 melds");
    for (py::ssize_t i = 0; i < len; ++i) {
      py::ssize_t two;
      PyObject** m = r.items(it[i], &two, 2);
      const int code = static_cast<int>(r.integer(m[0], 0, 2));
      const bool unseen = code == 2 && !own;
      const int kind = static_cast<int>(r.integer(m[1], unseen ? -1 : 0, unseen ? -1 : 26));
      v.add_meld(q, code, kind);
    }
  }
  py::object wins = field(kWinTiles);
  PyObject** ws = r.items(wins.ptr(), &n);
  for (py::ssize_t i = 0; i < n; ++i) {
    py::ssize_t two;
    PyObject** w = r.items(ws[i], &two, 2);
    v.add_win(r.seat(w[0]), r.kind(w[1]));
  }
  py::object aside = field(kSetAside);
  PyObject** ks = r.items(aside.ptr(), &n);
  for (py::ssize_t i = 0; i < n; ++i) v.add_set_aside(r.kind(ks[i]));
  py::object voids = field(kVoid);
  PyObject** vs = r.items(voids.ptr(), &n, 4);
  int own_void = static_cast<int>(r.integer(vs[seat], -1, 2));
  if (own_void < 0 && v.phase == kPhaseVoid) {  // its own choice, before the reveal
    py::object answers = field(kAnswers);
    if (!PyDict_Check(answers.ptr())) r.fail(true, "not a dict");
    PyObject* key = PyLong_FromLong(seat);
    PyObject* answer = key ? PyDict_GetItem(answers.ptr(), key) : nullptr;  // borrowed
    Py_XDECREF(key);
    if (answer) {
      const py::tuple& choices = views().void_actions;
      for (size_t s = 0; s < choices.size(); ++s)
        if (choices[s].ptr() == answer) own_void = static_cast<int>(s);
    }
  }
  if (truth(r, field(kVoidsRevealed).ptr()))
    for (int q = 0; q < 4; ++q) v.voids[q] = static_cast<int>(r.integer(vs[q], -1, 2));
  v.voids[seat] = own_void;
  if (truth(r, field(kMultRevealed).ptr())) {
    py::object mults = field(kMult);
    PyObject** m = r.items(mults.ptr(), &n, 4);
    for (int q = 0; q < 4; ++q) v.multipliers[q] = static_cast<int>(r.integer(m[q], 0, 1 << 20));
  }
  r.four_flags(field(kInPlay).ptr(), v.in_play);
  r.four_flags(field(kFrozen).ptr(), v.frozen);
  r.four_flags(field(kAuto).ptr(), v.auto_play);
  const long front = r.integer(field(kFront).ptr(), 0, 200);
  const long back = r.integer(field(kBack).ptr(), -1, 200);
  if (back - front + 1 < 0 || back - front + 1 > 108) r.fail(false, "a live wall out of range");
  v.wall_remaining = static_cast<int>(back - front + 1);  // the live wall is [front, back]
}

py::array encode_obs_v1(const py::sequence& states, const py::sequence& seats,
                        const py::object& picks, py::array out) {
  Views& vw = views();
  if (!vw.ready) throw py::value_error("encode_obs_v1: register_views was not called");
  const py::ssize_t n = py::len(states);
  if (py::len(seats) != n) throw py::value_error("states and seats must have the same length");
  if (!picks.is_none() && py::len(picks) != n)
    throw py::value_error("picks must be None or have one entry per state");
  if (!out.dtype().is(py::dtype::of<float>()) || out.ndim() != 3 || out.shape(0) != n ||
      out.shape(1) < kObsV1Channels || out.shape(2) != kKinds)
    throw py::value_error("out must be a float32 array of shape (len(states), >= 92, 27)");
  if (!(out.flags() & py::array::c_style) || !out.writeable())
    throw py::value_error("out must be C-contiguous and writeable");
  auto* type = reinterpret_cast<PyTypeObject*>(vw.hand_data.ptr());

  std::vector<ObsView> parsed(static_cast<size_t>(n));
  for (py::ssize_t i = 0; i < n; ++i) {
    ObsView& v = parsed[static_cast<size_t>(i)];
    const size_t at = static_cast<size_t>(i);
    const py::object seat = seats[at], state = states[at];
    if (!PyObject_TypeCheck(state.ptr(), type))
      throw py::type_error("states[" + std::to_string(i) + "] is a " +
                           Py_TYPE(state.ptr())->tp_name + ", not a GameState");
    v.seat = Reader("seats", i, "").seat(seat.ptr());
    read_state(state.ptr(), i, v);
    if (!picks.is_none()) {
      Reader pk("picks", i, "");
      py::object row = py::reinterpret_borrow<py::sequence>(picks)[at];
      py::ssize_t len;
      PyObject** ks = pk.items(row.ptr(), &len);
      if (len > 3) pk.fail(false, "more than 3 exchange picks");
      for (py::ssize_t j = 0; j < len; ++j) ++v.picks[pk.kind(ks[j])];
    }
  }
  float* base = static_cast<float*>(out.mutable_data());
  const py::ssize_t stride = out.shape(1) * kKinds;
  {
    py::gil_scoped_release release;
    for (py::ssize_t i = 0; i < n; ++i)
      encode_obs_v1(parsed[static_cast<size_t>(i)], base + i * stride);
  }
  return out;
}

void register_views_objects(py::object hand_data, py::tuple void_actions) {
  if (!PyType_Check(hand_data.ptr())) throw py::type_error("register_views: HandData class");
  if (void_actions.size() != kSuits) throw py::value_error("register_views: three void actions");
  Views& vw = views();
  vw.hand_data = hand_data;
  vw.void_actions = void_actions;
  resolve(reinterpret_cast<PyTypeObject*>(hand_data.ptr()),
          {&kPhase, &kDealer, &kTurn, &kCFrom, &kCTile, &kCRob, &kDrawn, &kExchange, &kPending,
           &kXueliu, &kHands, &kRivers, &kOpenMelds, &kCoreMelds, &kWinTiles, &kSetAside, &kVoid,
           &kAnswers, &kVoidsRevealed, &kMult, &kMultRevealed, &kInPlay, &kFrozen, &kAuto,
           &kFront, &kBack});
  vw.ready = true;
}

}  // namespace

void register_encode(py::module_& m) {
  py::list names;
  for (const char* name : kObsV1Names) names.append(name);
  m.attr("OBS_V1_CHANNELS") = py::tuple(names);
  m.def("register_views", &register_views_objects, py::arg("hand_data"), py::arg("void_actions"),
        "Engine hook (python/xueliu/game/view.py, once): the HandData class whose fields the "
        "encoder reads, and actions.VOID.");
  m.def("encode_obs_v1", &encode_obs_v1, py::arg("states"), py::arg("seats"), py::arg("picks"),
        py::arg("out"),
        "Writes channels 0..91 of out[i] (float32[n, >=92, 27], C-contiguous) with obs_v1 of "
        "seat seats[i] in the hand states[i] (what public_pieces gives, read from the hand); "
        "picks: None or the exchange picks per view. Returns out.");
}

}  // namespace xueliu::bindings
