// _core.batch_*: the single-hand calls over numpy arrays (see python/xueliu/_core.pyi).
//
// Inputs: counts uint8[N, 27], melds int16[N, 4] (-1 none, else 27 * type + kind, plus 81 * w for
// a soft meld holding w wilds; -1 may sit anywhere and is skipped), void int8[N] (-1 none or
// 0..2), and with wild rules (docs/rules.md §12) wilds uint8[N]: the concealed wilds of each row,
// whatever their physical kinds (a wild kind's column of counts is 0). Arrays of another integer dtype or
// layout are converted first (range-checked before narrowing); other dtypes and shapes are a
// ValueError naming the shape or dtype. Every row is validated like the single call would validate
// it, and the first bad row is reported as "row i: <the single call's message>".
#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "bits.hpp"  // also the little-endian guard for the word tricks below
#include "convert.hpp"
#include "fan.hpp"
#include "hand.hpp"
#include "register.hpp"
#include "tiles.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

enum class Call { IsWin, Waits, Shanten, Evaluate };

// The tile count each call accepts, as check_tile_count takes it (base = the shape's hand size +
// extra); indexed by Call.
struct CallCount {
  const char* name;
  int extra;
  bool or_one_more;
};
constexpr CallCount kCallCounts[] = {
    {"is_win", 1, false}, {"waits", 0, false}, {"shanten", 0, true}, {"evaluate", 1, false}};

// The table shape of a batch call, with what load_row reads of it per row: the tile counts
// wanted and, as count words (bits.hpp's layout), 0xFF in each byte of a kind not in play.
struct RowShape {
  const HandShape* shape;
  const WildRules* wild;
  int base = 13;
  uint64_t absent[4] = {0, 0, 0, 0};  // also every wild kind's byte: no natural count there
  bool masked = false;                // some byte of absent is set
};

RowShape row_shape(const HandShape& shape, const WildRules& wild, Call call) {
  RowShape r;
  r.shape = &shape;
  r.wild = &wild;
  r.base = shape.tiles + kCallCounts[static_cast<int>(call)].extra;
  uint8_t bytes[kKinds + 5] = {};
  for (int k = 0; k < kKinds; ++k)
    bytes[k] = (shape.kinds >> k & 1) && !(wild.kinds >> k & 1) ? 0 : 0xFF;
  load_count_words(bytes, r.absent);
  r.masked = (r.absent[0] | r.absent[1] | r.absent[2] | r.absent[3]) != 0;
  return r;
}

std::string shape_of(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

// A C-contiguous array of T with the given trailing width (0: one-dimensional), converted from
// any integer array with every value checked against [lo, hi] before narrowing.
template <typename T>
py::array_t<T> as_rows(const py::object& obj, const char* name, py::ssize_t width, long lo,
                       long hi, const char* shape_text) {
  py::array a = py::array::ensure(obj);
  if (!a) {
    PyErr_Clear();
    throw py::type_error(std::string(name) + " must be a numpy array or convertible to one");
  }
  const bool ok_shape = width ? (a.ndim() == 2 && a.shape(1) == width) : a.ndim() == 1;
  if (!ok_shape)
    throw py::value_error(std::string(name) + " must have shape " + shape_text + ", got " +
                          shape_of(a));
  const char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::value_error(std::string(name) + " must hold integers, got dtype " +
                          std::string(py::str(a.dtype())));
  if (a.dtype().is(py::dtype::of<T>()) && (a.flags() & py::array::c_style))
    return py::reinterpret_borrow<py::array_t<T>>(a);
  // Slow path: widen, check, narrow.
  auto wide = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!wide) throw py::error_already_set();
  const py::ssize_t n = a.shape(0), w = width ? width : 1;
  py::array_t<T> out = width ? py::array_t<T>({n, width}) : py::array_t<T>(n);
  const int64_t* src = wide.data();
  T* dst = out.mutable_data();
  for (py::ssize_t i = 0; i < n * w; ++i) {
    if (src[i] < lo || src[i] > hi) {
      const py::ssize_t row = i / w, col = i % w;
      std::string what;
      if (width == kKinds)
        what = "count of " + tile_name(static_cast<int>(col)) + " is " + std::to_string(src[i]) +
               " (0..4)";
      else if (width)
        what = "meld code " + std::to_string(src[i]) + " (-1 or 27 * type + kind in 0..80)";
      else
        what = "void " + std::to_string(src[i]) + " (-1 none or 0..2)";
      throw py::value_error("row " + std::to_string(row) + ": " + what);
    }
    dst[i] = static_cast<T>(src[i]);
  }
  return out;
}

