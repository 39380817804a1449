// _core.discard_options, jinzhang and the older tuple forms best_discards / best_discards_keys
// (查听); see python/xueliu/_core.pyi.
#include <unordered_map>

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

// visible= of the public call: None, notation text or a Hand (their tiles, melds included), or
// 27 counts.
bool visible_arg(const py::handle& obj, Counts& seen) {
  if (obj.is_none()) return false;
  if (PyUnicode_Check(obj.ptr())) {
    seen = parse_text(obj).held();
  } else if (py::isinstance<Hand>(obj)) {
    seen = obj.cast<const Hand&>().held();
  } else {
    seen = counts_arg(obj, "visible: ");
  }
  return true;
}

// The public result types (python/xueliu/hand.py registers them once, at import), and the
// Python objects the results share. The discard options are built here, not by a Python loop
// per option: that loop was most of the cost of a call on a hand not seen before.
//
// Every member is touched only while holding the GIL (the functions below never release it),
// which is what makes the shared caches safe. The struct is never freed: Python objects must not
// be released after the interpreter has finalised, which a static destructor could do.
struct Results {
  PyTypeObject* fan_result = nullptr;  // FanResult, WaitOption, DiscardOption: tuple subclasses
  PyTypeObject* wait_option = nullptr;
  PyTypeObject* discard_option = nullptr;
  py::object make_fan_result;  // _fan_result(fan tuple) -> FanResult, for a cache miss
  py::object names[kKinds + 1];  // "1m" .. "9s", then "wild" (kWildBit)
  py::object jinzhang[kKinds][5];  // the (name, remaining) pairs, shared
  py::object empty;                // ()
  // FanResult by content (multiplier and the packed rest); results do not depend on which
  // rules object made them, only on these values.
  struct Key {
    int64_t multiplier;
    uint64_t rest;
    int extra_fan;  // an additive 天胡 / 地胡 makes it differ from the extras' count
    bool operator==(const Key& o) const {
      return multiplier == o.multiplier && rest == o.rest && extra_fan == o.extra_fan;
    }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<uint64_t>()(k.rest * 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(k.multiplier));
    }
  };
  std::unordered_map<Key, py::object, KeyHash> fans;
  static constexpr size_t kMaxFans = 1 << 16;
};

Results* results = nullptr;

PyTypeObject* tuple_type(const py::handle& cls, int fields, const char* what) {
  if (!PyType_Check(cls.ptr()) ||
      !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), &PyTuple_Type))
    throw py::type_error(std::string(what) + " must be a tuple subclass (a NamedTuple)");
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  if (type->tp_dictoffset != 0 || py::len(cls.attr("_fields")) != static_cast<size_t>(fields))
    throw py::type_error(std::string(what) + " must be a NamedTuple of " + std::to_string(fields) +
                         " fields without __dict__");
  Py_INCREF(cls.ptr());
  return type;
}

// The results hold only strings, ints and other results (immutable, without __dict__), so none
// can be part of a reference cycle: they are taken off the cycle collector's list as they are
// made. A caller that keeps thousands of options (a bot's history, a benchmark) would otherwise
// have every collection walk all of them; CPython does the same for plain tuples of atoms, but
// only lazily and never for tuple subclasses.
inline PyObject* acyclic(PyObject* obj) {
  if (obj && PyObject_GC_IsTracked(obj)) PyObject_GC_UnTrack(obj);
  return obj;
}

// A new instance of a registered NamedTuple from `items` (references stolen), as
// tuple.__new__(cls, items) builds one.
PyObject* new_tuple(PyTypeObject* type, std::initializer_list<PyObject*> items) {
  PyObject* t = type->tp_alloc(type, static_cast<Py_ssize_t>(items.size()));
  if (!t) {
    for (PyObject* item : items) Py_XDECREF(item);
    throw py::error_already_set();
  }
  Py_ssize_t i = 0;
  for (PyObject* item : items) {
    if (!item) {
      Py_DECREF(t);
      throw py::error_already_set();
    }
    PyTuple_SET_ITEM(t, i++, item);
  }
  return acyclic(t);
}

PyObject* fan_result(const FanResult& r) {
  const Results::Key key{r.multiplier, uint64_t(uint16_t(r.fan)) | uint64_t(uint16_t(r.base_fan)) << 16 |
                                           uint64_t(uint8_t(r.gen)) << 32 |
                                           uint64_t(r.extras) << 40 | uint64_t(r.base) << 56,
                          r.extra_fan};
  auto it = results->fans.find(key);
  if (it == results->fans.end()) {
    if (results->fans.size() >= Results::kMaxFans) results->fans.clear();
    py::object made = results->make_fan_result(fan_tuple(r));
    acyclic(made.ptr());  // a FanResult holds ints, strings and tuples of strings
    it = results->fans.emplace(key, std::move(made)).first;
  }
  return it->second.inc_ref().ptr();
}

