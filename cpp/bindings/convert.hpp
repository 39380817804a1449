// Conversions more than one area needs, each defined in the area that owns its type.
#pragma once

#include <pybind11/pybind11.h>

#include "fan.hpp"
#include "tiles.hpp"

namespace xueliu::bindings {

// 27 counts from a 27-byte buffer (bytes, bytearray, memoryview, uint8 numpy array) or, slower,
// any sequence of 27 ints 0..4; `what` names the argument in errors. bind_hand.cpp.
Counts counts_from(const pybind11::handle& obj, const char* what);

// (fan, multiplier, base pattern code, base_fan, gen, extras mask): _core.pyi's FanTuple.
// bind_fan.cpp.
pybind11::tuple fan_tuple(const FanResult& r);

}  // namespace xueliu::bindings
