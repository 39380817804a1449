// _core.Hand, tile_name, parse_hand, hand_of, is_win, waits, shanten, tables_info (see
// python/xueliu/_core.pyi).
#include <pybind11/stl.h>

#include <cstring>
#include <string>

#include "convert.hpp"
#include "hand.hpp"
#include "notation.hpp"
#include "register.hpp"
#include "tables.hpp"
#include "tiles.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

// An int from any object with __index__ (Python int, numpy integer); TypeError otherwise.
long as_int(const py::handle& obj, const std::string& what) {
  PyObject* index = PyNumber_Index(obj.ptr());
  if (!index) {
    PyErr_Clear();
    throw py::type_error(what + " must be an int, got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  int overflow = 0;
  const long v = PyLong_AsLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (overflow) throw py::value_error(what + " is out of range");
  return v;
}

py::sequence as_sequence(const py::handle& obj, const std::string& what) {
  if (!PySequence_Check(obj.ptr()) || py::isinstance<py::str>(obj) || py::isinstance<py::bytes>(obj))
    throw py::type_error(what + " must be a sequence, got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  return py::reinterpret_borrow<py::sequence>(obj);
}

// (type, kind) pairs, or (type, kind, wilds) for a soft meld (docs/rules.md §12.3).
py::list melds_of(const Hand& hand) {
  py::list out;
  for (int i = 0; i < hand.n_melds; ++i) {
    const Meld& meld = hand.melds[i];
    if (meld.wilds)
      out.append(py::make_tuple(static_cast<int>(meld.type), meld.kind, meld.wilds));
    else
      out.append(py::make_tuple(static_cast<int>(meld.type), meld.kind));
  }
  return out;
}

py::bytes counts_of(const Hand& hand) {
  return py::bytes(reinterpret_cast<const char*>(hand.counts.data()), kKinds);
}

}  // namespace

void read_melds(const py::handle& melds, Hand& hand) {
  auto seq = as_sequence(melds, "melds");
  if (seq.size() > static_cast<size_t>(kMaxMelds))
    throw py::value_error(std::to_string(seq.size()) + " melds (at most 4)");
  for (size_t i = 0; i < seq.size(); ++i) {
    auto pair = as_sequence(seq[i], "meld " + std::to_string(i));
    if (pair.size() != 2 && pair.size() != 3)
      throw py::value_error("meld " + std::to_string(i) +
                            " must be a (type, kind) pair or a (type, kind, wilds) triple");
    const long type = as_int(pair[0], "meld " + std::to_string(i) + " type");
    const long kind = as_int(pair[1], "meld " + std::to_string(i) + " kind");
    if (type < 0 || type > 2)
      throw py::value_error("meld " + std::to_string(i) + " has type " + std::to_string(type) +
                            " (0 peng, 1 kong, 2 concealed kong)");
    if (kind < 0 || kind >= kKinds)
      throw py::value_error("meld " + std::to_string(i) + " has kind " + std::to_string(kind) +
                            " (outside 0..26)");
    long wilds = 0;
    if (pair.size() == 3) {
      wilds = as_int(pair[2], "meld " + std::to_string(i) + " wilds");
      const long most = type == 0 ? 2 : 3;  // at least one natural tile (docs/rules.md §12.3)
      if (wilds < 0 || wilds > most)
        throw py::value_error("meld " + std::to_string(i) + " has " + std::to_string(wilds) +
                              " wilds (0.." + std::to_string(most) + ")");
    }
    hand.melds[i].type = static_cast<MeldType>(type);
    hand.melds[i].kind = static_cast<uint8_t>(kind);
    hand.melds[i].wilds = static_cast<uint8_t>(wilds);
  }
  hand.n_melds = static_cast<uint8_t>(seq.size());
}

Hand make_hand(const py::handle& counts, const py::handle& melds, int wilds) {
  Hand hand;
  hand.counts = counts_from(counts, "counts");
  read_melds(melds, hand);
  if (wilds < 0 || wilds > 14)
    throw py::value_error("wilds is " + std::to_string(wilds) + " (0..14)");
  hand.wilds = static_cast<uint8_t>(wilds);
  validate_hand(hand);
  return hand;
}

WildRules wild_rules_arg(long kinds, bool fifth_copy) {
  if (kinds < 0 || kinds >= (1L << (kKinds + 1)))
    throw py::value_error("wild_kinds is not a mask of kinds 0..27: " + std::to_string(kinds));
  WildRules wild;
  wild.kinds = static_cast<uint32_t>(kinds);
  wild.fifth_copy = fifth_copy;
  return wild;
}

Counts counts_from(const py::handle& obj, const char* what) {
  Counts counts{};
  if (PyBytes_Check(obj.ptr()) && PyBytes_GET_SIZE(obj.ptr()) == kKinds) {  // the common case
    std::memcpy(counts.data(), PyBytes_AS_STRING(obj.ptr()), kKinds);
    return counts;
  }
  if (PyObject_CheckBuffer(obj.ptr()) && !PyUnicode_Check(obj.ptr())) {
    py::buffer_info info = py::reinterpret_borrow<py::buffer>(obj).request();
    if (info.itemsize != 1 || info.size != kKinds || info.ndim != 1)
      throw py::value_error(std::string(what) + " must be 27 bytes (uint8), got " +
                            std::to_string(info.size) + " items of " +
                            std::to_string(info.itemsize) + " bytes");
    if (info.strides[0] == 1) {
      std::memcpy(counts.data(), info.ptr, kKinds);
    } else {
      for (int k = 0; k < kKinds; ++k)
        counts[k] = static_cast<const uint8_t*>(info.ptr)[k * info.strides[0]];
    }
    return counts;
  }
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj))
    throw py::type_error(std::string(what) + " must be 27 bytes or a sequence of 27 ints, got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  auto seq = py::reinterpret_borrow<py::sequence>(obj);
  if (seq.size() != static_cast<size_t>(kKinds))
    throw py::value_error(std::string(what) + " must hold 27 counts, got " +
                          std::to_string(seq.size()));
  for (int k = 0; k < kKinds; ++k) {
    const long v = as_int(seq[k], std::string(what) + " item");
    if (v < 0 || v > 4)
      throw py::value_error(std::string(what) + ": count of " + tile_name(k) + " is " +
                            std::to_string(v) + " (0..4)");
    counts[k] = static_cast<uint8_t>(v);
  }
  return counts;
}

void register_hand(py::module_& m) {
  py::class_<Hand>(m, "Hand",
                   "A validated hand: 27 concealed natural counts, up to four melds (a soft meld "
                   "with its wild count) and a count of concealed wilds.")
      .def(py::init([](const py::object& counts, const py::object& melds, int wilds) {
             return make_hand(counts, melds, wilds);
           }),
           py::arg("counts"), py::arg("melds") = py::tuple(), py::arg("wilds") = 0)
      .def_property_readonly("counts", &counts_of)
      .def_property_readonly("melds", &melds_of)
      .def_property_readonly("wilds", [](const Hand& h) { return static_cast<int>(h.wilds); })
      .def("__eq__",
           [](const Hand& a, const Hand& b) {
             if (a.counts != b.counts || a.n_melds != b.n_melds || a.wilds != b.wilds) return false;
             for (int i = 0; i < a.n_melds; ++i)
               if (a.melds[i].type != b.melds[i].type || a.melds[i].kind != b.melds[i].kind ||
                   a.melds[i].wilds != b.melds[i].wilds)
                 return false;
             return true;
           },
           py::is_operator())
      .def("__repr__",
           [](const Hand& h) {
             std::string s = "_core.Hand(";
             for (int k = 0; k < kKinds; ++k)
               for (int c = 0; c < h.counts[k]; ++c) s += tile_name(k);
             for (int i = 0; i < h.n_melds; ++i)
               s += " (" + std::to_string(static_cast<int>(h.melds[i].type)) + ", " +
                    tile_name(h.melds[i].kind) +
                    (h.melds[i].wilds ? ", " + std::to_string(h.melds[i].wilds) + " wilds" : "") +
                    ")";
             if (h.wilds) s += " + " + std::to_string(h.wilds) + " wilds";
             return s + ")";
           })
      .def(py::pickle(
          [](const Hand& h) -> py::tuple {
            if (h.wilds) return py::make_tuple(counts_of(h), melds_of(h), static_cast<int>(h.wilds));
            return py::make_tuple(counts_of(h), melds_of(h));
          },
          [](const py::tuple& t) {
            if (t.size() != 2 && t.size() != 3)
              throw py::value_error("Hand state must be (counts, melds) or (counts, melds, "
                                    "wilds), got " + std::to_string(t.size()) + " items");
            return make_hand(t[0], t[1], t.size() == 3 ? t[2].cast<int>() : 0);
          }));
  m.attr("Hand").attr("__hash__") = py::none();

  m.def("tile_name", &tile_name, py::arg("kind"));
  m.def("parse_hand", [](const py::str& text) { return parse_text(text); }, py::arg("text"),
        "docs/rules.md §1 notation as a Hand (the tile count is not checked); ValueError naming the "
        "problem.");
  m.def("hand_from_counts", &hand_from_counts, py::arg("counts"), py::arg("melds") = py::none(),
        "A Hand from 27 counts (uint8 array, sequence of ints or bytes) and None or (type, kind) "
        "meld pairs, with tiles.py's messages.");
  m.def(
      "hand_of",
      [](const py::handle& hand, const py::handle& melds) {
        Hand storage;
        return hand_arg(hand, melds, storage);
      },
      py::arg("hand"), py::arg("melds") = py::none(),
      "The Hand of a public call's hand argument: a Hand, notation text, a list or tuple of tile "
      "names, or 27 counts (melds beside the last two).");
  // The single calls take any hand argument (hand_of) and convert it natively: a caller that
  // holds tile names or counts pays no interpreted loop. Their third argument (named
  // seven_pairs, as before the table shapes) is the shape code of tiles.hpp's hand_shape:
  // True / False are the default table with and without the pairs family.
  m.def(
      "is_win",
      [](const py::handle& hand, int void_suit, const py::handle& shape, const py::handle& melds) {
        Hand storage;
        return is_win(hand_arg(hand, melds, storage), void_suit, shape_arg(shape));
      },
      py::arg("hand"), py::arg("void"), py::arg("seven_pairs"), py::arg("melds") = py::none());
  m.def(
      "waits",
      [](const py::handle& hand, int void_suit, const py::handle& shape, const py::handle& melds) {
        Hand storage;
        return waits(hand_arg(hand, melds, storage), void_suit, shape_arg(shape));
      },
      py::arg("hand"), py::arg("void"), py::arg("seven_pairs"), py::arg("melds") = py::none(),
      "Bitmask of the waiting kinds (bit k = kind k).");
  m.def(
      "shanten",
      [](const py::handle& hand, int void_suit, const py::handle& shape, const py::handle& melds) {
        Hand storage;
        return shanten(hand_arg(hand, melds, storage), void_suit, shape_arg(shape));
      },
      py::arg("hand"), py::arg("void"), py::arg("seven_pairs"), py::arg("melds") = py::none());
  // docs/rules.md §12.5 notation: the physical tiles (红中 is kind 27; a soft meld lists its wilds).
  m.def(
      "parse_physical",
      [](const py::str& text) {
        const PhysicalHand h = parse_physical_text(text);
        py::list melds;
        for (int i = 0; i < h.n_melds; ++i) {
          const PhysicalMeld& meld = h.melds[i];
          py::tuple wilds(meld.n_wilds);
          for (int w = 0; w < meld.n_wilds; ++w) wilds[w] = py::int_(meld.wild_tiles[w]);
          melds.append(py::make_tuple(static_cast<int>(meld.type), meld.kind, wilds));
        }
        return py::make_tuple(
            py::bytes(reinterpret_cast<const char*>(h.counts.data()), kPhysicalKinds), melds);
      },
      py::arg("text"),
      "(28 counts as bytes, melds as (type, kind, wild kinds)) of §12 notation; ValueError "
      "naming the problem.");
  m.def(
      "format_physical", [](const py::str& text) { return format_physical(parse_physical_text(text)); },
      py::arg("text"), "The canonical text of §12 notation (docs/rules.md §12.5).");
  m.def(
      "hand_of_physical",
      [](const py::str& text, long wild_kinds) {
        const WildRules wild = wild_rules_arg(wild_kinds, false);
        Hand hand;
        try {
          hand = physical_to_hand(parse_physical_text(text), wild);
          validate_hand(hand);
        } catch (const std::invalid_argument& e) {
          throw py::value_error(e.what());
        }
        return hand;
      },
      py::arg("text"), py::arg("wild_kinds"),
      "The Hand of §12 notation under a wild set (bit k: kind k is wild; bit 27: 红中).");
  // The same under wild rules (docs/rules.md §12): a separate entry point, so that the natural
  // calls above parse no more arguments than they always have (a single call's cost is mostly
  // its argument handling).
  m.def(
      "is_win_wild",
      [](const py::handle& hand, int void_suit, const py::handle& shape, long wild_kinds,
         bool wild_fifth_copy) {
        Hand storage;
        return is_win(hand_arg(hand, py::none(), storage), void_suit, shape_arg(shape),
                      wild_rules_arg(wild_kinds, wild_fifth_copy));
      },
      py::arg("hand"), py::arg("void"), py::arg("seven_pairs"), py::arg("wild_kinds"),
      py::arg("wild_fifth_copy") = false);
  m.def(
      "waits_wild",
      [](const py::handle& hand, int void_suit, const py::handle& shape, long wild_kinds,
         bool wild_fifth_copy) {
        Hand storage;
        return waits(hand_arg(hand, py::none(), storage), void_suit, shape_arg(shape),
                     wild_rules_arg(wild_kinds, wild_fifth_copy));
      },
      py::arg("hand"), py::arg("void"), py::arg("seven_pairs"), py::arg("wild_kinds"),
      py::arg("wild_fifth_copy") = false,
      "Bitmask of the waiting natural kinds (bit k = kind k).");
  m.def(
      "shanten_wild",
      [](const py::handle& hand, int void_suit, const py::handle& shape, long wild_kinds,
         bool wild_fifth_copy) {
        Hand storage;
        return shanten(hand_arg(hand, py::none(), storage), void_suit, shape_arg(shape),
                       wild_rules_arg(wild_kinds, wild_fifth_copy));
      },
      py::arg("hand"), py::arg("void"), py::arg("seven_pairs"), py::arg("wild_kinds"),
      py::arg("wild_fifth_copy") = false);
  m.def("tables_info", []() {
    const SuitTables& t = SuitTables::get();
    py::dict d;
    d["bytes"] = static_cast<double>(t.bytes());
    d["build_seconds"] = t.build_seconds();
    return d;
  }, "{\"bytes\": table memory, \"build_seconds\": time the first use spent building them}.");
  m.def("_check_tables", []() {
    const SuitTables& t = SuitTables::get();
    // Safe without the GIL: self_check only reads the tables (built above, never written
    // since) and touches no Python object.
    py::gil_scoped_release release;
    return t.self_check();
  }, "Test hook: the number of table keys that disagree with the exact DP (0 when all agree).");
  m.def(
      "_suit_costs",
      [](const py::object& counts9, const py::object& caps9, bool use_table) {
        auto read9 = [](const py::object& obj, const char* what) {
          auto seq = as_sequence(obj, what);
          if (seq.size() != 9)
            throw py::value_error(std::string(what) + " must hold 9 ints, got " +
                                  std::to_string(seq.size()));
          std::array<uint8_t, 9> out{};
          for (int r = 0; r < 9; ++r) {
            const long v = as_int(seq[r], what);
            if (v < 0 || v > 4)
              throw py::value_error(std::string(what) + "[" + std::to_string(r) + "] is " +
                                    std::to_string(v) + " (0..4)");
            out[r] = static_cast<uint8_t>(v);
          }
          return out;
        };
        const auto counts = read9(counts9, "counts9");
        int n = 0;
        for (auto c : counts) n += c;
        if (n > kMaxSuitTiles)
          throw py::value_error("counts9 holds " + std::to_string(n) + " tiles (at most 14)");
        std::array<int, 10> out{};
        if (use_table) {
          if (!caps9.is_none()) throw py::value_error("the table has no caps");
          const uint64_t word = SuitTables::get().costs(suit_key(counts.data()));
          for (int slot = 0; slot < 10; ++slot)
            out[slot] = SuitTables::cost_of(word, slot / 2, slot % 2);
        } else {
          std::array<uint8_t, 9> caps{4, 4, 4, 4, 4, 4, 4, 4, 4};
          if (!caps9.is_none()) caps = read9(caps9, "caps9");
          out = suit_costs_dp(counts.data(), caps.data());
        }
        return out;
      },
      py::arg("counts9"), py::arg("caps9") = py::none(), py::arg("use_table") = true,
      "Test hook: the 10 costs f[m, p] (index 2m + p) of one suit, from the table or from the "
      "capped DP (caps9: most copies per rank a configuration may use).");
}

}  // namespace xueliu::bindings
