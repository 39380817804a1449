// One registration function per area; module.cpp wires them together.
#pragma once

#include <pybind11/pybind11.h>

namespace xueliu::bindings {
void register_hand(pybind11::module_& m);      // Hand, parse_hand, hand_of, is_win, waits, shanten
void register_fan(pybind11::module_& m);       // ScoringRules, PATTERN_IDS, EXTRA_IDS, flags, evaluate
void register_analysis(pybind11::module_& m);  // discard_options, best_discards (查听)
void register_batch(pybind11::module_& m);     // batch_* over numpy arrays, GIL released
void register_encode(pybind11::module_& m);    // OBS_V1_CHANNELS, encode_obs_v1 (learning tensors)
void register_engine(pybind11::module_& m);    // turn_discard, exchange_options: game/'s hottest paths
void register_wall(pybind11::module_& m);      // shuffled_wall, roll, deal (cpp/wall.hpp)
void register_neural(pybind11::module_& m);    // first_layer_01: the neural bot's first layer
}  // namespace xueliu::bindings
