// _core.shuffled_wall, roll, deal: the wall, the dice and the deal of a new hand (cpp/wall.hpp;
// python/xueliu/game/wall.py and deal.py call them, tests/game/test_wall.py holds them to plain
// Python references).
#include <pybind11/pybind11.h>

#include <string>

#include "register.hpp"
#include "wall.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

py::list wall_list(const std::array<uint8_t, kWallTiles>& wall) {
  py::list out(kWallTiles);
  for (int i = 0; i < kWallTiles; ++i)  // small ints: cached by Python, never fail
    PyList_SET_ITEM(out.ptr(), i, PyLong_FromLong(wall[static_cast<size_t>(i)]));
  return out;
}

py::tuple shuffled_wall_of(uint64_t state) {
  SplitMix64 rng{state};
  const auto wall = shuffled_wall(rng);
  return py::make_tuple(wall_list(wall), rng.state);
}

py::tuple roll_of(uint64_t state, bool shuffle) {
  SplitMix64 rng{state};
  const Roll r = roll(rng, shuffle);
  return py::make_tuple(shuffle ? py::object(wall_list(r.wall)) : py::object(py::none()),
                        r.dice[0], r.dice[1], r.exchange_die, r.exchange_pick);
}

// The wall as 108 kinds 0..26 from a list or tuple of ints; ValueError / TypeError otherwise.
std::array<uint8_t, kWallTiles> wall_arg(const py::handle& obj) {
  PyObject* o = obj.ptr();
  if (!PyList_Check(o) && !PyTuple_Check(o))
    throw py::type_error("deal: the wall is a list of 108 kinds");
  if (PySequence_Fast_GET_SIZE(o) != kWallTiles)
    throw py::value_error("deal: the wall holds 108 tiles, got " +
                          std::to_string(PySequence_Fast_GET_SIZE(o)));
  std::array<uint8_t, kWallTiles> wall{};
  for (int i = 0; i < kWallTiles; ++i) {
    PyObject* k = PySequence_Fast_GET_ITEM(o, i);
    const long v = PyLong_Check(k) ? PyLong_AsLong(k) : -1;
    if (v < 0 || v >= kKinds) {
      PyErr_Clear();
      throw py::value_error("deal: wall[" + std::to_string(i) + "] is not a kind 0..26");
    }
    wall[static_cast<size_t>(i)] = static_cast<uint8_t>(v);
  }
  return wall;
}

py::list deal_of(const py::handle& wall, int dealer) {
  if (dealer < 0 || dealer > 3) throw py::value_error("deal: the dealer is a seat 0..3");
  const auto hands = deal(wall_arg(wall), dealer);
  py::list out(4);
  for (int q = 0; q < 4; ++q) {
    const auto& c = hands[static_cast<size_t>(q)];
    PyObject* b = PyByteArray_FromStringAndSize(reinterpret_cast<const char*>(c.data()), kKinds);
    if (!b) throw py::error_already_set();
    PyList_SET_ITEM(out.ptr(), q, b);
  }
  return out;
}

}  // namespace

void register_wall(py::module_& m) {
  m.def("shuffled_wall", &shuffled_wall_of, py::arg("state"),
        "The 108 kinds in draw order from a splitmix64 state, and the state after the ten draws "
        "it took: (wall, state).");
  m.def("roll", &roll_of, py::arg("state"), py::arg("shuffle"),
        "What a hand's seed decides, from a splitmix64 state: (wall or None without shuffle, "
        "die 1, die 2, exchange die, exchange pick 0..2).");
  m.def("deal", &deal_of, py::arg("wall"), py::arg("dealer"),
        "The four hands dealt from a wall of 108 kinds: a bytearray of 27 counts each.");
}

}  // namespace xueliu::bindings
