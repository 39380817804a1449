// _core.encode_obs_v1: the obs_v1 tensors of many seat views at once (python/xueliu/_core.pyi).
//
// Each view is the tuple xueliu.game.view.public_pieces returns (what RULES §7 lets the seat
// see). The tuples are walked with the CPython API under the GIL into ObsViews (the core's plain
// struct, cpp/encode.hpp); the channels are then written with the GIL released. Every value read
// is type- and range-checked: a bad one is a TypeError / ValueError naming the view and the piece,
// and nothing is written to `out` before every view has been read.
#include <pybind11/numpy.h>

#include <cstring>
#include <string>
#include <vector>

#include "encode.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

// The pieces of a public_pieces tuple, by position (python/xueliu/game/view.py).
enum Piece {
  kPhase, kDealer, kTurn, kPending, kXuezhan, kHand, kDrawn, kClaimTile, kRobbing, kExchange,
  kRivers, kMelds, kOwnMelds, kWon, kSetAside, kVoid, kVoids, kMultipliers, kInPlay, kFrozen, kAutoPlay,
  kWall, kPieces
};
const char* const kPieceNames[kPieces] = {
    "phase", "dealer", "turn", "pending", "xuezhan", "hand", "drawn", "claim_tile", "robbing",
    "exchange", "rivers", "melds", "own_melds", "won", "set_aside", "void", "voids", "multipliers", "in_play",
    "frozen", "auto_play", "wall_remaining"};

// Reads one view; errors name it as views[i].<piece>.
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
  // 27 bytes (bytes, bytearray or any buffer) as counts 0..4.
  void counts(PyObject* o, Counts& c) const {
    if (PyByteArray_CheckExact(o) && PyByteArray_GET_SIZE(o) == kKinds) {  // the engine's hands
      std::memcpy(c.data(), PyByteArray_AS_STRING(o), kKinds);
      check_counts(c);
      return;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(o, &view, PyBUF_SIMPLE) != 0) {
      PyErr_Clear();
      fail(true, std::string("expected 27 bytes, got ") + Py_TYPE(o)->tp_name);
    }
    const bool ok = view.len == kKinds;
    if (ok) std::memcpy(c.data(), view.buf, kKinds);
    PyBuffer_Release(&view);
    if (!ok) fail(false, "expected 27 counts");
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

void read_view(PyObject* tuple, py::ssize_t index, ObsView& v) {
  Reader r("views", index, "");
  if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != kPieces)
    throw py::type_error("views[" + std::to_string(index) + "] must be a tuple of " +
                         std::to_string(kPieces) + " pieces (public_pieces)");
  PyObject** p = PySequence_Fast_ITEMS(tuple);
  auto at = [&](Piece k) {
    r.set_piece(kPieceNames[k]);
    return p[k];
  };
  v.phase = static_cast<int>(r.integer(at(kPhase), 0, 5));
  v.dealer = r.seat(at(kDealer));
  v.turn = static_cast<int>(r.integer(at(kTurn), -1, 3));
  v.pending = r.flag(at(kPending));
  v.xuezhan = r.flag(at(kXuezhan));
  r.counts(at(kHand), v.hand);
  v.drawn = static_cast<int>(r.integer(at(kDrawn), -1, kKinds - 1));
  v.claim_tile = static_cast<int>(r.integer(at(kClaimTile), -1, kKinds - 1));
  v.robbing = r.flag(at(kRobbing));
  PyObject* ex = at(kExchange);
  if (ex != Py_None) {
    py::ssize_t n;
    PyObject** gr = r.items(ex, &n, 2);
    r.count_kinds(gr[0], v.given);
    r.count_kinds(gr[1], v.received);
  }
  py::ssize_t n;
  PyObject** rivers = r.items(at(kRivers), &n, 4);
  for (int q = 0; q < 4; ++q) {
    py::ssize_t len;
    PyObject** it = r.items(rivers[q], &len);
    for (py::ssize_t i = 0; i < len; ++i) v.add_discard(q, r.kind(it[i]));
  }
  // Every seat's melds as all see them (a concealed kong's kind -1), the seat's own from
  // own_melds, where its concealed kongs show their kinds.
  PyObject** melds = r.items(at(kMelds), &n, 4);
  for (int q = 0; q < 4; ++q) {
    const bool own = q == v.seat;
    if (own) r.set_piece(kPieceNames[kOwnMelds]);
    py::ssize_t len;
    PyObject** it = r.items(own ? p[kOwnMelds] : melds[q], &len);
    if (len > kMaxMelds) r.fail(false, "more than 4 melds");
    for (py::ssize_t i = 0; i < len; ++i) {
      py::ssize_t two;
      PyObject** m = r.items(it[i], &two, 2);
      const int code = static_cast<int>(r.integer(m[0], 0, 2));
      const bool unseen = code == 2 && !own;
      const int kind = static_cast<int>(r.integer(m[1], unseen ? -1 : 0, unseen ? -1 : 26));
      v.add_meld(q, code, kind);
    }
    if (own) r.set_piece(kPieceNames[kMelds]);
  }
  py::ssize_t wins;
  PyObject** won = r.items(at(kWon), &wins);
  for (py::ssize_t i = 0; i < wins; ++i) {
    py::ssize_t two;
    PyObject** w = r.items(won[i], &two, 2);
    v.add_win(r.seat(w[0]), r.kind(w[1]));
  }
  py::ssize_t aside;
  PyObject** kinds = r.items(at(kSetAside), &aside);
  for (py::ssize_t i = 0; i < aside; ++i) v.add_set_aside(r.kind(kinds[i]));
  PyObject** voids = r.items(at(kVoids), &n, 4);
  for (int q = 0; q < 4; ++q) v.voids[q] = static_cast<int>(r.integer(voids[q], -1, 2));
  v.voids[v.seat] = static_cast<int>(r.integer(at(kVoid), -1, 2));  // its own, choice included
  PyObject* mults = at(kMultipliers);
  if (mults != Py_None) {
    PyObject** m = r.items(mults, &n, 4);
    for (int q = 0; q < 4; ++q) v.multipliers[q] = static_cast<int>(r.integer(m[q], 0, 1 << 20));
  }
  r.four_flags(at(kInPlay), v.in_play);
  r.four_flags(at(kFrozen), v.frozen);
  r.four_flags(at(kAutoPlay), v.auto_play);
  v.wall_remaining = static_cast<int>(r.integer(at(kWall), 0, 108));
}

