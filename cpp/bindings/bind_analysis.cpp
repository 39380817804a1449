// _core.best_discards (查听); see python/xueliu/_core.pyi.
#include "analysis.hpp"
#include "convert.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace xueliu::bindings {

void register_analysis(py::module_& m) {
  m.def(
      "best_discards",
      [](const Hand& hand, const py::object& visible, int void_suit, const ScoringRules& rules) {
        Counts seen{};
        const bool has_visible = !visible.is_none();
        if (has_visible) seen = counts_from(visible, "visible");
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
