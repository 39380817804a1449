// The hand argument of the public calls, converted natively: a _core.Hand, notation text, a
// sequence of tile names, or 27 counts (a numpy integer array or a sequence of ints), with melds
// beside the last two. Messages match python/xueliu/tiles.py's (users and tests know them).
#include <pybind11/numpy.h>

#include <cstring>
#include <string>

#include "convert.hpp"
#include "notation.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

std::string type_name(const py::handle& obj) { return Py_TYPE(obj.ptr())->tp_name; }

std::string repr_of(const py::handle& obj) {
  PyObject* r = PyObject_Repr(obj.ptr());
  if (!r) {
    PyErr_Clear();
    return "<unprintable>";
  }
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(r, &n);
  std::string out = p ? std::string(p, static_cast<size_t>(n)) : "<unprintable>";
  if (!p) PyErr_Clear();
  Py_DECREF(r);
  return out;
}

// Python's repr() of a piece of UTF-8 text (notation.hpp's Quote), so messages quote input
// exactly as tiles.py did.
std::string py_repr(std::string_view utf8) {
  PyObject* s = PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "replace");
  if (!s) {
    PyErr_Clear();
    return quote_plain(utf8);
  }
  const std::string out = repr_of(s);
  Py_DECREF(s);
  return out;
}

// The UTF-8 of a str; a str that has none (lone surrogates) is a ValueError naming it.
std::string_view utf8_of(const py::handle& str, const char* what) {
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(str.ptr(), &n);
  if (!p) {
    PyErr_Clear();
    throw py::value_error(std::string(what) + " " + repr_of(str) + " is not valid text");
  }
  return {p, static_cast<size_t>(n)};
}

// The first kind held more than four times (melds included), or -1.
int fifth_copy(const int* counts, const Hand& hand) {
  int held[kKinds];
  for (int k = 0; k < kKinds; ++k) held[k] = counts[k];
  for (int i = 0; i < hand.n_melds; ++i) held[hand.melds[i].kind] += hand.melds[i].size();
  for (int k = 0; k < kKinds; ++k)
    if (held[k] > 4) return k;
  return -1;
}

void check_count(long long v, int k, const char* prefix) {
  if (v < 0 || v > 4)
    throw py::value_error(std::string(prefix) + "count " + std::to_string(v) + " of " +
                          tile_name(k) + " out of range 0..4");
}

// An int from an item of a counts sequence: ints and numpy integers, not bools or floats.
long count_item(const py::handle& item, int k, const char* prefix) {
  if (PyLong_CheckExact(item.ptr()) || (!PyBool_Check(item.ptr()) && PyIndex_Check(item.ptr()))) {
    int overflow = 0;
    PyObject* index = PyNumber_Index(item.ptr());
    if (!index) throw py::error_already_set();
    const long v = PyLong_AsLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (overflow)
      throw py::value_error(std::string(prefix) + "count " + repr_of(item) + " of " +
                            tile_name(k) + " out of range 0..4");
    return v;
  }
  throw py::value_error(std::string(prefix) + "counts must hold integers, got " +
                        type_name(item) + " " + repr_of(item) + " for " + tile_name(k));
}

Counts counts_of_array(const py::array& a, const char* prefix) {
  const char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::value_error(std::string(prefix) + "counts must hold integers, got dtype " +
                          std::string(py::str(a.dtype())));
  if (a.ndim() != 1 || a.shape(0) != kKinds) {
    std::string shape = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(a.shape(d));
    throw py::value_error(std::string(prefix) + "counts must have shape (27,), got " + shape +
                          (a.ndim() == 1 ? ",)" : ")"));
  }
  Counts counts{};
  if (a.itemsize() == 1 && kind == 'u' && a.strides(0) == 1) {  // uint8, contiguous: the usual
    std::memcpy(counts.data(), a.data(), kKinds);
    for (int k = 0; k < kKinds; ++k) check_count(counts[k], k, prefix);
    return counts;
  }
  auto wide = py::array_t<int64_t, py::array::forcecast>::ensure(a);
  if (!wide) throw py::error_already_set();
  for (int k = 0; k < kKinds; ++k) {
    const int64_t v = wide.at(k);
    check_count(v, k, prefix);
    counts[k] = static_cast<uint8_t>(v);
  }
  return counts;
}

// A sequence of tile names; `melds` are already in `hand`.
void counts_of_names(const py::handle& seq, Hand& hand) {
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  int counts[kKinds] = {};
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = items[i];
    if (!PyUnicode_Check(item))
      throw py::type_error("tile name must be a str, got " + type_name(item) + " at position " +
                           std::to_string(i));
    const int k = tile_kind_of_name(utf8_of(item, "tile name"));
    if (k < 0)
      throw py::value_error("not a tile name: " + repr_of(item) + " at position " +
                            std::to_string(i) + " (expected a rank 1-9 and a suit, e.g. '5m')");
    ++counts[k];
  }
  const int k = fifth_copy(counts, hand);
  if (k >= 0)
    throw py::value_error("fifth copy of " + tile_name(k) +
                          (hand.n_melds ? " in the tile list (counting melds)" : " in the tile list"));
  for (int kind = 0; kind < kKinds; ++kind) hand.counts[kind] = static_cast<uint8_t>(counts[kind]);
}

