// Per-suit tables indexed by the base-5 key of a suit's nine counts (RULES.md §5).
//
// key(h) = sum_r h_r * 5^r over ranks r = 0..8 (counts 0..4), 5^9 = 1,953,125 keys. Only keys whose
// digit sum is at most 14 (one hand's worth of one suit) are filled. Built once, on first use, in a
// function-local static (thread-safe initialisation since C++11).
//
//   cost(key, m, p)  the fewest tiles that must be added to the suit to hold m sets (pung or chow)
//                    and p pairs (p = 0..1), every count at most 4: the f-table, 4 bits per entry
//                    in bits 0..39 of a word; bits 40..44 hold the suit's free pairs for seven
//                    pairs (a count of 2 or 3 gives one, 4 gives two) and bits 45..48 its odd counts
//   complete(key)    the suit alone is m sets (+ one pair when its size is 2 mod 3): 1 bit per key
//   wait_mask(key)   bit r: adding one tile of rank r makes the suit complete
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace xueliu {

constexpr int kKeys = 1953125;  // 5^9
constexpr std::array<int, 10> kPow5 = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};
constexpr int kMaxSuitSets = 4;
constexpr int kMaxSuitTiles = 14;

// Index of (m sets, p pairs) inside a cost word; each entry is a nibble.
inline constexpr int cost_slot(int m, int p) { return 2 * m + p; }

class SuitTables {
 public:
  // Built on first use; C++11 makes the initialisation of a function-local static thread-safe.
  static const SuitTables& get() {
    static const SuitTables tables;
    return tables;
  }

  uint64_t costs(uint32_t key) const { return cost_[key]; }
  static int cost_of(uint64_t word, int m, int p) {
    return static_cast<int>((word >> (4 * cost_slot(m, p))) & 0xF);
  }
  int cost(uint32_t key, int m, int p) const { return cost_of(cost_[key], m, p); }
  static int free_pairs(uint64_t word) { return static_cast<int>((word >> 40) & 0x1F); }
  static int odd_counts(uint64_t word) { return static_cast<int>((word >> 45) & 0xF); }
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
};

// The same costs by an exact dynamic programme over ranks, with a cap per rank on the number of
// copies a configuration may use (4 - copies already in melds). Slower than the table; used for
// suits that contain a meld kind and to check the table. Returns the 10 costs in cost_slot order;
// entries for more than max_sets sets are left at 100 (not computed), as are impossible ones.
std::array<int, 10> suit_costs_dp(const uint8_t* counts9, const uint8_t* caps9,
                                  int max_sets = kMaxSuitSets);

inline uint32_t suit_key(const uint8_t* counts9) {
  uint32_t k = 0;
  for (int r = 8; r >= 0; --r) k = k * 5 + counts9[r];
  return k;
}

}  // namespace xueliu
