// Win checks, waits and exact shanten (RULES.md §5) on top of the per-suit tables.
#include "hand.hpp"

#include <algorithm>
#include <string>

#include "tables.hpp"

namespace xueliu {
namespace {

constexpr uint32_t kSuitMask = 0x1FF;

// Bitmask of the suits holding a tile, concealed or in a meld.
inline unsigned suits_present(const Hand& hand, const uint32_t keys[3]) {
  unsigned present = 0;
  for (int s = 0; s < kSuits; ++s)
    if (keys[s]) present |= 1u << s;
  for (int i = 0; i < hand.n_melds; ++i) present |= 1u << suit_of(hand.melds[i].kind);
  return present;
}

inline unsigned meld_suits(const Hand& hand) {
  unsigned present = 0;
  for (int i = 0; i < hand.n_melds; ++i) present |= 1u << suit_of(hand.melds[i].kind);
  return present;
}

inline void suit_keys(const Hand& hand, uint32_t keys[3]) {
  for (int s = 0; s < kSuits; ++s) keys[s] = suit_key(hand.counts.data() + kRanks * s);
}

inline int popcount3(unsigned x) { return (x & 1) + (x >> 1 & 1) + (x >> 2 & 1); }

void check_count(const char* call, const Hand& hand, int base) {
  const int k = hand.n_melds, want = base - 3 * k, got = hand.concealed();
  if (got != want)
    throw std::invalid_argument(std::string(call) + " needs " + std::to_string(base) +
                                " - 3k = " + std::to_string(want) + " concealed tiles (k = " +
                                std::to_string(k) + " melds), got " + std::to_string(got));
}

// Cheapest 7 pairs from the kinds of the two suits other than `excluded` (marginal pair costs
// per kind are convex, so the 7 cheapest marginal costs form a valid choice).
int seven_pairs_cost(const Hand& hand, int excluded) {
  int zeros = 0, ones = 0;
  for (int k = 0; k < kKinds; ++k) {
    if (suit_of(k) == excluded) continue;
    switch (hand.counts[k]) {
      case 4: zeros += 2; break;
      case 3: zeros += 1, ones += 1; break;
      case 2: zeros += 1; break;
      case 1: ones += 1; break;
      default: break;
    }
  }
  if (zeros >= 7) return 0;
  if (zeros + ones >= 7) return 7 - zeros;
  return ones + 2 * (7 - zeros - ones);
}

}  // namespace

bool is_win_unchecked(const Hand& hand, int void_suit, bool seven_pairs) {
  uint32_t keys[3];
  suit_keys(hand, keys);
  const unsigned present = suits_present(hand, keys);
  if (popcount3(present) > 2) return false;
  if (void_suit >= 0 && (present >> void_suit & 1)) return false;
  const SuitTables& t = SuitTables::get();
  if (t.complete(keys[0]) && t.complete(keys[1]) && t.complete(keys[2])) return true;
  if (!seven_pairs || hand.n_melds) return false;
  for (uint8_t c : hand.counts)
    if (c & 1) return false;
  return true;
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
    int odd = -1, n_odd = 0;
    for (int k = 0; k < kKinds; ++k)
      if (hand.counts[k] & 1) odd = k, ++n_odd;
    if (n_odd == 1) mask |= 1u << odd;
  }
  if (!mask) return 0;
  // No fifth copy: drop kinds already held four times (concealed fours never wait in the tables).
  for (int i = 0; i < hand.n_melds; ++i) {
    const int k = hand.melds[i].kind;
    if (hand.melds[i].size() + hand.counts[k] >= 4) mask &= ~(1u << k);
  }
  for (int k = 0; k < kKinds; ++k)
    if (hand.counts[k] >= 4) mask &= ~(1u << k);
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

  // Costs per suit: the table, or the capped DP for a suit that holds a meld kind.
  int cost[3][10];
  const SuitTables& t = SuitTables::get();
  for (int s = 0; s < kSuits; ++s) {
    const uint8_t* counts9 = hand.counts.data() + kRanks * s;
    if (melded >> s & 1) {
      uint8_t caps[9] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
      for (int i = 0; i < hand.n_melds; ++i)
        if (suit_of(hand.melds[i].kind) == s)
          caps[rank_of(hand.melds[i].kind)] = static_cast<uint8_t>(4 - hand.melds[i].size());
      const auto dp = suit_costs_dp(counts9, caps);
      std::copy(dp.begin(), dp.end(), cost[s]);
    } else {
      uint64_t word = t.costs(suit_key(counts9));
      for (int slot = 0; slot < 10; ++slot, word >>= 4) cost[s][slot] = static_cast<int>(word & 0xF);
    }
  }

  int best = 1000;
  for (int x = 0; x < kSuits; ++x) {
    if (void_suit >= 0 ? x != void_suit : (melded >> x & 1)) continue;
    const int* a = cost[x == 0 ? 1 : 0];
    const int* b = cost[x == 2 ? 1 : 2];
    for (int ma = 0; ma <= sets; ++ma) {
      const int mb = sets - ma;
      best = std::min(best, a[cost_slot(ma, 1)] + b[cost_slot(mb, 0)]);
      best = std::min(best, a[cost_slot(ma, 0)] + b[cost_slot(mb, 1)]);
    }
    if (seven_pairs && hand.n_melds == 0) best = std::min(best, seven_pairs_cost(hand, x));
  }
  return best - 1;
}

bool is_win(const Hand& hand, int void_suit, bool seven_pairs) {
  validate_hand(hand);
  validate_void(void_suit);
  check_count("is_win", hand, 14);
  return is_win_unchecked(hand, void_suit, seven_pairs);
}

uint32_t waits(const Hand& hand, int void_suit, bool seven_pairs) {
  validate_hand(hand);
  validate_void(void_suit);
  check_count("waits", hand, 13);
  return waits_unchecked(hand, void_suit, seven_pairs);
}

int shanten(const Hand& hand, int void_suit, bool seven_pairs) {
  validate_hand(hand);
  validate_void(void_suit);
  const int k = hand.n_melds, got = hand.concealed();
  if (got != 13 - 3 * k && got != 14 - 3 * k)
    throw std::invalid_argument("shanten needs 13 - 3k or 14 - 3k = " + std::to_string(13 - 3 * k) +
                                " or " + std::to_string(14 - 3 * k) + " concealed tiles (k = " +
                                std::to_string(k) + " melds), got " + std::to_string(got));
  const unsigned melded = meld_suits(hand);
  if (popcount3(melded) > 2)
    throw std::invalid_argument("shanten: no complete hand exists: melds span three suits");
  if (void_suit >= 0 && (melded >> void_suit & 1))
    throw std::invalid_argument("shanten: no complete hand exists: melds contain the void suit " +
                                std::string(1, "mps"[void_suit]));
  return shanten_unchecked(hand, void_suit, seven_pairs);
}

}  // namespace xueliu