struct Batch {
  py::array_t<uint8_t> counts_arr;
  py::array_t<int16_t> melds_arr;
  py::array_t<int8_t> void_arr;
  py::array_t<uint8_t> wilds_arr;
  const uint8_t* counts = nullptr;
  const int16_t* melds = nullptr;  // null: no melds
  const int8_t* voids = nullptr;   // null: no void
  const uint8_t* wilds = nullptr;  // null: no wilds
  size_t n = 0;
};

constexpr int kMaxMeldCode = 27 * 3 + 81 * 3 - 1;  // a concealed kong of 9s with three wilds

Batch read_batch(const py::object& counts, const py::object& melds, const py::object& voids,
                 const py::object& wilds = py::none()) {
  Batch b;
  b.counts_arr = as_rows<uint8_t>(counts, "counts", kKinds, 0, 4, "(N, 27)");
  b.n = static_cast<size_t>(b.counts_arr.shape(0));
  b.counts = b.counts_arr.data();
  if (!melds.is_none()) {
    b.melds_arr = as_rows<int16_t>(melds, "melds", kMaxMelds, -1, kMaxMeldCode, "(N, 4)");
    if (static_cast<size_t>(b.melds_arr.shape(0)) != b.n)
      throw py::value_error("melds has " + std::to_string(b.melds_arr.shape(0)) +
                            " rows but counts has " + std::to_string(b.n));
    b.melds = b.melds_arr.data();
  }
  if (!voids.is_none()) {
    b.void_arr = as_rows<int8_t>(voids, "void", 0, -1, 2, "(N,)");
    if (static_cast<size_t>(b.void_arr.shape(0)) != b.n)
      throw py::value_error("void has " + std::to_string(b.void_arr.shape(0)) +
                            " rows but counts has " + std::to_string(b.n));
    b.voids = b.void_arr.data();
  }
  if (!wilds.is_none()) {
    b.wilds_arr = as_rows<uint8_t>(wilds, "wilds", 0, 0, 14, "(N,)");
    if (static_cast<size_t>(b.wilds_arr.shape(0)) != b.n)
      throw py::value_error("wilds has " + std::to_string(b.wilds_arr.shape(0)) +
                            " rows but counts has " + std::to_string(b.n));
    b.wilds = b.wilds_arr.data();
  }
  return b;
}

// A meld of a batch row: 27 * type + kind + 81 * wilds.
inline Meld meld_of_code(int code) {
  Meld m;
  m.wilds = static_cast<uint8_t>(code / 81);
  m.type = static_cast<MeldType>(code % 81 / kKinds);
  m.kind = static_cast<uint8_t>(code % kKinds);
  return m;
}

