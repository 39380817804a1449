// Builds the per-suit tables of tables.hpp. See the header for what each table means.
#include "tables.hpp"

#include <algorithm>
#include <chrono>

namespace xueliu {
namespace {

constexpr uint64_t kLowNibbles = 0x0F0F0F0F0F0F0F0FULL;
constexpr uint64_t kHighBits = 0x8080808080808080ULL;

// Byte-wise min of two words whose bytes are all <= 0x7F (SWAR; no borrow crosses a byte).
inline uint64_t min_bytes(uint64_t a, uint64_t b) {
  const uint64_t ge = (((a | kHighBits) - b) & kHighBits) >> 7;  // 1 in each byte where a >= b
  const uint64_t take_b = ge * 0xFF;
  return (b & take_b) | (a & ~take_b);
}
// Nibble-wise min of two cost words.
inline uint64_t min_nibbles(uint64_t a, uint64_t b) {
  return min_bytes(a & kLowNibbles, b & kLowNibbles) |
         (min_bytes((a >> 4) & kLowNibbles, (b >> 4) & kLowNibbles) << 4);
}

// Step (a): mark every complete configuration of m sets and p pairs (digits <= 4).
void mark_complete(std::vector<uint16_t>& mask, uint8_t* digits, int m, int first_type) {
  // Pairs on top of the m sets.
  uint32_t key = suit_key(digits);
  mask[key] |= static_cast<uint16_t>(1u << cost_slot(m, 0));
  for (int r = 0; r < 9; ++r)
    if (digits[r] <= 2) mask[key + 2 * kPow5[r]] |= static_cast<uint16_t>(1u << cost_slot(m, 1));
  if (m == kMaxSuitSets) return;
  // Sets in non-decreasing type order: types 0..8 pungs, 9..15 chows starting at type - 9.
  for (int t = first_type; t < 16; ++t) {
    if (t < 9) {
      if (digits[t] > 1) continue;
      digits[t] += 3;
      mark_complete(mask, digits, m + 1, t);
      digits[t] -= 3;
    } else {
      const int r = t - 9;
      if (digits[r] == 4 || digits[r + 1] == 4 || digits[r + 2] == 4) continue;
      ++digits[r], ++digits[r + 1], ++digits[r + 2];
      mark_complete(mask, digits, m + 1, t);
      --digits[r], --digits[r + 1], --digits[r + 2];
    }
  }
}

// Odometer over the base-5 digits of a key, keeping their sum.
struct Digits {
  uint8_t d[9] = {};
  int sum = 0;
  void set(uint32_t key) {
    sum = 0;
    for (int r = 0; r < 9; ++r) d[r] = key % 5, key /= 5, sum += d[r];
  }
  void increment() {
    for (int r = 0; r < 9; ++r) {
      if (d[r] < 4) { ++d[r]; ++sum; return; }
      d[r] = 0;
      sum -= 4;
    }
  }
  void decrement() {
    for (int r = 0; r < 9; ++r) {
      if (d[r] > 0) { --d[r]; --sum; return; }
      d[r] = 4;
      sum += 4;
    }
  }
};

}  // namespace

SuitTables::SuitTables() {
  const auto start = std::chrono::steady_clock::now();
  std::vector<uint16_t> mask(kKeys, 0);
  uint8_t digits[9] = {};
  mark_complete(mask, digits, 0, 0);

  // Step (b): downward closure, descending keys: h + e_r has a larger key, so it is final.
  Digits it;
  it.set(kKeys - 1);
  for (int key = kKeys - 1; key >= 0; --key, it.decrement()) {
    if (it.sum > kMaxSuitTiles - 1) continue;
    uint16_t acc = mask[key];
    for (int r = 0; r < 9; ++r)
      if (it.d[r] < 4) acc |= mask[key + kPow5[r]];
    mask[key] = acc;
  }

  // Step (c): costs, ascending keys: h - e_r has a smaller key, so it is final.
  cost_.assign(kKeys, 0);
  win_bits_.assign((kKeys + 63) / 64, 0);
  it.set(0);
  for (int key = 0; key < kKeys; ++key, it.increment()) {
    if (it.sum > kMaxSuitTiles) continue;
    uint64_t word = ~0ULL;
    for (int r = 0; r < 9; ++r)
      if (it.d[r] > 0) word = min_nibbles(word, cost_[key - kPow5[r]]);
    for (int m = 0; m <= kMaxSuitSets; ++m)
      for (int p = 0; p <= 1; ++p) {
        const int slot = cost_slot(m, p);
        if (mask[key] >> slot & 1) {
          const uint64_t value = static_cast<uint64_t>(3 * m + 2 * p - it.sum);
          word = (word & ~(0xFULL << (4 * slot))) | (value << (4 * slot));
        }
      }
    word &= (1ULL << 40) - 1;
    uint64_t free_pairs = 0, odd = 0;
    for (int r = 0; r < 9; ++r) free_pairs += (it.d[r] >= 2) + (it.d[r] == 4), odd += it.d[r] & 1;
    word |= free_pairs << 40 | odd << 45;
    cost_[key] = word;
    const int n = it.sum;
    const bool complete = (n % 3 == 0 && cost_of(word, n / 3, 0) == 0) ||
                          (n % 3 == 2 && cost_of(word, (n - 2) / 3, 1) == 0);
    if (complete) win_bits_[key >> 6] |= 1ULL << (key & 63);
  }

  wait_.assign(kKeys, 0);
  it.set(0);
  for (int key = 0; key < kKeys; ++key, it.increment()) {
    if (it.sum > kMaxSuitTiles - 1) continue;
    uint16_t w = 0;
    for (int r = 0; r < 9; ++r)
      if (it.d[r] < 4 && complete(static_cast<uint32_t>(key + kPow5[r]))) w |= 1u << r;
    wait_[key] = w;
  }
  build_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

size_t SuitTables::bytes() const {
  return cost_.size() * sizeof(uint64_t) + win_bits_.size() * sizeof(uint64_t) +
         wait_.size() * sizeof(uint16_t);
}

long SuitTables::self_check() const {
  const uint8_t no_caps[9] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
  auto complete_by_dp = [&](const uint8_t* d, int n) {
    const auto f = suit_costs_dp(d, no_caps);
    return (n % 3 == 0 && f[cost_slot(n / 3, 0)] == 0) ||
           (n % 3 == 2 && f[cost_slot((n - 2) / 3, 1)] == 0);
  };
  long bad = 0;
  Digits it;
  it.set(0);
  for (int key = 0; key < kKeys; ++key, it.increment()) {
    if (it.sum > kMaxSuitTiles) continue;
    const auto f = suit_costs_dp(it.d, no_caps);
    bool ok = complete(key) == complete_by_dp(it.d, it.sum);
    for (int slot = 0; slot < 10; ++slot) ok = ok && f[slot] == cost_of(cost_[key], slot / 2, slot % 2);
    if (it.sum < kMaxSuitTiles) {  // the win bits are checked above, key by key
      uint16_t w = 0;
      for (int r = 0; r < 9; ++r)
        if (it.d[r] < 4 && complete(static_cast<uint32_t>(key + kPow5[r]))) w |= 1u << r;
      ok = ok && w == wait_[key];
    }
    bad += !ok;
  }
  return bad;
}

std::array<int, 10> suit_costs_dp(const uint8_t* counts9, const uint8_t* caps9, int max_sets) {
  // State: a = chows started at the previous rank, b = chows started two ranks back,
  // s = sets used so far (started chows included), q = pairs used. Value: tiles added so far.
  constexpr int8_t kInf = 100;
  int8_t buf[2][5][5][5][2];
  auto* cur = buf[0];
  auto* nxt = buf[1];
  std::fill(&cur[0][0][0][0], &cur[0][0][0][0] + 250, kInf);
  cur[0][0][0][0] = 0;
  for (int r = 0; r < 9; ++r) {
    std::fill(&nxt[0][0][0][0], &nxt[0][0][0][0] + 250, kInf);
    const int h = counts9[r], cap = caps9[r];
    const int max_new_chows = r <= 6 ? max_sets : 0;
    for (int a = 0; a <= max_sets; ++a)
      for (int b = 0; a + b <= max_sets; ++b)
        for (int s = a + b; s <= max_sets; ++s)
          for (int q = 0; q <= 1; ++q) {
            const int v = cur[a][b][s][q];
            if (v >= kInf) continue;
            for (int c = 0; c <= max_new_chows && s + c <= max_sets && a + b + c <= cap; ++c)
              for (int u = 0; u <= 1 && s + c + u <= max_sets; ++u)
                for (int w = 0; w <= 1 - q; ++w) {
                  const int used = a + b + c + 3 * u + 2 * w;
                  if (used > cap) break;
                  const int nv = v + std::max(0, used - h);
                  int8_t& slot = nxt[c][a][s + c + u][q + w];
                  if (nv < slot) slot = static_cast<int8_t>(nv);
                }
          }
    std::swap(cur, nxt);
  }
  std::array<int, 10> out{};
  out.fill(kInf);
  for (int m = 0; m <= max_sets; ++m)
    for (int p = 0; p <= 1; ++p) out[cost_slot(m, p)] = cur[0][0][m][p];
  return out;
}

}  // namespace xueliu
