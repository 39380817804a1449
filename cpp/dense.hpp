// The neural bot's first layer (python/xueliu/bots/neural_net.py, _first_layer) on 0/1 inputs:
// x @ w as sums of rows, with the whole plane of a "first c inputs on" pattern taken as one
// precomputed prefix row.
//
// Why rows and not a matrix product: an obs_v1 input is 2,484 values of which about 400 are 1
// and the rest 0, in 92 planes of 27; a flag, bar or count plane (and many tile planes) has its
// ones exactly at its first c inputs, so its contribution is the prefix sum of its first c rows
// of w. About 160 rows of the table are then added per input instead of 2,484 multiply-adds per
// output: the cost is memory-bound, the number of rows read.
//
// The rows table (built once per network by neural_net._first_layer_rows), float32 [R, H] with
// R >= 2 * 2484, row-major:
//   rows[i]                      = w[i]                       (i < 2484)
//   rows[2484 + 27 * p + c - 1]  = w[27 p] + ... + w[27 p + c - 1]  (plane p, c in 1..27)
// (rows past 2 * 2484, e.g. the Python side's zero padding row, are not read).
//
// The sums are taken in the order numpy's _first_layer takes them: for each input, the prefix
// rows of its prefix planes by increasing plane, then the single rows of its other planes by
// increasing input, added one by one in float32 — so the results equal numpy's bit for bit on
// the same machine (tests/test_neural_native.py holds them to a tolerance; the neural bot's
// decisions are the same either way). Pure, no allocation but a stack row: safe from any thread.
#pragma once

#include <cstdint>

namespace xueliu {

constexpr int kDensePlane = 27;      // inputs per plane (one per tile kind)
constexpr int kDenseMaxPlanes = 128;  // obs_v1 has 92, obs_v2 111

// out[i, :] = x[i, :] @ w for i < n, where x is float32 [n, 27 * planes] (planes <=
// kDenseMaxPlanes) and w is the first 27 * planes rows of `rows` ([num_rows >= 2 * 27 * planes,
// width], the layout above with 2484 read as 27 * planes), out float32 [n, width]; all row-major
// and contiguous. Returns false, with `out` partly written, as soon as an input is neither 0 nor
// 1 (the caller then takes the plain product).
bool first_layer_01(const float* x, int64_t n, int planes, const float* rows, int64_t width,
                    float* out);

// The first layer of renamed tables (python/xueliu/bots/neural_views.py): for each view v of
// `views` (4 bytes each: the suit each suit becomes, then 1 if the ranks are reversed), out[i, v, :]
// = x_v @ w, where x_v is x[i] renamed — each input of a tile plane (tile[p] != 0) moved from kind
// 9 s + q to kind 9 perm[s] + (reverse ? 8 - q : q), every other input left where it is.
//
// Why not one table of rows per view: a view is the real table's rows read at renamed inputs, so
// one pass over x[i] collects, for each suit s of the ones, the sums of the rows they would read
// in each destination suit t, ranks kept and reversed (18 partial sums), and a view is then the
// unmoved planes' sum plus three of them. Every view reads the same table (w's rows, cache-warm)
// and each tile input is read six times in all, however many views are asked; the per-view tables
// this replaces were read eleven times, from eleven places (6.5 MB each for obs_v3).
//
// x, rows, width as first_layer_01 (the unmoved planes take the prefix rows; tile planes their
// single rows); out float32 [n, num_views, width]; scratch float32 [19 * width]. Sums are float32
// in a fixed order, so the same inputs give the same outputs. Returns false, `out` partly
// written, as soon as an input is neither 0 nor 1.
bool renamed_first_layers_01(const float* x, int64_t n, int planes, const uint8_t* tile,
                             const float* rows, int64_t width, const uint8_t* views,
                             int num_views, float* out, float* scratch);

}  // namespace xueliu