PyObject* discard_option(const DiscardOption& o) {
  PyObject* waits = results->empty.inc_ref().ptr();
  if (!o.waits.empty()) {
    Py_DECREF(waits);
    waits = PyTuple_New(static_cast<Py_ssize_t>(o.waits.size()));
    if (!waits) throw py::error_already_set();
    for (size_t i = 0; i < o.waits.size(); ++i) {
      const WaitOption& w = o.waits[i];
      PyObject* item;
      try {
        auto discard_win = py::reinterpret_steal<py::object>(fan_result(w.discard_win));
        auto self_draw = py::reinterpret_steal<py::object>(fan_result(w.self_draw));
        item = new_tuple(results->wait_option,
                         {results->names[w.kind].inc_ref().ptr(), PyLong_FromLong(w.remaining),
                          discard_win.release().ptr(), self_draw.release().ptr()});
      } catch (...) {
        Py_DECREF(waits);
        throw;
      }
      PyTuple_SET_ITEM(waits, static_cast<Py_ssize_t>(i), item);
    }
    acyclic(waits);
  }
  PyObject* jinzhang = results->empty.inc_ref().ptr();
  if (o.n_jinzhang) {
    Py_DECREF(jinzhang);
    jinzhang = PyTuple_New(o.n_jinzhang);
    if (!jinzhang) {
      Py_DECREF(waits);
      throw py::error_already_set();
    }
    for (int i = 0; i < o.n_jinzhang; ++i) {
      const JinzhangTile& j = o.jinzhang[i];
      PyObject* pair;
      if (j.kind < kKinds && j.remaining <= 4) {
        pair = results->jinzhang[j.kind][j.remaining].inc_ref().ptr();
      } else {  // the wild, whose pool may hold more than four
        pair = PyTuple_Pack(2, results->names[j.kind].ptr(),
                            py::int_(static_cast<int>(j.remaining)).ptr());
        if (!pair) {
          Py_DECREF(waits);
          Py_DECREF(jinzhang);
          throw py::error_already_set();
        }
      }
      PyTuple_SET_ITEM(jinzhang, i, pair);
    }
    acyclic(jinzhang);
  }
  return new_tuple(results->discard_option,
                   {results->names[o.discard].inc_ref().ptr(), PyLong_FromLong(o.shanten),
                    PyLong_FromLong(o.total_remaining), waits, jinzhang,
                    PyLong_FromLong(o.jinzhang_total)});
}

}  // namespace

