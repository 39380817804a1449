// Builds the per-suit tables of tables.hpp. See the header for what each table means.
#include "tables.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "bits.hpp"

namespace xueliu {
namespace {

constexpr uint64_t kLowNibbles = 0x0F0F0F0F0F0F0F0FULL;

// Nibble-wise min of two cost words.
inline uint64_t min_nibbles(uint64_t a, uint64_t b) {
  return min_bytes(a & kLowNibbles, b & kLowNibbles) |
         (min_bytes((a >> 4) & kLowNibbles, (b >> 4) & kLowNibbles) << 4);
}

// Whether a suit of n tiles is complete (m sets, plus one pair when n is 2 mod 3), given its
// costs; used both to build the win bits and to check them against the DP.
template <typename Cost>
bool complete_by_costs(int n, const Cost& cost) {
  return (n % 3 == 0 && cost(n / 3, 0) == 0) || (n % 3 == 2 && cost((n - 2) / 3, 1) == 0);
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
  // Step (a): mark every complete shape of m sets and p pairs.
  std::vector<uint16_t> mask(kKeys, 0);
  for_each_suit_shape([&mask](const uint8_t* counts9, int sets, int pair, unsigned, unsigned) {
    mask[suit_key(counts9)] |= static_cast<uint16_t>(1u << cost_slot(sets, pair >= 0 ? 1 : 0));
  });

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
    // Fill bits: j more tiles make the suit complete when the (sets, pair) their count asks for
    // costs exactly j, i.e. every held tile is used (wild tiles, docs/rules.md §12.2).
    for (int j = 0; it.sum + j <= kMaxSuitTiles; ++j) {
      const int n = it.sum + j;
      if (n % 3 == 1) continue;
      if (cost_of(word, n / 3, n % 3 == 2) == j) word |= 1ULL << (kFillShift + j);
    }
    cost_[key] = word;
    if (complete_by_costs(it.sum, [word](int m, int p) { return cost_of(word, m, p); }))
      win_bits_[key >> 6] |= 1ULL << (key & 63);
  }