// Bytes above 4 in a word (each byte: high bit set iff the byte is > 4).
inline uint64_t bytes_above_4(uint64_t x) {
  return (x | ((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7B7B7B7B7B7B7B7BULL)) & 0x8080808080808080ULL;
}
inline int byte_sum(uint64_t x) {  // bytes <= 4 each: no carries
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

// Loads row i into `hand` and checks it as the single call would. False: the row is bad (the
// message comes from row_error, off the fast path). kCode: tiles.hpp's fixed_shape (the default
// table's checks of the suits in play and the sets fold away).
// kWild: the call has wild rules (rows may hold wilds and soft melds); without, the checks of
// wilds fold away and the row loads as it always has.
template <int kCode, bool kWild>
inline bool load_row(const Batch& b, size_t i, Call call, const RowShape& rs, Hand& hand,
                     int& void_suit) {
  const HandShape& shape = fixed_shape<kCode>(*rs.shape);
  // Four 8-byte moves at the offsets load_count_words (bits.hpp) reads, 0, 8, 16 and 19, rather
  // than a 27-byte memcpy: hand.cpp's word loads of hand.counts then forward from these stores
  // instead of stalling on a store they only partly overlap. The words are checked straight from
  // the registers; reloading them from hand.counts costs a measured 2 ns a row in batch_shanten.
  const uint8_t* src = b.counts + kKinds * i;
  uint8_t* dst = hand.counts.data();
  uint64_t w[4];
  std::memcpy(&w[0], src, 8);
  std::memcpy(&w[1], src + 8, 8);
  std::memcpy(&w[2], src + 16, 8);
  std::memcpy(&w[3], src + 19, 8);
  std::memcpy(dst, &w[0], 8);
  std::memcpy(dst + 8, &w[1], 8);
  std::memcpy(dst + 16, &w[2], 8);
  std::memcpy(dst + 19, &w[3], 8);
  w[3] >>= 40;  // counts 24..26 only, as load_count_words leaves them
  if (bytes_above_4(w[0]) | bytes_above_4(w[1]) | bytes_above_4(w[2]) | bytes_above_4(w[3]))
    return false;
  // A tile of a suit not in play or a natural count of a wild kind (all zero masks at the
  // default table without wilds).
  if ((shape.absent || (kWild && rs.masked)) &&
      ((w[0] & rs.absent[0]) | (w[1] & rs.absent[1]) | (w[2] & rs.absent[2]) |
       (w[3] & rs.absent[3])))
    return false;
  const int n = byte_sum(w[0]) + byte_sum(w[1]) + byte_sum(w[2]) + byte_sum(w[3]);
  int k = 0;
  if (b.melds) {
    const int16_t* row = b.melds + kMaxMelds * i;
    for (int j = 0; j < kMaxMelds; ++j) {
      const int code = row[j];
      if (code == -1) continue;
      if (code < 0 || code > (kWild ? kMaxMeldCode : 80)) return false;
      hand.melds[k] = meld_of_code(code);
      if (kWild) {
        if (hand.melds[k].wilds >= hand.melds[k].size()) return false;
        if (rs.wild->kinds >> hand.melds[k].kind & 1) return false;
      }
      if (shape.absent && !(shape.kinds >> hand.melds[k].kind & 1)) return false;
      ++k;
    }
    if (shape.sets < kMaxMelds && k > shape.sets) return false;
    for (int j = 0; j < k; ++j) {
      int held = hand.counts[hand.melds[j].kind];  // physical copies: a meld's naturals
      for (int l = 0; l < k; ++l)
        if (hand.melds[l].kind == hand.melds[j].kind) held += hand.melds[l].naturals();
      if (held > 4) return false;
    }
  }
  hand.n_melds = static_cast<uint8_t>(k);
  if (kWild) hand.wilds = b.wilds ? b.wilds[i] : 0;
  void_suit = b.voids ? b.voids[i] : kNoVoid;
  if (void_suit < -1 || void_suit > 2) return false;
  if (shape.absent && void_suit != kNoVoid) return false;  // no 定缺 with < 3 suits
  const CallCount& count = kCallCounts[static_cast<int>(call)];
  const int want = shape.tiles + count.extra - 3 * k;
  const int tiles = n + (kWild ? hand.wilds : 0);
  return tiles == want || (count.or_one_more && tiles == want + 1);
}

// The message the single call would raise for a bad row.
std::string row_error(const Batch& b, size_t i, Call call, const RowShape& rs) {
  Hand hand;
  std::memcpy(hand.counts.data(), b.counts + kKinds * i, kKinds);
  int k = 0;
  if (b.melds) {
    for (int j = 0; j < kMaxMelds; ++j) {
      const int code = b.melds[kMaxMelds * i + j];
      if (code == -1) continue;
      if (!rs.wild->any() && (code < 0 || code > 80))
        return "meld code " + std::to_string(code) + " (-1 or 27 * type + kind in 0..80)";
      if (code < 0 || code > kMaxMeldCode || code / 81 >= (code % 81 / kKinds == 0 ? 3 : 4))
        return "meld code " + std::to_string(code) +
               " (-1 or 27 * type + kind in 0..80, plus 81 * wilds for a soft meld)";
      hand.melds[k] = meld_of_code(code);
      ++k;
    }
  }
  hand.n_melds = static_cast<uint8_t>(k);
  hand.wilds = b.wilds ? b.wilds[i] : 0;
  const int void_suit = b.voids ? b.voids[i] : kNoVoid;
  const CallCount& count = kCallCounts[static_cast<int>(call)];
  try {
    validate_hand(hand);
    check_wilds(hand, *rs.wild);
    validate_void(void_suit);
    check_shape(hand, void_suit, *rs.shape);
    check_tile_count(count.name, hand, rs.base, count.or_one_more);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  // Not reached while load_row rejects only what the checks above reject.
  return std::string(count.name) + ": row rejected by the batch checks";
}

struct RowFailure {
  size_t row = std::numeric_limits<size_t>::max();
  std::string message;
};

// Runs body(lo, hi, failure) over `threads` slices of the rows, then raises the first failure.
// Releasing the GIL around the loop is safe: the workers touch no Python object or reference
// count. They read the input buffers and write the output buffers, whose arrays the caller holds
// until this returns; they read the ScoringRules, which has no setters; and each row is copied
// into a local Hand before it is checked, so a Python thread writing into the caller's arrays
// meanwhile can change answers but cannot slip an unchecked row past load_row.
template <typename Body>
void run_rows(size_t n, int threads, const Body& body) {
  if (threads < 1) throw py::value_error("threads must be >= 1, got " + std::to_string(threads));
  const size_t parts = std::max<size_t>(1, std::min<size_t>(threads, n / 1024 + 1));
  std::vector<RowFailure> failures(parts);
  {
    py::gil_scoped_release release;
    if (parts == 1) {
      body(0, n, failures[0]);
    } else {
      std::vector<std::thread> pool;
      pool.reserve(parts);
      const size_t step = (n + parts - 1) / parts;
      auto slice = [&](size_t p) {
        body(std::min(n, p * step), std::min(n, (p + 1) * step), failures[p]);
      };
      for (size_t p = 1; p < parts; ++p) {
        try {
          pool.emplace_back(slice, p);
        } catch (const std::system_error&) {
          slice(p);  // no thread to be had: do this slice here rather than fail
        }
      }
      slice(0);
      for (auto& t : pool) t.join();
    }
  }
  const RowFailure* first = nullptr;
  for (const auto& f : failures)
    if (f.row != std::numeric_limits<size_t>::max() && (!first || f.row < first->row)) first = &f;
  if (first) throw py::value_error("row " + std::to_string(first->row) + ": " + first->message);
}

// The rows of one call: load and check each row, then `compute(i, hand, void)`; a false return
// from compute or an exception marks the row bad. Workers stop at their first bad row.
template <bool kWild, typename Compute>
void for_rows(const Batch& b, Call call, const HandShape& shape, const WildRules& wild,
              int threads, const Compute& compute) {
  if (!kWild && b.wilds)  // wilds without wild rules: the first row holding one is bad
    for (size_t i = 0; i < b.n; ++i)
      if (b.wilds[i])
        throw py::value_error("row " + std::to_string(i) + ": " + row_error(b, i, call, row_shape(shape, wild, call)));
  const RowShape rs = row_shape(shape, wild, call);
  with_shape_code(shape, [&](auto code) {
    run_rows(b.n, threads, [&](size_t lo, size_t hi, RowFailure& failure) {
      Hand hand;
      int void_suit = kNoVoid;
      for (size_t i = lo; i < hi; ++i) {
        if (!load_row<decltype(code)::value, kWild>(b, i, call, rs, hand, void_suit)) {
          failure.row = i;
          failure.message = row_error(b, i, call, rs);
          return;
        }
        try {
          compute(i, hand, void_suit);
        } catch (const std::exception& e) {
          failure.row = i;
          failure.message = e.what();
          return;
        }
      }
    });
  });
}

// batch_is_win, batch_waits and batch_shanten: the same arguments, one `Out` per row from
// row(hand, void, shape). Their `seven_pairs` argument is the shape code (tiles.hpp's
// hand_shape; True / False: the default table with and without the pairs family).
template <Call call, typename Out, typename Row, typename NaturalRow>
void def_hand_call(py::module_& m, const char* name, Row row, NaturalRow natural_row,
                   const char* doc) {
  m.def(
      name,
      [row, natural_row](const py::object& counts, const py::object& melds,
                         const py::object& voids, int shape_code, int threads,
                         const py::object& wilds, long wild_kinds, bool wild_fifth_copy) {
        const HandShape& shape = hand_shape(shape_code);
        const WildRules wild = wild_rules_arg(wild_kinds, wild_fifth_copy);
        const Batch b = read_batch(counts, melds, voids, wilds);
        py::array_t<Out> out(static_cast<py::ssize_t>(b.n));
        Out* o = out.mutable_data();
        if (wild.any() || wild.fifth_copy)
          for_rows<true>(b, call, shape, wild, threads, [&](size_t i, const Hand& hand, int v) {
            o[i] = row(hand, v, shape, wild);
          });
        else
          for_rows<false>(b, call, shape, wild, threads, [&](size_t i, const Hand& hand, int v) {
            o[i] = natural_row(hand, v, shape);
          });
        return out;
      },
      py::arg("counts"), py::arg("melds") = py::none(), py::arg("void") = py::none(),
      py::arg("seven_pairs") = true, py::arg("threads") = 1, py::kw_only(),
      py::arg("wilds") = py::none(), py::arg("wild_kinds") = 0, py::arg("wild_fifth_copy") = false,
      doc);
}

}  // namespace

// Which compiled variant of the hot functions (bits.hpp's XUELIU_HOT_DISPATCH: is_win and waits)
// this CPU runs: the clone the loader's resolver picks, by the same CPU test it makes.
py::dict dispatch_info() {
  py::dict info;
  const std::string clones = XUELIU_HOT_DISPATCH_CLONES;
  py::list names;
  for (size_t start = 0; start < clones.size();) {
    const size_t end = std::min(clones.find(',', start), clones.size());
    names.append(clones.substr(start, end - start));
    start = end + 1;
  }
  info["clones"] = names;
#if defined(XUELIU_NATIVE)
  info["build"] = "native";  // -march=native: this machine only, no dispatch
#else
  info["build"] = clones.empty() ? "portable" : "dispatch";
#endif
  std::string selected = "";
#if defined(__x86_64__) && defined(__GNUC__)
  if (!clones.empty()) {
    __builtin_cpu_init();
    selected = __builtin_cpu_supports("x86-64-v3") ? "arch=x86-64-v3"
               : __builtin_cpu_supports("popcnt")  ? "popcnt"
                                                   : "default";
  }
#endif
  info["selected"] = selected;
#if defined(__clang__)
  info["compiler"] = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  info["compiler"] = std::string("gcc ") + __VERSION__;
#elif defined(_MSC_VER)
  info["compiler"] = "msvc " + std::to_string(_MSC_VER);
#else
  info["compiler"] = "unknown";
#endif
  return info;
}

void register_batch(py::module_& m) {
  m.def("dispatch_info", &dispatch_info,
        "{'build': 'dispatch' | 'portable' | 'native', 'clones': the compiled variants of the hot "
        "batch functions, 'selected': the one this CPU runs ('' without dispatch), 'compiler'}.");
  def_hand_call<Call::IsWin, bool>(
      m, "batch_is_win", [](const Hand& hand, int v, const HandShape& shape, const WildRules& wild) {
        return is_win_unchecked(hand, v, shape, wild);
      },
      [](const Hand& hand, int v, const HandShape& shape) { return is_win_unchecked(hand, v, shape); },
      "Whether each row is a complete hand, as is_win would answer.");
  def_hand_call<Call::Waits, uint32_t>(
      m, "batch_waits", [](const Hand& hand, int v, const HandShape& shape, const WildRules& wild) {
        return waits_unchecked(hand, v, shape, wild);
      },
      [](const Hand& hand, int v, const HandShape& shape) { return waits_unchecked(hand, v, shape); },
      "Bitmask of the waiting kinds per row (bit k = kind k).");
  def_hand_call<Call::Shanten, int8_t>(
      m, "batch_shanten", [](const Hand& hand, int v, const HandShape& shape, const WildRules& wild) {
        const int s = shanten_unchecked(hand, v, shape, wild);
        if (s == -2) check_win_reachable("shanten", hand, v);  // throws the single call's error
        return static_cast<int8_t>(s);
      },
      [](const Hand& hand, int v, const HandShape& shape) {
        const int s = shanten_unchecked(hand, v, shape);
        if (s == -2) check_win_reachable("shanten", hand, v);
        return static_cast<int8_t>(s);
      },
      "Exact shanten per row, as shanten would answer (a row whose melds rule out every "
      "complete hand is an error).");

  m.def(
      "batch_evaluate",
      [](const py::object& counts, const py::object& melds, const py::object& voids,
         const ScoringRules& rules, int flags, int threads, const py::object& wilds) {
        const WinContext ctx = win_context(-1, flags);
        const Batch b = read_batch(counts, melds, voids, wilds);
        py::array_t<int16_t> fan(static_cast<py::ssize_t>(b.n));
        py::array_t<int8_t> code(static_cast<py::ssize_t>(b.n));
        int16_t* f = fan.mutable_data();
        int8_t* c = code.mutable_data();
        const WildRules& wild = rules.wild;
        if (rules.wild_scoring()) {
          // docs/rules.md §12.2: the best reading of each row's wilds, or 四鸡 (a self-draw of
          // four concealed wilds under four_wilds wins whatever the rest of the hand).
          const bool siji = rules.four_wilds != 0 && ctx.self_draw;
          for_rows<true>(b, Call::Evaluate, rules.shape, wild, threads, [&](size_t i, const Hand& hand, int v) {
            if (!is_win_unchecked(hand, v, rules.shape, wild) && !(siji && hand.wilds >= 4)) {
              f[i] = 0, c[i] = -1;
              return;
            }
            const FanResult r = evaluate_unchecked(hand, v, ctx, rules);
            f[i] = static_cast<int16_t>(r.fan);
            c[i] = static_cast<int8_t>(r.base);
          });
          return py::make_tuple(fan, code);
        }
        for_rows<false>(b, Call::Evaluate, rules.shape, kNoWilds, threads, [&](size_t i, const Hand& hand, int v) {
          if (!is_win_unchecked(hand, v, rules.shape)) {
            f[i] = 0, c[i] = -1;
            return;
          }
          const FanResult r = evaluate_unchecked(hand, ctx, rules);
          f[i] = static_cast<int16_t>(r.fan);
          c[i] = static_cast<int8_t>(r.base);
        });
        return py::make_tuple(fan, code);
      },
      py::arg("counts"), py::arg("melds") = py::none(), py::arg("void") = py::none(),
      py::arg("rules"), py::arg("flags") = 0, py::arg("threads") = 1, py::kw_only(),
      py::arg("wilds") = py::none(),
      "(fan, base pattern code) per row; rows that are not wins give fan 0 and code -1. Under "
      "wild rules (rules.wild_kinds) `wilds` is each row's count of concealed wilds and a soft "
      "meld is coded as batch_is_win's; a row is scored on its best reading (or 四鸡).");
}

}  // namespace xueliu::bindings
