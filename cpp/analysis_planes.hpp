// The analysis channels of obs_v2 (python/xueliu/learn/channels.py ANALYSIS_V1): what 查听 says
// of the seat's own hand, computed from its obs_v1 tensor alone.
//
// Why from obs_v1 and not from the game: obs_v1 already holds everything the seat may see (docs/rules.md
// §7) — its concealed tiles (hand_1..4), its melds (pengs_self, kongs_self,
// concealed_kongs_self), its void (void_self), the claim tile and every copy in sight
// (visible_1..4, own melds included) — so the planes are a function of what the seat sees by
// construction, and a network can add them to any obs_v1 input, stored demonstrations included.
// A multi-layer perceptron learns shanten and 进张 badly; the core computes them exactly.
//
// Every value written is 0 or 1 (tile planes and bars, as obs_v1's), so the neural bot's first
// layer still sums rows (dense.hpp). "Live" counts are copies not in sight: 4 - held - seen.
// Pure and reentrant (it calls hand.hpp and fan.hpp only): safe from any thread.
#pragma once

#include "fan.hpp"
#include "tiles.hpp"

namespace xueliu {

constexpr int kAnalysisPlanes = 19;

// The channel names, in order (the Python table must match them exactly).
extern const char* const kAnalysisNames[kAnalysisPlanes];

// Writes the kAnalysisPlanes channels of one obs_v1 tensor `obs` (92 x 27 floats, 0/1) into
// out[0 .. kAnalysisPlanes * 27) (zeros included), for a table of `rules` (its hand shape and fan
// table). A hand with no complete hand reachable (or an input that is not a seat's hand) gets
// zero planes: the features are then silent, never wrong.
void analysis_planes(const float* obs, const ScoringRules& rules, float* out);

}  // namespace xueliu