void register_analysis(py::module_& m) {
  m.def(
      "_register_results",
      [](const py::handle& fan_cls, const py::handle& wait_cls, const py::handle& discard_cls,
         const py::object& make_fan_result) {
        auto* r = new Results();
        r->fan_result = tuple_type(fan_cls, 9, "FanResult");
        r->wait_option = tuple_type(wait_cls, 4, "WaitOption");
        r->discard_option = tuple_type(discard_cls, 6, "DiscardOption");
        r->make_fan_result = make_fan_result;
        r->empty = py::tuple();
        for (int k = 0; k < kKinds; ++k) {
          r->names[k] = py::reinterpret_steal<py::object>(
              PyUnicode_InternFromString(tile_name(k).c_str()));
          for (int left = 0; left <= 4; ++left)
            r->jinzhang[k][left] = py::reinterpret_steal<py::object>(
                acyclic(py::make_tuple(r->names[k], left).release().ptr()));
        }
        r->names[kWildBit] = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("wild"));
        results = r;  // an earlier registration stays alive (never freed; see Results)
      },
      py::arg("fan_result"), py::arg("wait_option"), py::arg("discard_option"),
      py::arg("make_fan_result"),
      "Registers the public result NamedTuples that discard_options builds (hand.py, once).");
  m.def(
      "discard_options",
      [](const py::handle& hand, const py::handle& visible, int void_suit,
         const ScoringRules& rules, const py::handle& melds) {
        if (!results) throw py::type_error("discard_options: the result types are not registered");
        Hand storage;
        const Hand& h = hand_arg(hand, melds, storage);
        Counts seen{};
        const bool has_visible = visible_arg(visible, seen);
        const auto options = best_discards(h, has_visible ? &seen : nullptr, void_suit, rules);
        PyObject* out = PyList_New(static_cast<Py_ssize_t>(options.size()));
        if (!out) throw py::error_already_set();
        for (size_t i = 0; i < options.size(); ++i) {
          PyObject* item;
          try {
            item = discard_option(options[i]);
          } catch (...) {
            Py_DECREF(out);
            throw;
          }
          PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), item);
        }
        return py::reinterpret_steal<py::list>(out);
      },
      py::arg("hand"), py::arg("visible"), py::arg("void"), py::arg("rules"),
      py::arg("melds") = py::none(),
      "查听 as a list of the registered DiscardOption, best first (see analysis.hpp).");
  m.def(
      "jinzhang",
      [](const py::handle& hand, const py::handle& visible, int void_suit, int shape,
         const py::handle& melds) {
        Hand storage;
        const Hand& h = hand_arg(hand, melds, storage);
        Counts seen{};
        const bool has_visible = visible_arg(visible, seen);
        const HandJinzhang j =
            jinzhang(h, has_visible ? &seen : nullptr, void_suit, hand_shape(shape));
        py::tuple out(j.n);
        for (int i = 0; i < j.n; ++i)
          out[static_cast<size_t>(i)] = py::make_tuple(tile_name(j.tiles[i].kind), j.tiles[i].remaining);
        return out;
      },
      py::arg("hand"), py::arg("visible"), py::arg("void"), py::arg("seven_pairs"),
      py::arg("melds") = py::none(),
      "进张 of a 13 - 3k hand: ((tile name, remaining), ...) in kind order. seven_pairs is the "
      "shape code (True / False: the default table).");
  m.def(
      "discard_options_wild",
      [](const py::handle& hand, const py::handle& visible, int void_suit,
         const ScoringRules& rules, int wild_left, bool wild_discard) {
        if (!results) throw py::type_error("discard_options: the result types are not registered");
        Hand storage;
        const Hand& h = hand_arg(hand, py::none(), storage);
        Counts seen{};
        const bool has_visible = visible_arg(visible, seen);
        const auto options = best_discards(h, has_visible ? &seen : nullptr, void_suit, rules,
                                           wild_left, wild_discard);
        py::list out;
        for (const DiscardOption& o : options)
          out.append(py::reinterpret_steal<py::object>(discard_option(o)));
        return out;
      },
      py::arg("hand"), py::arg("visible"), py::arg("void"), py::arg("rules"),
      py::arg("wild_left"), py::arg("wild_discard"),
      "查听 under wild rules (rules carries the wild set): visible holds natural tiles only, "
      "wild_left is the wilds not seen, wild_discard whether a wild may be discarded; the wild is "
      "named \"wild\".");
  m.def(
      "jinzhang_wild",
      [](const py::handle& hand, const py::handle& visible, int void_suit, int shape,
         long wild_kinds, bool wild_fifth_copy, int wild_left) {
        Hand storage;
        const Hand& h = hand_arg(hand, py::none(), storage);
        Counts seen{};
        const bool has_visible = visible_arg(visible, seen);
        const HandJinzhang j = jinzhang(h, has_visible ? &seen : nullptr, void_suit,
                                        hand_shape(shape),
                                        wild_rules_arg(wild_kinds, wild_fifth_copy), wild_left);
        py::tuple out(j.n);
        for (int i = 0; i < j.n; ++i) {
          const int k = j.tiles[i].kind;
          out[static_cast<size_t>(i)] =
              py::make_tuple(k == kWildBit ? std::string("wild") : tile_name(k), j.tiles[i].remaining);
        }
        return out;
      },
      py::arg("hand"), py::arg("visible"), py::arg("void"), py::arg("seven_pairs"),
      py::arg("wild_kinds"), py::arg("wild_fifth_copy"), py::arg("wild_left"),
      "进张 under wild rules: the natural kinds' (tile name, remaining), then (\"wild\", "
      "wild_left); visible holds natural tiles only.");
  m.def(
      "best_discards",
      [](const py::handle& hand, const py::object& visible, int void_suit,
         const ScoringRules& rules) {
        Hand storage;
        const Hand& h = hand_arg(hand, py::none(), storage);
        Counts seen{};
        const bool has_visible = !visible.is_none();
        if (has_visible) seen = counts_from(visible, "visible");
        const auto options = best_discards(h, has_visible ? &seen : nullptr, void_suit, rules);
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
      [](const py::handle& hand, const py::object& visible, int void_suit,
         const ScoringRules& rules) {
        Hand storage;
        const Hand& h = hand_arg(hand, py::none(), storage);
        Counts seen{};
        const bool has_visible = !visible.is_none();
        if (has_visible) seen = counts_from(visible, "visible");
        const auto options = best_discards(h, has_visible ? &seen : nullptr, void_suit, rules);
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
