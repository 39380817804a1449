// The neural bot's native parts: _core.first_layer_01, its first layer on 0/1 inputs
// (cpp/dense.hpp; python/xueliu/bots/neural_net.py calls it, tests/test_neural_native.py holds it
// to numpy), _core.renamed_first_layers_01, the same at renamed tables (cpp/dense.hpp;
// python/xueliu/bots/neural_views.py, tests/test_neural_views.py), and _core.analysis_planes,
// obs_v2's analysis channels (cpp/analysis_planes.hpp; python/xueliu/learn/encoders.py,
// tests/learn/test_obs_v2.py).
#include <pybind11/numpy.h>

#include <string>
#include <vector>

#include "analysis_planes.hpp"
#include "dense.hpp"
#include "encode.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

std::string shape_of(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

// A float32, two-dimensional, C-contiguous array (writeable for `out`), else a ValueError
// naming the argument and what it is.
void check_matrix(const py::array& a, const char* name, bool writeable) {
  if (!a.dtype().is(py::dtype::of<float>()) || a.ndim() != 2)
    throw py::value_error(std::string(name) + " must be a float32 matrix, got " +
                          std::string(py::str(a.dtype())) + " of shape " + shape_of(a));
  if (!(a.flags() & py::array::c_style))
    throw py::value_error(std::string(name) + " must be C-contiguous");
  if (writeable && !a.writeable()) throw py::value_error(std::string(name) + " must be writeable");
}

// Whether two contiguous arrays' bytes overlap (out is written while x and rows are read).
bool overlap(const py::array& a, const py::array& b) {
  const auto* pa = static_cast<const char*>(a.data());
  const auto* pb = static_cast<const char*>(b.data());
  return a.nbytes() > 0 && b.nbytes() > 0 && pa < pb + b.nbytes() && pb < pa + a.nbytes();
}

// The planes of a first layer's input x (27 columns each), checked against its row table.
int planes_of(const py::array& x, const py::array& rows) {
  if (x.shape(1) == 0 || x.shape(1) % kDensePlane || x.shape(1) > kDensePlane * kDenseMaxPlanes)
    throw py::value_error("x must have 27 columns a plane, at most " +
                          std::to_string(kDenseMaxPlanes) + " planes, got shape " + shape_of(x));
  if (rows.shape(0) < 2 * x.shape(1))
    throw py::value_error("rows must have at least " + std::to_string(2 * x.shape(1)) +
                          " rows (w's, then the prefix rows), got shape " + shape_of(rows));
  return static_cast<int>(x.shape(1) / kDensePlane);
}

bool first_layer_01_of(const py::array& x, const py::array& rows, py::array out) {
  check_matrix(x, "x", false);
  check_matrix(rows, "rows", false);
  check_matrix(out, "out", true);
  const int planes = planes_of(x, rows);
  if (out.shape(0) != x.shape(0) || out.shape(1) != rows.shape(1))
    throw py::value_error("out must have shape (" + std::to_string(x.shape(0)) + ", " +
                          std::to_string(rows.shape(1)) + "), got " + shape_of(out));
  if (overlap(out, x) || overlap(out, rows))
    throw py::value_error("out must not share memory with x or rows");
  const auto* px = static_cast<const float*>(x.data());
  const auto* pr = static_cast<const float*>(rows.data());
  auto* po = static_cast<float*>(out.mutable_data());
  const int64_t n = x.shape(0), width = rows.shape(1);
  // Releasing the GIL is safe: only the three buffers, checked above and kept alive by the
  // caller's references, are touched; no Python object is read or refcounted.
  py::gil_scoped_release release;
  return first_layer_01(px, n, planes, pr, width, po);
}

bool renamed_first_layers_01_of(const py::array& x, const py::array& rows,
                                const py::array& tile, const py::array& views, py::array out) {
  check_matrix(x, "x", false);
  check_matrix(rows, "rows", false);
  const int planes = planes_of(x, rows);
  if (!tile.dtype().is(py::dtype::of<uint8_t>()) || tile.ndim() != 1 || tile.shape(0) != planes ||
      !(tile.flags() & py::array::c_style))
    throw py::value_error("tile must be a contiguous uint8 array of one flag a plane (" +
                          std::to_string(planes) + "), got " + std::string(py::str(tile.dtype())) +
                          " of shape " + shape_of(tile));
  if (!views.dtype().is(py::dtype::of<uint8_t>()) || views.ndim() != 2 || views.shape(1) != 4 ||
      !(views.flags() & py::array::c_style))
    throw py::value_error("views must be a contiguous uint8 array of shape (V, 4), got " +
                          std::string(py::str(views.dtype())) + " of shape " + shape_of(views));
  const auto* pv = static_cast<const uint8_t*>(views.data());
  const int64_t num_views = views.shape(0);
  for (int64_t v = 0; v < num_views; ++v) {
    const uint8_t* w = pv + 4 * v;
    if (w[0] > 2 || w[1] > 2 || w[2] > 2 || w[0] == w[1] || w[0] == w[2] || w[1] == w[2] ||
        w[3] > 1)
      throw py::value_error("views[" + std::to_string(v) +
                            "] must be a permutation of the suits 0, 1, 2 and a 0/1 reversal");
  }
  if (!out.dtype().is(py::dtype::of<float>()) || out.ndim() != 3 || out.shape(0) != x.shape(0) ||
      out.shape(1) != num_views || out.shape(2) != rows.shape(1) ||
      !(out.flags() & py::array::c_style) || !out.writeable())
    throw py::value_error("out must be a writeable contiguous float32 array of shape (" +
                          std::to_string(x.shape(0)) + ", " + std::to_string(num_views) + ", " +
                          std::to_string(rows.shape(1)) + "), got " +
                          std::string(py::str(out.dtype())) + " of shape " + shape_of(out));
  if (overlap(out, x) || overlap(out, rows))
    throw py::value_error("out must not share memory with x or rows");
  const auto* px = static_cast<const float*>(x.data());
  const auto* pr = static_cast<const float*>(rows.data());
  const auto* pt = static_cast<const uint8_t*>(tile.data());
  auto* po = static_cast<float*>(out.mutable_data());
  const int64_t n = x.shape(0), width = rows.shape(1);
  std::vector<float> scratch(static_cast<size_t>(19 * width));
  // Safe without the GIL: the checked buffers, kept alive by the caller, and our own scratch.
  py::gil_scoped_release release;
  return renamed_first_layers_01(px, n, planes, pt, pr, width, pv, static_cast<int>(num_views),
                                 po, scratch.data());
}

void analysis_planes_of(const py::array& x, py::array out, const ScoringRules& rules) {
  check_matrix(x, "x", false);
  check_matrix(out, "out", true);
  constexpr int kIn = kObsV1Channels * kKinds, kOut = kAnalysisPlanes * kKinds;
  if (x.shape(1) != kIn)
    throw py::value_error("x must have " + std::to_string(kIn) + " columns (obs_v1), got shape " +
                          shape_of(x));
  if (out.shape(0) != x.shape(0) || out.shape(1) != kOut)
    throw py::value_error("out must have shape (" + std::to_string(x.shape(0)) + ", " +
                          std::to_string(kOut) + "), got " + shape_of(out));
  if (overlap(out, x)) throw py::value_error("out must not share memory with x");
  const auto* px = static_cast<const float*>(x.data());
  auto* po = static_cast<float*>(out.mutable_data());
  const int64_t n = x.shape(0);
  // Safe without the GIL: the two checked buffers and `rules`, which the caller keeps alive.
  py::gil_scoped_release release;
  for (int64_t i = 0; i < n; ++i) analysis_planes(px + i * kIn, rules, po + i * kOut);
}

}  // namespace

