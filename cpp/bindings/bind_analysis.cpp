// _core.best_discards (查听); see python/xueliu/_core.pyi.
#include <cstring>
#include <string>

#include "analysis.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

py::tuple fan_tuple(const FanResult& r) {
  return py::make_tuple(r.fan, r.multiplier, static_cast<int>(r.base), r.base_fan, r.gen,
                        static_cast<int>(r.extras));
}

Counts visible_from(const py::handle& obj) {
  if (!PyObject_CheckBuffer(obj.ptr()))
    throw py::type_error("visible must be None or 27 bytes, got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  py::buffer_info info = py::reinterpret_borrow<py::buffer>(obj).request();
  if (info.itemsize != 1 || info.size != kKinds || info.ndim != 1)
    throw py::value_error("visible must be 27 bytes (uint8), got " + std::to_string(info.size) +
                          " items of " + std::to_string(info.itemsize) + " bytes");
  Counts visible{};
  for (int k = 0; k < kKinds; ++k)
    visible[k] = static_cast<const uint8_t*>(info.ptr)[k * info.strides[0]];
  return visible;
}

}  // namespace

void register_analysis(py::module_& m) {
  m.def(
      "best_discards",
      [](const Hand& hand, const py::object& visible, int void_suit, const ScoringRules& rules) {
        Counts seen{};
        const bool has_visible = !visible.is_none();
        if (has_visible) seen = visible_from(visible);
        const auto options = best_discards(hand, has_visible ? &seen : nullptr, void_suit, rules);
        py::list out;
        for (const DiscardOption& o : options) {
          py::list waits;
          for (const WaitOption& w : o.waits)
            waits.append(py::make_tuple(w.kind, w.remaining, fan_tuple(w.discard_win),
                                        fan_tuple(w.self_draw)));
          out.append(py::make_tuple(o.discard, o.shanten, o.total_remaining, waits));
        }
        return out;
      },
      py::arg("hand"), py::arg("visible"), py::arg("void"), py::arg("rules"),
      "Per discard, best first: (discard kind, shanten, total remaining, [(wait kind, remaining, "
      "discard-win fan tuple, self-draw fan tuple), ...]).");
}

}  // namespace xueliu::bindings