  wait_.assign(kKeys, 0);
  it.set(0);
  for (int key = 0; key < kKeys; ++key, it.increment())
    if (it.sum <= kMaxSuitTiles - 1) wait_[key] = wait_mask_of(key, it.d);
  build_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

FillWaits::FillWaits() : waits_(kKeys, 0) {
  const SuitTables& t = SuitTables::get();
  uint8_t digits[kRanks] = {};
  int size = 0;  // the digit sum of `key`, kept as the digits count up
  for (uint32_t key = 0; key < static_cast<uint32_t>(kKeys); ++key) {
    if (size < kMaxSuitTiles) {  // a suit of at most 13 tiles, so 14 with the drawn one
      uint64_t word = 0;
      for (int r = 0; r < kRanks; ++r) {
        if (digits[r] >= 4) continue;
        const uint32_t fill =
            SuitTables::fill_bits(t.costs(key + static_cast<uint32_t>(kPow5[r]))) &
            ((1u << kFillWaitBudgets) - 1);
        for (uint32_t j = fill; j; j &= j - 1) word |= 1ull << (9 * lowest_bit(j) + r);
      }
      waits_[key] = word;
    }
    for (int r = 0; r < kRanks; ++r) {  // the next key: base-5 increment of the digits
      size += 1;
      if (++digits[r] < 5) break;
      digits[r] = 0;
      size -= 5;
    }
  }
}

uint16_t SuitTables::wait_mask_of(uint32_t key, const uint8_t* digits) const {
  uint16_t w = 0;
  for (int r = 0; r < 9; ++r)
    if (digits[r] < 4 && complete(key + static_cast<uint32_t>(kPow5[r]))) w |= 1u << r;
  return w;
}

size_t SuitTables::bytes() const {
  return cost_.size() * sizeof(uint64_t) + win_bits_.size() * sizeof(uint64_t) +
         wait_.size() * sizeof(uint16_t);
}

long SuitTables::self_check() const {
  const uint8_t no_caps[9] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
  long bad = 0;
  Digits it;
  it.set(0);
  for (int key = 0; key < kKeys; ++key, it.increment()) {
    if (it.sum > kMaxSuitTiles) continue;
    const auto f = suit_costs_dp(it.d, no_caps);
    bool ok = complete(key) ==
              complete_by_costs(it.sum, [&f](int m, int p) { return f[cost_slot(m, p)]; });
    for (int slot = 0; slot < 10; ++slot) ok = ok && f[slot] == cost_of(cost_[key], slot / 2, slot % 2);
    // Wait masks are read off the win bits, and those are checked key by key above.
    if (it.sum < kMaxSuitTiles) ok = ok && wait_mask_of(key, it.d) == wait_[key];
    bad += !ok;
  }
  return bad;
}

std::array<int, 10> suit_costs_dp(const uint8_t* counts9, const uint8_t* caps9, int max_sets,
                                  uint16_t* drops) {
  if (max_sets < 0 || max_sets > kMaxSuitSets)
    throw std::invalid_argument("suit_costs_dp: max_sets " + std::to_string(max_sets) +
                                " is outside 0..4");
  // State: a = chows started at the previous rank, b = chows started two ranks back,
  // s = sets used so far (started chows included), q = pairs used. Value: tiles added so far,
  // and (with `drops`) the ranks where some cheapest way to the state adds a tile.
  constexpr int8_t kInf = 100;
  int8_t buf[2][5][5][5][2];
  uint16_t miss[2][5][5][5][2];
  auto* cur = buf[0];
  auto* nxt = buf[1];
  auto* cur_miss = miss[0];
  auto* nxt_miss = miss[1];
  std::fill(&cur[0][0][0][0], &cur[0][0][0][0] + 250, kInf);
  std::fill(&cur_miss[0][0][0][0], &cur_miss[0][0][0][0] + 250, uint16_t{0});
  cur[0][0][0][0] = 0;
  for (int r = 0; r < 9; ++r) {
    std::fill(&nxt[0][0][0][0], &nxt[0][0][0][0] + 250, kInf);
    if (drops) std::fill(&nxt_miss[0][0][0][0], &nxt_miss[0][0][0][0] + 250, uint16_t{0});
    const int h = counts9[r], cap = caps9[r];
    const int max_new_chows = r <= 6 ? max_sets : 0;
    for (int a = 0; a <= max_sets; ++a)
      for (int b = 0; a + b <= max_sets; ++b)
        for (int s = a + b; s <= max_sets; ++s)
          for (int q = 0; q <= 1; ++q) {
            const int v = cur[a][b][s][q];
            if (v >= kInf) continue;
            for (int c = 0; c <= max_new_chows && s + c <= max_sets && a + b + c <= cap; ++c)
              // u pungs of this rank: at most one under a cap of 4; more only when the cap
              // allows (wild_fifth_copy reads a kind any number of times, docs/rules.md §12.2).
              for (int u = 0; s + c + u <= max_sets && a + b + c + 3 * u <= cap; ++u)
                for (int w = 0; w <= 1 - q; ++w) {
                  const int used = a + b + c + 3 * u + 2 * w;
                  if (used > cap) break;
                  const int nv = v + std::max(0, used - h);
                  int8_t& slot = nxt[c][a][s + c + u][q + w];
                  if (drops) {
                    // Ties keep the union: every cheapest way stays visible (see the header).
                    const auto m = static_cast<uint16_t>(cur_miss[a][b][s][q] |
                                                         (used > h ? 1u << r : 0u));
                    uint16_t& slot_miss = nxt_miss[c][a][s + c + u][q + w];
                    if (nv < slot) slot_miss = m;
                    else if (nv == slot) slot_miss = static_cast<uint16_t>(slot_miss | m);
                  }
                  if (nv < slot) slot = static_cast<int8_t>(nv);
                }
          }
    std::swap(cur, nxt);
    std::swap(cur_miss, nxt_miss);
  }
  std::array<int, 10> out{};
  out.fill(kInf);
  for (int m = 0; m <= max_sets; ++m)
    for (int p = 0; p <= 1; ++p) {
      out[cost_slot(m, p)] = cur[0][0][m][p];
      if (drops) drops[cost_slot(m, p)] = cur[0][0][m][p] < kInf ? cur_miss[0][0][m][p] : 0;
    }
  if (drops)
    for (int m = max_sets + 1; m <= kMaxSuitSets; ++m) drops[cost_slot(m, 0)] = drops[cost_slot(m, 1)] = 0;
  return out;
}

}  // namespace xueliu