void register_neural(py::module_& m) {
  m.def("first_layer_01", &first_layer_01_of, py::arg("x"), py::arg("rows"), py::arg("out"),
        "out = x @ w for x float32[n, 27 * planes] of 0/1 values, rows the first layer's row table "
        "(neural_net._first_layer_rows: w's rows, then each plane's prefix sums), out float32[n, "
        "H]; all C-contiguous. False (out partly written) when an input is neither 0 nor 1. GIL "
        "released while summing.");
  m.def("renamed_first_layers_01", &renamed_first_layers_01_of, py::arg("x"), py::arg("rows"),
        py::arg("tile"), py::arg("views"), py::arg("out"),
        "out[i, v] = x[i] renamed by views[v] (uint8[V, 4]: the suit each suit becomes, then 1 if "
        "the ranks are reversed; only the planes with tile[p] != 0 move) @ w, rows the first "
        "layer's row table as first_layer_01; out float32[n, V, H]. False (out partly written) "
        "when an input is neither 0 nor 1. GIL released while summing.");
  py::list names;
  for (const char* name : kAnalysisNames) names.append(name);
  m.attr("ANALYSIS_CHANNELS") = py::tuple(names);
  m.def("analysis_planes", &analysis_planes_of, py::arg("x"), py::arg("out"), py::arg("rules"),
        "Writes out[i] (float32[n, 19 * 27]) with obs_v2's analysis channels of the obs_v1 tensor "
        "x[i] (float32[n, 92 * 27]) at a table of `rules` (ScoringRules: hand shape, fan table); "
        "all C-contiguous. GIL released.");
}

}  // namespace xueliu::bindings
