// Win checks, waits and exact shanten (RULES.md §5) on top of the per-suit tables.
#include "hand.hpp"

#include <algorithm>
#include <string>

#include "bits.hpp"
#include "tables.hpp"

namespace xueliu {
namespace {

constexpr uint32_t kSuitMask = 0x1FF;

inline unsigned meld_suits(const Hand& hand) {
  unsigned present = 0;
  for (int i = 0; i < hand.n_melds; ++i) present |= 1u << suit_of(hand.melds[i].kind);
  return present;
}

// Bitmask of the suits holding a tile, concealed (a non-zero suit key) or in a meld.
inline unsigned suits_present(const Hand& hand, const uint32_t keys[3]) {
  unsigned present = meld_suits(hand);
  for (int s = 0; s < kSuits; ++s)
    if (keys[s]) present |= 1u << s;
  return present;
}

inline void suit_keys(const Hand& hand, uint32_t keys[3]) {
  for (int s = 0; s < kSuits; ++s) keys[s] = suit_key(hand.counts.data() + kRanks * s);
}

inline int popcount3(unsigned x) { return (x & 1) + (x >> 1 & 1) + (x >> 2 & 1); }

// The kind of the only odd count, or -1 when the number of odd counts is not one.
inline int single_odd_kind(const Hand& hand) {
  uint64_t w[4];
  load_count_words(hand.counts.data(), w);
  int n_odd = 0, kind = -1;
  for (int i = 0; i < 4; ++i) {
    const uint64_t odd = w[i] & kLowBitOfEachByte;
    n_odd += popcount64(odd);
    if (odd) kind = 8 * i + (lowest_bit(odd) >> 3);
  }
  return n_odd == 1 ? kind : -1;
}

inline bool all_even(const Hand& hand) {
  uint64_t w[4];
  load_count_words(hand.counts.data(), w);
  return !((w[0] | w[1] | w[2] | w[3]) & kLowBitOfEachByte);
}

// Seven pairs from two suits holding `free` pairs (a four is two) and `odd` odd counts: the 7
// cheapest marginal pair costs (0 for a free pair, 1 to complete an odd count, else 2; per kind
// they are convex, so the cheapest seven form a valid choice).
inline int seven_pairs_cost(int free, int odd) {
  if (free >= 7) return 0;
  if (free + odd >= 7) return 7 - free;
  return odd + 2 * (7 - free - odd);
}

// The cost word of suit s when it holds meld kinds: a peng leaves room for one more copy of its
// kind, a kong for none, which the table (cap 4 everywhere) cannot express; the exact DP can.
// Games ask about the same melded suit again and again (one call per discard), so the DP
// results are kept in a small direct-mapped cache. thread_local, so threads need no lock and a
// full tag match means the word is this thread's own result for exactly these counts and caps.
uint64_t capped_costs(const Hand& hand, int s, int sets) {
  const uint8_t* counts9 = hand.counts.data() + kRanks * s;
  uint8_t caps[9] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
  uint64_t caps_code = 0;  // 2 bits per rank: 0 free, 1 peng, 2 kong
  for (int i = 0; i < hand.n_melds; ++i)
    if (suit_of(hand.melds[i].kind) == s) {
      const int r = rank_of(hand.melds[i].kind);
      caps[r] = static_cast<uint8_t>(4 - hand.melds[i].size());
      caps_code |= static_cast<uint64_t>(hand.melds[i].is_kong() ? 2 : 1) << (2 * r);
    }
  const uint64_t tag = suit_key(counts9) | caps_code << 22 | static_cast<uint64_t>(sets) << 40 |
                       1ULL << 63;
  constexpr int kCacheBits = 10;
  struct Entry { uint64_t tag, word; };
  thread_local Entry cache[1 << kCacheBits] = {};
  Entry& entry = cache[(tag * 0x9E3779B97F4A7C15ULL) >> (64 - kCacheBits)];
  if (entry.tag == tag) return entry.word;
  // A DP cost above 14 means impossible; clamped to 15 it can never beat a real option (<= 14).
  const auto dp = suit_costs_dp(counts9, caps, sets);
  uint64_t word = 0;
  for (int slot = 0; slot < 10; ++slot)
    word |= static_cast<uint64_t>(std::min(dp[slot], 15)) << (4 * slot);
  entry = {tag, word};
  return word;
}

// Out of line and cold, so that check_win_reachable inlines into shanten.
[[noreturn]] void throw_unreachable(const char* call, unsigned melded_suits, int void_suit) {
  if (popcount3(melded_suits) > 2)
    throw std::invalid_argument(std::string(call) +
                                ": no complete hand exists: melds span three suits");
  throw std::invalid_argument(std::string(call) +
                              ": no complete hand exists: melds contain the void suit " +
                              "mps"[void_suit]);
}

}  // namespace

bool is_win_unchecked(const Hand& hand, int void_suit, bool seven_pairs) {
  uint32_t keys[3];
  suit_keys(hand, keys);
  const unsigned present = suits_present(hand, keys);
  if (popcount3(present) > 2) return false;
  if (void_suit >= 0 && (present >> void_suit & 1)) return false;
  const SuitTables& t = SuitTables::get();
  // Branch-free: whether a suit is complete is data, and mispredicted branches cost more here.
  const bool standard = t.complete(keys[0]) & t.complete(keys[1]) & t.complete(keys[2]);
  return standard | (seven_pairs & !hand.n_melds & all_even(hand));
}

uint32_t waits_unchecked(const Hand& hand, int void_suit, bool seven_pairs) {
  uint32_t keys[3];
  suit_keys(hand, keys);
  const unsigned present = suits_present(hand, keys);
  const int n_present = popcount3(present);
  if (n_present > 2) return 0;
  if (void_suit >= 0 && (present >> void_suit & 1)) return 0;
  const SuitTables& t = SuitTables::get();
  const bool c0 = t.complete(keys[0]), c1 = t.complete(keys[1]), c2 = t.complete(keys[2]);
  uint32_t mask = 0;
  if (c1 && c2) mask |= t.wait_mask(keys[0]);
  if (c0 && c2) mask |= static_cast<uint32_t>(t.wait_mask(keys[1])) << 9;
  if (c0 && c1) mask |= static_cast<uint32_t>(t.wait_mask(keys[2])) << 18;
  if (seven_pairs && hand.n_melds == 0) {
    const int odd = single_odd_kind(hand);
    if (odd >= 0) mask |= 1u << odd;
  }
  if (!mask) return 0;
  // No fifth copy: drop kinds a meld makes four. Concealed fours need no check: a table wait
  // needs a digit below 4, and the seven-pairs wait is an odd count.
  for (int i = 0; i < hand.n_melds; ++i) {
    const int k = hand.melds[i].kind;
    if (hand.melds[i].size() + hand.counts[k] >= 4) mask &= ~(1u << k);
  }
  // 缺一门: two suits present fix the winning suits; the void suit never wins.
  unsigned allowed = 7;
  if (n_present == 2) allowed = present;
  if (void_suit >= 0) allowed &= ~(1u << void_suit);
  for (int s = 0; s < kSuits; ++s)
    if (!(allowed >> s & 1)) mask &= ~(kSuitMask << (9 * s));
  return mask;
}

int shanten_unchecked(const Hand& hand, int void_suit, bool seven_pairs) {
  const unsigned melded = meld_suits(hand);
  if (popcount3(melded) > 2) return -2;
  if (void_suit >= 0 && (melded >> void_suit & 1)) return -2;
  const int sets = kMaxMelds - hand.n_melds;

  // Cost words per suit: the table, or the capped DP for a suit that holds a meld kind.
  const SuitTables& t = SuitTables::get();
  uint32_t keys[3];
  suit_keys(hand, keys);
  uint64_t word[3];
  for (int s = 0; s < kSuits; ++s)
    word[s] = (melded >> s & 1) ? capped_costs(hand, s, sets) : t.costs(keys[s]);

  int best = 1000;
  for (int x = 0; x < kSuits; ++x) {
    if (void_suit >= 0 ? x != void_suit : (melded >> x & 1)) continue;
    const uint64_t a = word[x == 0 ? 1 : 0], b = word[x == 2 ? 1 : 2];
    for (int ma = 0; ma <= sets; ++ma) {
      const int mb = sets - ma;
      best = std::min(best, SuitTables::cost_of(a, ma, 1) + SuitTables::cost_of(b, mb, 0));
      best = std::min(best, SuitTables::cost_of(a, ma, 0) + SuitTables::cost_of(b, mb, 1));
    }
    if (seven_pairs && hand.n_melds == 0)
      best = std::min(best, seven_pairs_cost(SuitTables::free_pairs(a) + SuitTables::free_pairs(b),
                                             SuitTables::odd_counts(a) + SuitTables::odd_counts(b)));
  }
  return best - 1;
}

void check_win_reachable(const char* call, const Hand& hand, int void_suit) {
  const unsigned melded = meld_suits(hand);
  if (popcount3(melded) > 2 || (void_suit >= 0 && (melded >> void_suit & 1)))
    throw_unreachable(call, melded, void_suit);
}

bool is_win(const Hand& hand, int void_suit, bool seven_pairs) {
  validate_hand(hand);
  validate_void(void_suit);
  check_tile_count("is_win", hand, 14);
  return is_win_unchecked(hand, void_suit, seven_pairs);
}

uint32_t waits(const Hand& hand, int void_suit, bool seven_pairs) {
  validate_hand(hand);
  validate_void(void_suit);
  check_tile_count("waits", hand, 13);
  return waits_unchecked(hand, void_suit, seven_pairs);
}

int shanten(const Hand& hand, int void_suit, bool seven_pairs) {
  validate_hand(hand);
  validate_void(void_suit);
  check_tile_count("shanten", hand, 13, /*or_one_more=*/true);
  check_win_reachable("shanten", hand, void_suit);
  return shanten_unchecked(hand, void_suit, seven_pairs);
}

}  // namespace xueliu
