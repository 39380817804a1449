// Per-suit tables indexed by the base-5 key of a suit's nine counts (docs/rules.md §5).
//
// key(h) = sum_r h_r * 5^r over ranks r = 0..8 (counts 0..4), 5^9 = 1,953,125 keys. Only keys whose
// digit sum is at most 14 (one hand's worth of one suit) are filled. Built once, on first use (see
// SuitTables for thread safety).
//
//   cost(key, m, p)  the fewest tiles that must be added to the suit to hold m sets (pung or chow)
//                    and p pairs (p = 0..1), every count at most 4: the f-table, 4 bits per entry
//                    in bits 0..39 of a word; bits 40..44 hold the suit's free pairs for seven
//                    pairs (a count of 2 or 3 gives one, 4 gives two), bits 45..48 its odd counts
//                    and bits 49..63 its fill bits: bit 49 + j when j more tiles (wilds) make the
//                    suit complete with every tile it holds used
//   complete(key)    the suit alone is m sets (+ one pair when its size is 2 mod 3): 1 bit per key
//   wait_mask(key)   bit r: adding one tile of rank r makes the suit complete
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "bits.hpp"
#include "tiles.hpp"

namespace xueliu {

constexpr std::array<int, 10> kPow5 = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};
constexpr int kKeys = kPow5[9];
constexpr int kMaxSuitSets = 4;
constexpr int kMaxSuitTiles = 14;
// A cap of suit_costs_dp that never binds: one suit of a hand holds at most 14 tiles.
constexpr uint8_t kNoCap = 14;

constexpr int kFillShift = 49;  // the fill bits of a cost word (below)

// Index of (m sets, p pairs) inside a cost word; each entry is a nibble.
inline constexpr int cost_slot(int m, int p) { return 2 * m + p; }

// Thread safety: the one instance is a function-local static, built by the first call to get().
// C++11 makes that initialisation thread-safe: concurrent first callers wait until it is built,
// and the constructor never calls into Python, so a caller holding the GIL may wait too. After
// that it is never written, so any number of threads read it without a lock.
class SuitTables {
 public:
  static const SuitTables& get() {
    static const SuitTables tables;
    return tables;
  }

  uint64_t costs(uint32_t key) const { return cost_[key]; }
  static int cost_of(uint64_t word, int m, int p) {
    return static_cast<int>((word >> (4 * cost_slot(m, p))) & 0xF);
  }
  static int free_pairs(uint64_t word) { return static_cast<int>((word >> 40) & 0x1F); }
  static int odd_counts(uint64_t word) { return static_cast<int>((word >> 45) & 0xF); }
  static uint32_t fill_bits(uint64_t word) { return static_cast<uint32_t>(word >> kFillShift); }
  bool complete(uint32_t key) const { return (win_bits_[key >> 6] >> (key & 63)) & 1; }
  uint16_t wait_mask(uint32_t key) const { return wait_[key]; }

  std::size_t bytes() const;
  // Recomputes every filled key's costs and win bit with suit_costs_dp, and its wait mask from
  // the win bits one tile up; returns the number of keys that disagree (0 when all agree).
  long self_check() const;
  double build_seconds() const { return build_seconds_; }

 private:
  SuitTables();
  std::vector<uint64_t> cost_;
  std::vector<uint64_t> win_bits_;
  std::vector<uint16_t> wait_;
  double build_seconds_ = 0;

  // Bit r: one more tile of rank r (digit r below 4) makes the suit complete, read off win_bits_.
  uint16_t wait_mask_of(uint32_t key, const uint8_t* digits) const;
};

// The waits of one suit with wilds, for hands without melds (docs/rules.md §12.2), by key: bits
// 9j..9j+8 hold the ranks r (digit r below 4) whose one more tile leaves the suit completable with
// exactly j more tiles (fill bit j of key + 5^r), for j = 0..kFillWaitBudgets - 1. A separate
// table, built from SuitTables on the first wild waits call (tables without wilds never pay for
// it), with the same thread safety.
constexpr int kFillWaitBudgets = 7;