bool is_native_hand(const py::handle& obj) {
  static PyTypeObject* hand_type =
      reinterpret_cast<PyTypeObject*>(py::type::of<Hand>().ptr());
  return Py_TYPE(obj.ptr()) == hand_type;
}

}  // namespace

Hand hand_from_counts(const py::handle& counts, const py::handle& melds);

namespace {

void melds_into(const py::handle& melds, Hand& hand) {
  if (!melds.is_none()) read_melds(melds, hand);
}

// A list or tuple (or the list of another sequence): tile names when it is empty or starts with
// a str, else 27 counts.
const Hand& hand_of_sequence(const py::handle& seq, const py::handle& melds, Hand& storage) {
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
  if (n == 0 || PyUnicode_Check(PySequence_Fast_ITEMS(seq.ptr())[0])) {
    storage = Hand{};
    melds_into(melds, storage);
    counts_of_names(seq, storage);
  } else {
    storage = hand_from_counts(seq, melds);
  }
  return storage;
}

}  // namespace

Hand parse_text(const py::handle& text) {
  try {
    return parse_notation(utf8_of(text, "hand notation"), &py_repr);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
}

PhysicalHand parse_physical_text(const py::handle& text) {
  try {
    return parse_physical(utf8_of(text, "hand notation"), &py_repr);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
}

Counts counts_arg(const py::handle& obj, const char* prefix) {
  if (py::isinstance<py::array>(obj)) return counts_of_array(py::reinterpret_borrow<py::array>(obj), prefix);
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(obj.ptr());
    if (n != kKinds)
      throw py::value_error(std::string(prefix) + "counts must have shape (27,), got (" +
                            std::to_string(n) + ",)");
    PyObject** items = PySequence_Fast_ITEMS(obj.ptr());
    Counts counts{};
    for (int k = 0; k < kKinds; ++k) {
      const long v = count_item(items[k], k, prefix);
      check_count(v, k, prefix);
      counts[k] = static_cast<uint8_t>(v);
    }
    return counts;
  }
  if (PyBytes_Check(obj.ptr())) {  // 27 bytes, as _core.Hand takes them
    const Py_ssize_t n = PyBytes_GET_SIZE(obj.ptr());
    if (n != kKinds)
      throw py::value_error(std::string(prefix) + "counts must have shape (27,), got (" +
                            std::to_string(n) + ",)");
    Counts counts{};
    std::memcpy(counts.data(), PyBytes_AS_STRING(obj.ptr()), kKinds);
    for (int k = 0; k < kKinds; ++k) check_count(counts[k], k, prefix);
    return counts;
  }
  // Other array-likes (a range, array.array, memoryview) as numpy reads them.
  if (!PyUnicode_Check(obj.ptr()) && !PyByteArray_Check(obj.ptr()) &&
      (PySequence_Check(obj.ptr()) || PyObject_CheckBuffer(obj.ptr()))) {
    py::array a = py::array::ensure(obj);
    if (!a) PyErr_Clear();
    else if (a.ndim() >= 1 && a.dtype().kind() != 'O') return counts_of_array(a, prefix);
  }
  throw py::type_error(std::string(prefix) + "counts must be 27 ints, got " + type_name(obj));
}

Hand hand_from_counts(const py::handle& counts, const py::handle& melds) {
  Hand hand;
  melds_into(melds, hand);
  hand.counts = counts_arg(counts, "");
  int wide[kKinds];
  for (int k = 0; k < kKinds; ++k) wide[k] = hand.counts[k];
  const int k = fifth_copy(wide, hand);
  if (k >= 0) throw py::value_error("fifth copy of " + tile_name(k) + " (counting melds)");
  return hand;
}

const Hand& hand_arg(const py::handle& obj, const py::handle& melds, Hand& storage) {
  if (is_native_hand(obj)) {
    if (!melds.is_none())
      throw py::type_error("melds= goes with a tile list or counts; a Hand carries its own melds");
    return obj.cast<const Hand&>();
  }
  if (PyUnicode_Check(obj.ptr())) {
    if (!melds.is_none())
      throw py::type_error("melds= goes with a tile list or counts; notation text carries its "
                           "own melds");
    storage = parse_text(obj);
    return storage;
  }
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()))  // the usual: no copy
    return hand_of_sequence(obj, melds, storage);
  if (py::isinstance<py::array>(obj)) {
    const auto a = py::reinterpret_borrow<py::array>(obj);
    if (a.dtype().kind() == 'U' && a.ndim() == 1)  // an array of tile names
      return hand_of_sequence(a.attr("tolist")(), melds, storage);
    storage = hand_from_counts(obj, melds);
    return storage;
  }
  if (PySequence_Check(obj.ptr()) && !PyBytes_Check(obj.ptr()) && !PyByteArray_Check(obj.ptr())) {
    PyObject* fast = PySequence_Fast(obj.ptr(), "a sequence");  // a deque, a custom sequence
    if (!fast) throw py::error_already_set();
    return hand_of_sequence(py::reinterpret_steal<py::object>(fast), melds, storage);
  }
  throw py::type_error("hand must be a Hand, notation text, a sequence of tile names or 27 "
                       "counts, got " + type_name(obj));
}

}  // namespace xueliu::bindings
