// Conversions more than one area needs, each defined in the area that owns its type.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "fan.hpp"
#include "notation.hpp"
#include "tiles.hpp"

namespace xueliu::bindings {

// 27 counts from a 27-byte buffer (bytes, bytearray, memoryview, uint8 numpy array) or, slower,
// any sequence of 27 ints 0..4; `what` names the argument in errors. bind_hand.cpp.
Counts counts_from(const pybind11::handle& obj, const char* what);

// Melds from a sequence of (type, kind) pairs into `hand` (types and kinds checked, not copies).
// bind_hand.cpp.
void read_melds(const pybind11::handle& melds, Hand& hand);

// _core.Hand(counts, melds, wilds): counts_from, read_melds, validate_hand. bind_hand.cpp.
Hand make_hand(const pybind11::handle& counts, const pybind11::handle& melds, int wilds = 0);

// The wild rules of a call's wild_kinds / wild_fifth_copy arguments (tiles.hpp's WildRules: bit k
// of the mask for a wild kind, bit 27 for added red dragons); ValueError outside 28 bits.
// bind_hand.cpp.
WildRules wild_rules_arg(long kinds, bool fifth_copy);

// (fan, multiplier, base pattern code, base_fan, gen, extras mask): _core.pyi's FanTuple.
// bind_fan.cpp.
pybind11::tuple fan_tuple(const FanResult& r);

// --- the public calls' arguments (hand_args.cpp), with python/xueliu/tiles.py's messages ---

// docs/rules.md §1 notation text (a str) as a hand; ValueError naming the problem.
Hand parse_text(const pybind11::handle& text);

// docs/rules.md §12.5 notation text (a str) as a physical hand; ValueError naming the problem.
PhysicalHand parse_physical_text(const pybind11::handle& text);

// 27 counts 0..4 from a numpy integer array of shape (27,), a list or tuple of 27 ints, or 27
// bytes; `prefix` starts every message ("" or e.g. "visible: ").
Counts counts_arg(const pybind11::handle& obj, const char* prefix);

// A hand from 27 counts (counts_arg) and None or (type, kind) meld pairs; no fifth copy.
Hand hand_from_counts(const pybind11::handle& counts, const pybind11::handle& melds);

// The hand argument of a public call: a _core.Hand or notation text (melds must be None), a
// sequence of tile names (any sequence, or a numpy str array), or 27 counts (melds: None or
// (type, kind) pairs). Returns the _core.Hand itself, or `storage` filled from the other forms.
// TypeError for other types (bytes, iterators, ...).
const Hand& hand_arg(const pybind11::handle& obj, const pybind11::handle& melds, Hand& storage);

// The shape-code argument of the single hand calls (named seven_pairs; tiles.hpp's hand_shape):
// True / False (the default table's two codes) and plain ints are read directly, without
// pybind11's int conversion, which was a measurable share of a single call; other integer types
// (numpy's) go through it. ValueError for an unknown code, TypeError for a non-integer.
inline const HandShape& shape_arg(const pybind11::handle& code) {
  PyObject* o = code.ptr();
  if (o == Py_True) return hand_shape(true);
  if (o == Py_False) return hand_shape(false);
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || v != static_cast<int>(v))
      throw pybind11::value_error("seven_pairs (the shape code) is out of range: " +
                                  std::string(pybind11::str(code)));
    return hand_shape(static_cast<int>(v));
  }
  try {
    return hand_shape(code.cast<int>());
  } catch (const pybind11::cast_error&) {
    throw pybind11::type_error("seven_pairs (the shape code) must be a bool or an int, got " +
                               std::string(Py_TYPE(o)->tp_name));
  }
}

}  // namespace xueliu::bindings