py::array encode_obs_v1(const py::sequence& views, const py::sequence& seats,
                        const py::sequence& hands, const py::object& picks, py::array out) {
  const py::ssize_t n = py::len(views);
  if (py::len(seats) != n || py::len(hands) != n)
    throw py::value_error("views, seats and hands must have the same length");
  if (!picks.is_none() && py::len(picks) != n)
    throw py::value_error("picks must be None or have one entry per view");
  if (!out.dtype().is(py::dtype::of<float>()) || out.ndim() != 3 || out.shape(0) != n ||
      out.shape(1) < kObsV1Channels || out.shape(2) != kKinds)
    throw py::value_error("out must be a float32 array of shape (len(views), >= 92, 27)");
  if (!(out.flags() & py::array::c_style) || !out.writeable())
    throw py::value_error("out must be C-contiguous and writeable");

  std::vector<ObsView> parsed(static_cast<size_t>(n));
  for (py::ssize_t i = 0; i < n; ++i) {
    ObsView& v = parsed[static_cast<size_t>(i)];
    Reader r("seats", i, "");
    const size_t at = static_cast<size_t>(i);
    const py::object seat = seats[at], view = views[at];
    v.seat = r.seat(seat.ptr());
    read_view(view.ptr(), i, v);
    // The four hand sizes are public (every observation's hand_sizes): only sums are read.
    Reader h("hands", i, "");
    py::ssize_t four;
    py::object seat_hands = hands[at];
    PyObject** it = h.items(seat_hands.ptr(), &four, 4);
    for (int q = 0; q < 4; ++q) {
      Counts c{};
      h.counts(it[q], c);
      int size = 0;
      for (uint8_t x : c) size += x;
      v.hand_size[q] = size;
    }
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

}  // namespace

void register_encode(py::module_& m) {
  py::list names;
  for (const char* name : kObsV1Names) names.append(name);
  m.attr("OBS_V1_CHANNELS") = py::tuple(names);
  m.def("encode_obs_v1", &encode_obs_v1, py::arg("views"), py::arg("seats"), py::arg("hands"),
        py::arg("picks"), py::arg("out"),
        "Writes channels 0..91 of out[i] (float32[n, >=92, 27]) with obs_v1 of views[i] "
        "(public_pieces of seats[i]; hands[i]: that state's four hands, of which only the sizes "
        "are read); picks: None or the exchange picks per view. Returns out.");
}

}  // namespace xueliu::bindings
