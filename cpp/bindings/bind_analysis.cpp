// _core.best_discards (查听); see python/xueliu/_core.pyi.
#include "analysis.hpp"
#include "convert.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace xueliu::bindings {

namespace {

// One wait as one int, so Python can map it to a cached WaitOption with a single dict lookup
// (the multipliers are not in it: they are a function of the fan and the rules). Bits, low first:
// kind 5, remaining 3, base pattern 5, discard-win extras 10, self-draw adds 自摸 1, gen 6,
// base_fan 10, discard-win fan 12, self-draw fan 12. Fields that do not fit (no rules the bindings
// build make them) fall back to the tuple (kind, remaining, discard-win fan tuple, self-draw fan
// tuple).
py::object wait_key(const WaitOption& w) {
  const FanResult &a = w.discard_win, &b = w.self_draw;
  const unsigned zimo = 1u << kZimo;
  const bool fits = a.gen >= 0 && a.gen < 64 && a.base_fan >= 0 && a.base_fan < 1024 &&
                    a.fan >= 0 && a.fan < 4096 && b.fan >= 0 && b.fan < 4096 &&
                    a.extras < 1024 && a.base == b.base && a.base_fan == b.base_fan &&
                    a.gen == b.gen && (b.extras & ~zimo) == a.extras;
  if (!fits)
    return py::make_tuple(w.kind, w.remaining, fan_tuple(w.discard_win), fan_tuple(w.self_draw));
  const bool adds_zimo = (b.extras & zimo) && !(a.extras & zimo);
  const uint64_t key = uint64_t(w.kind) | uint64_t(w.remaining) << 5 |
                       uint64_t(a.base) << 8 | uint64_t(a.extras) << 13 |
                       uint64_t(adds_zimo) << 23 | uint64_t(a.gen) << 24 |
                       uint64_t(a.base_fan) << 30 | uint64_t(a.fan) << 40 |
                       uint64_t(b.fan) << 52;
  return py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(key));
}

}  // namespace

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
  m.def(
      "best_discards_keys",
      [](const Hand& hand, const py::object& visible, int void_suit, const ScoringRules& rules) {
        Counts seen{};
        const bool has_visible = !visible.is_none();
        if (has_visible) seen = counts_from(visible, "visible");
        const auto options = best_discards(hand, has_visible ? &seen : nullptr, void_suit, rules);
        py::list out(options.size());
        size_t i = 0;
        for (const DiscardOption& o : options) {
          py::tuple waits(o.waits.size());
          for (size_t j = 0; j < o.waits.size(); ++j) waits[j] = wait_key(o.waits[j]);
          out[i++] = py::make_tuple(o.discard, o.shanten, o.total_remaining, std::move(waits));
        }
        return out;
      },
      py::arg("hand"), py::arg("visible"), py::arg("void"), py::arg("rules"),
      "best_discards with each wait as one key: (discard kind, shanten, total remaining, "
      "(wait key, ...)); a key is a packed int (bits in bind_analysis.cpp) or the tuple (wait "
      "kind, remaining, discard-win fan tuple, self-draw fan tuple).");
}

}  // namespace xueliu::bindings