class FillWaits {
 public:
  static const FillWaits& get() {
    static const FillWaits table;
    return table;
  }
  // The ranks of suit key `key` that fit any budget j in `budgets` (bit j; j < kFillWaitBudgets).
  uint32_t ranks(uint32_t key, uint32_t budgets) const {
    const uint64_t word = waits_[key];
    uint32_t out = 0;
    for (; budgets; budgets &= budgets - 1)
      out |= static_cast<uint32_t>(word >> (9 * lowest_bit(budgets))) & 0x1FFu;
    return out;
  }

 private:
  FillWaits();
  std::vector<uint64_t> waits_;
};

// The same costs by an exact dynamic programme over ranks, with a cap per rank on the number of
// copies a configuration may use (4 - copies already in melds). Slower than the table; used for
// suits that contain a meld kind and to check the table. Returns the 10 costs in cost_slot order;
// entries for more than max_sets sets are left at 100 (not computed), as are impossible ones.
// With `drops` (10 entries), drops[slot] gets the ranks (bit r) that one more tile would lower
// that cost by one: the ranks where some cheapest configuration needs a tile the suit lacks (one
// more held tile of such a rank saves exactly that tile; a rank no cheapest configuration lacks
// saves nothing). The DP keeps, per state, the union over its cheapest ways, which by the
// principle of optimality is the union over the cheapest configurations. 0 for uncomputed slots.
// Throws std::invalid_argument when max_sets is outside 0..4.
std::array<int, 10> suit_costs_dp(const uint8_t* counts9, const uint8_t* caps9,
                                  int max_sets = kMaxSuitSets, uint16_t* drops = nullptr);

// Two short Horner chains (ranks 0..4 and 5..8) instead of one of nine: a shorter dependency chain
// for the three keys every win check computes.
inline uint32_t suit_key(const uint8_t* counts9) {
  const uint8_t* c = counts9;
  const uint32_t lo = (((c[4] * 5u + c[3]) * 5u + c[2]) * 5u + c[1]) * 5u + c[0];
  const uint32_t hi = ((c[8] * 5u + c[7]) * 5u + c[6]) * 5u + c[5];
  return lo + hi * 3125u;
}

namespace detail {
template <typename Visit>
void enumerate_suit_shapes(Visit& visit, uint8_t* counts, int first_type, int sets, unsigned pungs,
                           unsigned chows) {
  visit(static_cast<const uint8_t*>(counts), sets, -1, pungs, chows);
  for (int r = 0; r < kRanks; ++r) {
    if (counts[r] > 2) continue;
    counts[r] += 2;
    visit(static_cast<const uint8_t*>(counts), sets, r, pungs, chows);
    counts[r] -= 2;
  }
  if (sets == kMaxSuitSets) return;
  // Set types in non-decreasing order, so each multiset is reached once: types 0..8 are the pungs
  // of ranks 0..8, types 9..15 the chows starting at ranks 0..6.
  for (int t = first_type; t < kRanks + 7; ++t) {
    if (t < kRanks) {
      if (counts[t] > 1) continue;
      counts[t] += 3;
      enumerate_suit_shapes(visit, counts, t, sets + 1, pungs | 1u << t, chows);
      counts[t] -= 3;
    } else {
      const int r = t - kRanks;
      if (counts[r] == 4 || counts[r + 1] == 4 || counts[r + 2] == 4) continue;
      ++counts[r], ++counts[r + 1], ++counts[r + 2];
      enumerate_suit_shapes(visit, counts, t, sets + 1, pungs, chows | 1u << r);
      --counts[r], --counts[r + 1], --counts[r + 2];
    }
  }
}
}  // namespace detail

// Calls visit(counts9, sets, pair, pungs, chows) once for every complete shape of one suit: a
// multiset of at most four sets (pungs and chows) plus no pair (pair = -1) or one pair of rank
// `pair`, with no count above 4. pungs has bit r for a pung of rank r, chows bit r for a chow
// starting at rank r (repeats of a chow are not told apart). The cost tables and fan.cpp's
// decomposition signatures both come from this one enumeration, so they agree on what a set is.
template <typename Visit>
void for_each_suit_shape(Visit&& visit) {
  uint8_t counts[kRanks] = {};
  detail::enumerate_suit_shapes(visit, counts, 0, 0, 0u, 0u);
}

}  // namespace xueliu
