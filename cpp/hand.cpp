// Win checks, waits and exact shanten (docs/rules.md §5) on top of the per-suit tables.
#include "hand.hpp"

#include <algorithm>
#include <string>

#include "bits.hpp"
#include "tables.hpp"

namespace xueliu {
namespace {

constexpr uint32_t kSuitMask = 0x1FF;

// Defined below, beside the cost words they read.
bool wild_complete(const Hand& hand, int void_suit, const HandShape& shape);
int wild_distance(const Hand& hand, int void_suit, const HandShape& shape, const WildRules& wild);
uint32_t wild_waits(const Hand& hand, int void_suit, const HandShape& shape, const WildRules& wild);
uint32_t wild_waits_fill(const Hand& hand, int void_suit, const HandShape& shape,
                         const WildRules& wild);

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

// Non-zero when a meld holds wilds (docs/rules.md §12.3): its kind's uses count the meld at full size,
// which the natural fast paths (where no kind passes four copies) need not check.
inline unsigned soft_melds(const Hand& hand) {
  unsigned any = 0;
  for (int i = 0; i < hand.n_melds; ++i) any |= hand.melds[i].wilds;
  return any;
}

inline void suit_keys(const Hand& hand, uint32_t keys[3]) {
  for (int s = 0; s < kSuits; ++s) keys[s] = suit_key(hand.counts.data() + kRanks * s);
}

inline int popcount3(unsigned x) { return (x & 1) + (x >> 1 & 1) + (x >> 2 & 1); }

// The kind of the only odd count, or -1 when the number of odd counts is not one. The odd bits
// of the four words sit at bit 0 of each byte; shifted by 0..3 they fold into one word without
// overlapping (bit 8 j + i: count 8 i + j), so one test replaces four popcounts.
inline int single_odd_kind(const Hand& hand) {
  uint64_t w[4];
  load_count_words(hand.counts.data(), w);
  const uint64_t odd = (w[0] & kLowBitOfEachByte) | (w[1] & kLowBitOfEachByte) << 1 |
                       (w[2] & kLowBitOfEachByte) << 2 | (w[3] & kLowBitOfEachByte) << 3;
  if (!odd || (odd & (odd - 1))) return -1;
  const int bit = lowest_bit(odd);
  return 8 * (bit & 7) + (bit >> 3);
}

inline bool all_even(const Hand& hand) {
  uint64_t w[4];
  load_count_words(hand.counts.data(), w);
  return !((w[0] | w[1] | w[2] | w[3]) & kLowBitOfEachByte);
}

// The pairs family (n = 7 pairs, or 4 at hand size 7) from two suits holding `free` pairs (a four
// is two) and `odd` odd counts: the n cheapest marginal pair costs (0 for a free pair, 1 to
// complete an odd count, else 2; per kind they are convex, so the cheapest n form a valid
// choice). One suit alone has room for 18 pairs, so the 2s never run out even when the other
// suit is not in play.
inline int seven_pairs_cost(int free, int odd, int n) {
  if (free >= n) return 0;
  if (free + odd >= n) return n - free;
  return odd + 2 * (n - free - odd);
}

// A suit not in play: only "no sets, no pair" is possible there, so its cost word keeps slot 0
// (0 for the empty suit) and every other slot at 15, above any real option (docs/rules.md §11.1: complete
// hands use only the suits in play). OR-ed into the word of each absent suit: data, no branch.
constexpr uint64_t kAbsentSuitCosts = ((1ULL << 40) - 1) & ~0xFULL;
inline uint64_t absent_costs(const HandShape& shape, int s) {
  return kAbsentSuitCosts & (0 - static_cast<uint64_t>(shape.absent >> s & 1));  // no branch
}

// A suit that holds meld kinds: a peng leaves room for one more copy of its kind, a kong for
// none, which the table (cap 4 everywhere) cannot express; the exact DP can. Its CappedSuit also
// carries the 进张 of the suit per slot (suit_costs_dp's drops): one DP rather than one per rank.

// Games ask about the same melded suits again and again (each discard, each turn), so the DP
// results are kept in a small 4-way set-associative cache, most recent first (a direct-mapped one
// let a few colliding suits of one 查听 evict each other on every call). thread_local, so threads
// need no lock and a full tag match means this thread's own result for exactly these counts and
// caps.
CappedSuit capped_suit(const Hand& hand, int s, int sets, bool fifth_copy = false) {
  const uint8_t* counts9 = hand.counts.data() + kRanks * s;
  uint8_t caps[9] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
  uint64_t caps_code = 0;  // 2 bits per rank: 0 free, 1 peng, 2 kong, 3 no cap (wild_fifth_copy)
  if (fifth_copy) {
    // Every rank uncapped: a reading may use a kind any number of times (docs/rules.md §12.2).
    for (int r = 0; r < kRanks; ++r) caps[r] = kNoCap;
    caps_code = (1ULL << 18) - 1;
  } else {
    for (int i = 0; i < hand.n_melds; ++i)
      if (suit_of(hand.melds[i].kind) == s) {
        const int r = rank_of(hand.melds[i].kind);
        caps[r] = static_cast<uint8_t>(4 - hand.melds[i].size());
        caps_code |= static_cast<uint64_t>(hand.melds[i].is_kong() ? 2 : 1) << (2 * r);
      }
  }
  const uint64_t tag = suit_key(counts9) | caps_code << 22 | static_cast<uint64_t>(sets) << 40 |
                       1ULL << 63;
  constexpr int kSetBits = 8, kWays = 4;
  struct Entry {
    uint64_t tag;
    CappedSuit suit;
  };
  thread_local Entry cache[1 << kSetBits][kWays] = {};
  Entry* set = cache[(tag * 0x9E3779B97F4A7C15ULL) >> (64 - kSetBits)];
  for (int way = 0; way < kWays; ++way)
    if (set[way].tag == tag) {
      const Entry hit = set[way];
      for (int w = way; w > 0; --w) set[w] = set[w - 1];  // most recent first
      set[0] = hit;
      return hit.suit;
    }
  CappedSuit made{};
  // A DP cost above 14 means impossible; clamped to 15 it can never beat a real option (<= 14).
  const auto dp = suit_costs_dp(counts9, caps, sets, made.drops);
  for (int slot = 0; slot < 10; ++slot)
    made.word |= static_cast<uint64_t>(std::min(dp[slot], 15)) << (4 * slot);
  for (int w = kWays - 1; w > 0; --w) set[w] = set[w - 1];  // the least recent way goes
  set[0] = {tag, made};
  return made;
}

uint64_t capped_costs(const Hand& hand, int s, int sets) { return capped_suit(hand, s, sets).word; }

// The seven-pairs bits of a table word (free pairs, odd counts), which a DP word lacks: a suit
// read without caps (wild_fifth_copy) may still make seven pairs, whose kinds never pass two
// pairs each (docs/rules.md §12.5), so the table's bits stand.
constexpr uint64_t kPairBits = ~((1ULL << 40) - 1);

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

bool is_win_unchecked(const Hand& hand, int void_suit, const HandShape& shape,
                      const WildRules& wild) {
  // Wilds without melds: the fill bits. With melds (a kind's cap), or a soft meld whose kind the
  // concealed tiles may push past four uses, or uncapped readings: the distance.
  if (hand.wilds | soft_melds(hand)) {
    if (!hand.n_melds && !wild.fifth_copy) return wild_complete(hand, void_suit, shape);
    // Melds in three suits or in the void suit: no complete hand (the distance would read the
    // hand without that suit's melds).
    const unsigned melded = meld_suits(hand);
    if (popcount3(melded) > 2 || (void_suit >= 0 && (melded >> void_suit & 1))) return false;
    return wild_distance(hand, void_suit, shape, wild) == hand.wilds;
  }
  return is_win_unchecked(hand, void_suit, shape);
}

uint32_t waits_unchecked(const Hand& hand, int void_suit, const HandShape& shape,
                         const WildRules& wild) {
  if (hand.wilds | wild.fifth_copy | soft_melds(hand)) return wild_waits(hand, void_suit, shape, wild);
  return waits_unchecked(hand, void_suit, shape) & wild.natural_kinds();  // a wild kind's draw is a wild
}

// The natural hot paths: no wild can be held, so they read the tables alone.
XUELIU_HOT_DISPATCH bool is_win_unchecked(const Hand& hand, int void_suit,
                                          const HandShape& shape) {
  uint32_t keys[3];
  suit_keys(hand, keys);
  const unsigned present = suits_present(hand, keys);
  if (popcount3(present) > 2) return false;
  if (void_suit >= 0 && (present >> void_suit & 1)) return false;
  const SuitTables& t = SuitTables::get();
  // Branch-free: whether a suit is complete is data, and mispredicted branches cost more here.
  const bool standard = t.complete(keys[0]) & t.complete(keys[1]) & t.complete(keys[2]);
  // The pairs family: at 11 tiles (hand size 10) no hand is all even, so pairs == 0 or not, the
  // test needs no size check; at 8 tiles all even is four pairs.
  return standard | ((shape.pairs != 0) & !hand.n_melds & all_even(hand));
}

XUELIU_HOT_DISPATCH uint32_t waits_unchecked(const Hand& hand, int void_suit,
                                             const HandShape& shape) {
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
  if (shape.pairs && hand.n_melds == 0) {
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
  return mask & shape.kinds;
}

namespace {

// The per-suit cost words of a hand and what shanten needs besides them.
struct Words {
  unsigned melded;     // suits holding a meld
  int sets;            // sets still to make: shape.sets - melds
  int pairs;           // pairs of the pairs family, 0 when there is none (or melds are made)
  uint32_t keys[3];    // suit keys of the concealed counts
  uint64_t word[3];    // cost words: the table, or the capped DP for a suit holding a meld kind
};

template <int kCode>
inline void words_of(const Hand& hand, const HandShape& runtime_shape, Words& w,
                     bool fifth_copy = false) {
  const HandShape& shape = fixed_shape<kCode>(runtime_shape);
  const SuitTables& t = SuitTables::get();
  w.melded = meld_suits(hand);
  w.sets = shape.sets - hand.n_melds;
  w.pairs = hand.n_melds ? 0 : shape.pairs;
  suit_keys(hand, w.keys);
  for (int s = 0; s < kSuits; ++s) {
    if (fifth_copy)
      w.word[s] = capped_suit(hand, s, w.sets, true).word | (t.costs(w.keys[s]) & kPairBits);
    else
      w.word[s] = (w.melded >> s & 1) ? capped_costs(hand, s, w.sets) : t.costs(w.keys[s]);
    w.word[s] |= absent_costs(shape, s);
  }
}

// Whether suit x may be the suit a complete hand leaves out: the void when one is declared, else
// any suit without a meld.
inline bool may_exclude(int x, unsigned melded, int void_suit) {
  return void_suit >= 0 ? x == void_suit : !(melded >> x & 1);
}

// The fewest tiles to add for a standard hand from suits a and b (a holding the pair or b).
inline int two_suit_cost(uint64_t a, uint64_t b, int sets) {
  int best = 1000;
  for (int ma = 0; ma <= sets; ++ma) {
    const int mb = sets - ma;
    best = std::min(best, SuitTables::cost_of(a, ma, 1) + SuitTables::cost_of(b, mb, 0));
    best = std::min(best, SuitTables::cost_of(a, ma, 0) + SuitTables::cost_of(b, mb, 1));
  }
  return best;
}

inline int two_suit_pairs_cost(uint64_t a, uint64_t b, int pairs) {
  return seven_pairs_cost(SuitTables::free_pairs(a) + SuitTables::free_pairs(b),
                          SuitTables::odd_counts(a) + SuitTables::odd_counts(b), pairs);
}

// min over complete hands H of |H - hand| (shanten + 1), from the words.
inline int distance_of(const Words& w, int void_suit) {
  int best = 1000;
  for (int x = 0; x < kSuits; ++x) {
    if (!may_exclude(x, w.melded, void_suit)) continue;
    const uint64_t a = w.word[x == 0 ? 1 : 0], b = w.word[x == 2 ? 1 : 2];
    best = std::min(best, two_suit_cost(a, b, w.sets));
    if (w.pairs) best = std::min(best, two_suit_pairs_cost(a, b, w.pairs));
  }
  return best;
}

// Whether a hand without melds is complete with its wilds (docs/rules.md §12.2), from the fill
// bits of its suits: the wilds split between the two suits a complete hand may use (the third,
// left out, holds no natural tile), each suit taking exactly what makes it complete; or seven
// pairs, where each odd count takes a wild and the other wilds pair among themselves.
// The table words of a hand without melds, for the fill-bit paths below: each suit's key, cost
// word and fill bits (a suit not in play takes no tile: bit 0 only), and the suits holding a tile.
// `ok` is false when those already break 缺一门 or hold the void suit.
struct FillWords {
  uint32_t keys[3];
  uint64_t word[3];
  uint32_t fill[3];
  unsigned present = 0;
  bool ok = true;
};

FillWords fill_words(const Hand& hand, int void_suit, const HandShape& shape) {
  FillWords f;
  suit_keys(hand, f.keys);
  const SuitTables& t = SuitTables::get();
  for (int s = 0; s < kSuits; ++s) {
    f.word[s] = t.costs(f.keys[s]);
    f.fill[s] = (shape.absent >> s & 1) ? 1u : SuitTables::fill_bits(f.word[s]);
    if (f.keys[s]) f.present |= 1u << s;
  }
  f.ok = popcount3(f.present) <= 2 && !(void_suit >= 0 && (f.present >> void_suit & 1));
  return f;
}

bool wild_complete(const Hand& hand, int void_suit, const HandShape& shape) {
  const FillWords f = fill_words(hand, void_suit, shape);
  if (!f.ok) return false;
  const uint32_t* fill = f.fill;
  const unsigned present = f.present;
  const int w = hand.wilds;
  for (int x = 0; x < kSuits; ++x) {
    if ((present >> x & 1) || (void_suit >= 0 && x != void_suit)) continue;
    const uint32_t a = fill[x == 0 ? 1 : 0], b = fill[x == 2 ? 1 : 2];
    for (int j = 0; j <= w; ++j)
      if ((a >> j & 1) && (b >> (w - j) & 1)) return true;
  }
  if (!shape.pairs) return false;
  int odd = 0;
  for (int s = 0; s < kSuits; ++s) odd += SuitTables::odd_counts(f.word[s]);
  return odd <= w;
}

// min over complete hands H of |H - naturals| (docs/rules.md §12.2), for a hand with wilds or under
// wild_fifth_copy: the same words, uncapped under fifth_copy. A hand is complete exactly when this
// is its wild count, ready when it is one more.
int wild_distance(const Hand& hand, int void_suit, const HandShape& shape, const WildRules& wild) {
  Words w;
  words_of<kAnyShape>(hand, shape, w, wild.fifth_copy);
  return distance_of(w, void_suit);
}

}  // namespace

int shanten_unchecked(const Hand& hand, int void_suit, const HandShape& shape,
                      const WildRules& wild) {
  if (!(hand.wilds | wild.fifth_copy)) return shanten_unchecked(hand, void_suit, shape);
  const unsigned melded = meld_suits(hand);
  if (popcount3(melded) > 2) return -2;
  if (void_suit >= 0 && (melded >> void_suit & 1)) return -2;
  // With wilds: §5's distance of the natural tiles, less one per wild (docs/rules.md §12.5).
  return wild_distance(hand, void_suit, shape, wild) - hand.wilds - 1;
}

int shanten_unchecked(const Hand& hand, int void_suit, const HandShape& shape) {
  const unsigned melded = meld_suits(hand);
  if (popcount3(melded) > 2) return -2;
  if (void_suit >= 0 && (melded >> void_suit & 1)) return -2;
  return with_shape_code(shape, [&](auto code) {
    Words w;
    words_of<decltype(code)::value>(hand, shape, w);
    return distance_of(w, void_suit) - 1;
  });
}

namespace {

constexpr uint64_t kCostBits = (1ULL << 40) - 1;

// The ten (sets, pair) costs of a cost word as bytes, so that DiscardScan compares all the splits
// of two suits at once: slot i (cost_slot order) is byte i of `lo` for i < 8, byte i - 8 of `hi`
// for i = 8, 9. Slots beyond the sets still to make, and bytes 10..15, hold kNoSlot: above every
// real sum of two costs (at most 30, the clamped 15s included), and two of them stay below 0x80,
// so byte sums never carry into the next byte.
struct SlotBytes {
  uint64_t lo, hi;
};
constexpr uint64_t kEachByte = 0x0101010101010101ULL;
constexpr uint64_t kNoSlot = 0x30;

// Bytes [0, used) of a 16-byte pair kept, the others set to kNoSlot.
inline SlotBytes pad_slots(SlotBytes b, int used) {
  const uint64_t keep_lo = used >= 8 ? ~0ULL : (1ULL << (8 * used)) - 1;
  const uint64_t keep_hi = used <= 8 ? 0 : (1ULL << (8 * (used - 8))) - 1;
  return {(b.lo & keep_lo) | (kNoSlot * kEachByte & ~keep_lo),
          (b.hi & keep_hi) | (kNoSlot * kEachByte & ~keep_hi)};
}

inline SlotBytes slot_bytes(uint64_t word, int sets) {
  uint64_t t = word & 0xFFFFFFFFULL;  // nibbles 0..7 -> bytes 0..7
  t = (t | t << 16) & 0x0000FFFF0000FFFFULL;
  t = (t | t << 8) & 0x00FF00FF00FF00FFULL;
  t = (t | t << 4) & 0x0F0F0F0F0F0F0F0FULL;
  return pad_slots({t, (word >> 32 & 0xF) | (word >> 36 & 0xF) << 8}, 2 * sets + 2);
}

// The complementary costs: byte i holds the cost of the split that completes slot i, (sets - m,
// 1 - p) for i = cost_slot(m, p), which is slot 2 * sets + 1 - i.
inline SlotBytes complement(SlotBytes b, int sets) {
  const int used = 2 * sets + 2, k = 16 - used;  // reversed all 16, then moved down k bytes
  const uint64_t rlo = byte_swap(b.hi), rhi = byte_swap(b.lo);
  SlotBytes out;
  if (k >= 8) {
    out = {k == 8 ? rhi : rhi >> (8 * (k - 8)), 0};
  } else {
    out = {rlo >> (8 * k) | rhi << (64 - 8 * k), rhi >> (8 * k)};
  }
  return pad_slots(out, used);
}

inline SlotBytes add(SlotBytes a, SlotBytes b) { return {a.lo + b.lo, a.hi + b.hi}; }

// Bit i: byte i of x equals v (exact per byte: no carry crosses a byte).
inline unsigned bytes_equal(uint64_t x, int v) {
  const uint64_t d = x ^ (static_cast<uint64_t>(v) * kEachByte);
  const uint64_t zero = ~(((d & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | d) &
                        0x8080808080808080ULL;
  return static_cast<unsigned>((zero * 0x0002040810204081ULL) >> 56);  // the high bits, gathered
}
inline unsigned slots_equal(SlotBytes s, int v) {
  return bytes_equal(s.lo, v) | bytes_equal(s.hi, v) << 8;
}

// The least byte of a pair.
inline int least_slot(SlotBytes s) {
  uint64_t m = min_bytes(s.lo, s.hi);
  m = min_bytes(m, m >> 32);
  m = min_bytes(m, m >> 16);
  m = min_bytes(m, m >> 8);
  return static_cast<int>(m & 0xFF);
}

// Nibble masks of slot masks: bit i -> bit 4 i.
inline uint64_t slot_nibbles(unsigned slots) {
  uint64_t out = 0;
  for (; slots; slots &= slots - 1) out |= 1ULL << (4 * lowest_bit(static_cast<uint32_t>(slots)));
  return out;
}

}  // namespace

DiscardScan::DiscardScan(const Hand& hand, int void_suit, const HandShape& shape)
    : hand_(hand), void_suit_(void_suit), shape_(shape) {
  melded_ = meld_suits(hand);
  sets_ = shape.sets - hand.n_melds;
  reachable_ = popcount3(melded_) <= 2 && !(void_suit >= 0 && (melded_ >> void_suit & 1));
  suit_keys(hand, keys_);
  const SuitTables& t = SuitTables::get();
  for (int s = 0; s < kSuits; ++s) {
    if (melded_ >> s & 1) {
      capped_[s] = capped_suit(hand, s, sets_);
      word_[s] = capped_[s].word;
    } else {
      word_[s] = t.costs(keys_[s]) | absent_costs(shape, s);
    }
  }
  held_ = hand.held();
}

namespace {

// 进张. Drawing a tile of suit y changes only y's cost word, and every cost by at most one, so the
// draw lowers the distance exactly when some option that reaches the distance now (a "tight" one:
// a leave-out suit x != y, a split of the sets, the pair's side, or seven pairs) has y's part
// drop by one. The tight slots of y are found once, all splits at a time (SlotBytes); each rank's
// check is then a word subtraction, as per nibble the drop is 0 or 1 and no borrow crosses
// nibbles. `word` holds the hand's three cost words, `held` its copies of each kind counting
// melds; a suit holding a meld kind comes with its DP's `drops` (the ranks that lower each slot,
// no lookups needed), the others with up(y, r): y's word with one more tile of rank r (asked only
// for kinds held fewer than four times). Returns the distance (shanten + 1); the 进张 go to
// *jinzhang.
template <typename Up>
int scan_jinzhang(const uint64_t word[3], const uint16_t* const drops[3], unsigned melded,
                  int sets, int void_suit, int pairs, const HandShape& shape, const Counts& held,
                  const Up& up, uint32_t* jinzhang) {
  SlotBytes slots[3], comp[3];
  for (int s = 0; s < kSuits; ++s) {
    slots[s] = slot_bytes(word[s], sets);
    comp[s] = complement(slots[s], sets);
  }
  const bool pairs_form = pairs != 0;  // the caller passes 0 with melds
  int best = 1000;
  for (int x = 0; x < kSuits; ++x) {
    if (!may_exclude(x, melded, void_suit)) continue;
    const int a = x == 0 ? 1 : 0, b = x == 2 ? 1 : 2;
    best = std::min(best, least_slot(add(slots[a], comp[b])));
    if (pairs_form) best = std::min(best, two_suit_pairs_cost(word[a], word[b], pairs));
  }
  uint32_t out = 0;
  for (int y = 0; y < kSuits; ++y) {
    unsigned tight = 0;       // bit i: slot i of suit y is tight
    unsigned pairs_with = 0;  // bit o: seven pairs from suits y and o is tight
    for (int x = 0; x < kSuits; ++x) {
      if (x == y || !may_exclude(x, melded, void_suit)) continue;
      const int o = kSuits - x - y;
      tight |= slots_equal(add(slots[y], comp[o]), best);
      if (pairs_form && two_suit_pairs_cost(word[y], word[o], pairs) == best)
        pairs_with |= 1u << o;
    }
    if (!tight && !pairs_with) continue;
    if (drops[y]) {  // a DP suit: its DP already knows the ranks that lower each slot
      unsigned lowering = 0;
      for (unsigned t = tight; t; t &= t - 1) lowering |= drops[y][lowest_bit(static_cast<uint32_t>(t))];
      // Seven pairs is tight only without melds, so only for an uncapped suit (wild_fifth_copy),
      // whose pair bits are the table's: up(y, r) serves it.
      for (int r = 0; r < kRanks && pairs_with; ++r)
        for (int o = 0; o < kSuits; ++o)
          if ((pairs_with >> o & 1) && held[kRanks * y + r] < 4 &&
              two_suit_pairs_cost(up(y, r), word[o], pairs) < best)
            lowering |= 1u << r;
      out |= static_cast<uint32_t>(lowering) << (kRanks * y);
      continue;
    }
    const uint64_t tight_nibbles = slot_nibbles(tight);
    const uint64_t now = word[y] & kCostBits;
    uint64_t after[kRanks];
    for (int r = 0; r < kRanks; ++r)  // the lookups first, so that their misses overlap
      after[r] = held[kRanks * y + r] < 4 ? up(y, r) : word[y];  // a full kind: "no drop"
    for (int r = 0; r < kRanks; ++r) {
      bool lowers = ((now - (after[r] & kCostBits)) & tight_nibbles) != 0;
      for (int o = 0; o < kSuits && !lowers; ++o)
        if (pairs_with >> o & 1) lowers = two_suit_pairs_cost(after[r], word[o], pairs) < best;
      if (lowers) out |= 1u << (kRanks * y + r);
    }
  }
  *jinzhang = out & shape.kinds;  // a draw of a suit not in play is no draw at all
  return best;
}

}  // namespace

int DiscardScan::discard(int d, uint32_t* jinzhang) {
  *jinzhang = 0;
  if (!reachable_) return -2;
  const int sd = suit_of(d), rd = rank_of(d);
  const SuitTables& tables = SuitTables::get();
  uint64_t word[3] = {word_[0], word_[1], word_[2]};
  const uint16_t* drops[3];
  for (int s = 0; s < kSuits; ++s) drops[s] = (melded_ >> s & 1) ? capped_[s].drops : nullptr;
  const uint32_t rest_key = keys_[sd] - static_cast<uint32_t>(kPow5[rd]);
  CappedSuit rest_suit;
  if (melded_ >> sd & 1) {
    Hand rest = hand_;
    --rest.counts[d];
    rest_suit = capped_suit(rest, sd, sets_);
    word[sd] = rest_suit.word;
    drops[sd] = rest_suit.drops;
  } else {
    word[sd] = tables.costs(rest_key);  // a held tile's suit is in play: no absent mask
  }
  Counts held = held_;
  --held[d];
  // Table suits only (a melded suit brings its drops).
  auto up = [&](int y, int r) -> uint64_t {
    if (y != sd) {  // the same for every discard of another suit
      if (!(up_ready_[y] >> r & 1)) {
        up_[y][r] = tables.costs(keys_[y] + static_cast<uint32_t>(kPow5[r]));
        up_ready_[y] = static_cast<uint16_t>(up_ready_[y] | 1u << r);
      }
      return up_[y][r];
    }
    if (r == rd) return word_[sd];  // the discard drawn back
    return tables.costs(rest_key + static_cast<uint32_t>(kPow5[r]));
  };
  return scan_jinzhang(word, drops, melded_, sets_, void_suit_,
                       hand_.n_melds ? 0 : shape_.pairs, shape_, held, up, jinzhang) - 1;
}

uint32_t jinzhang_unchecked(const Hand& hand, int void_suit, const HandShape& shape,
                            const WildRules& wild) {
  const unsigned melded = meld_suits(hand);
  if (popcount3(melded) > 2 || (void_suit >= 0 && (melded >> void_suit & 1))) return 0;
  const int sets = shape.sets - hand.n_melds;
  uint32_t keys[3];
  suit_keys(hand, keys);
  const SuitTables& tables = SuitTables::get();
  uint64_t word[3];
  CappedSuit capped[3];
  const uint16_t* drops[3] = {nullptr, nullptr, nullptr};
  for (int s = 0; s < kSuits; ++s) {
    if ((melded >> s & 1) | wild.fifth_copy) {
      capped[s] = capped_suit(hand, s, sets, wild.fifth_copy);
      word[s] = capped[s].word;
      if (wild.fifth_copy) word[s] |= (tables.costs(keys[s]) & kPairBits) | absent_costs(shape, s);
      drops[s] = capped[s].drops;
    } else {
      word[s] = tables.costs(keys[s]) | absent_costs(shape, s);
    }
  }
  auto up = [&](int y, int r) { return tables.costs(keys[y] + static_cast<uint32_t>(kPow5[r])); };
  uint32_t out = 0;
  scan_jinzhang(word, drops, melded, sets, void_suit, hand.n_melds ? 0 : shape.pairs, shape,
                hand.held(), up, &out);
  if (!wild.any()) return out;
  // Natural kinds a seat can draw: not a wild kind, fewer than four physical copies held (an
  // uncapped reading may want a fifth); and a drawn wild always lowers the shanten
  // (docs/rules.md §12.2).
  const Counts naturals = hand.naturals();
  for (int k = 0; k < kKinds; ++k)
    if (naturals[k] >= 4) out &= ~(1u << k);
  return (out & wild.natural_kinds()) | 1u << kWildBit;
}

namespace {

// The waits of a hand with wilds and no melds, from fill bits: a drawn tile of suit y completes
// the hand when y's fill bits with that tile meet the counts of wilds the other suit of the
// complete hand can take (`takes`, shifted so that bit j means "y takes j wilds"), or, for seven
// pairs, when the draw pairs an odd count (or leaves wilds enough for one more single).
uint32_t wild_waits_fill(const Hand& hand, int void_suit, const HandShape& shape,
                         const WildRules& wild) {
  const FillWords f = fill_words(hand, void_suit, shape);
  if (!f.ok) return 0;
  const SuitTables& t = SuitTables::get();
  const uint32_t* keys = f.keys;
  const uint64_t* word = f.word;
  const uint32_t* fill = f.fill;
  const unsigned present = f.present;
  const int w = hand.wilds;
  uint32_t out = 0;
  for (int y = 0; y < kSuits; ++y) {
    if ((shape.absent >> y & 1) || y == void_suit) continue;
    uint32_t takes = 0;  // bit j: y may take j wilds, the suit beside it w - j
    for (int x = 0; x < kSuits; ++x) {
      if (x == y || (present >> x & 1) || (void_suit >= 0 && x != void_suit)) continue;
      const uint32_t other = fill[kSuits - x - y];
      for (int j = 0; j <= w; ++j) takes |= (other >> (w - j) & 1u) << j;
    }
    if (!takes) continue;
    if (takes < 1u << kFillWaitBudgets) {  // every budget in the table: one read for the suit
      out |= FillWaits::get().ranks(keys[y], takes) << (kRanks * y);
      continue;
    }
    for (int r = 0; r < kRanks; ++r) {
      if (hand.counts[kRanks * y + r] >= 4) continue;
      if (SuitTables::fill_bits(t.costs(keys[y] + static_cast<uint32_t>(kPow5[r]))) & takes)
        out |= 1u << (kRanks * y + r);
    }
  }
  if (shape.pairs) {
    int odd = 0;
    for (int s = 0; s < kSuits; ++s) odd += SuitTables::odd_counts(word[s]);
    // Drawing k: an odd count of k becomes even (odd - 1 singles), an even one odd (odd + 1);
    // complete when the wilds cover the singles. The drawn kind's suit must keep 缺一门 and the
    // void (present suits plus y at most two, never the void). As masks of kinds, branch-free.
    uint32_t odd_kinds = 0, full_kinds = 0, suits = 0;
    for (int k = 0; k < kKinds; ++k) {
      odd_kinds |= static_cast<uint32_t>(hand.counts[k] & 1) << k;
      full_kinds |= static_cast<uint32_t>(hand.counts[k] >= 4) << k;
    }
    for (int y = 0; y < kSuits; ++y)
      if (!(shape.absent >> y & 1) && y != void_suit && popcount3(present | 1u << y) <= 2)
        suits |= 0x1FFu << (kRanks * y);
    if (odd - 1 <= w) out |= odd_kinds & suits;
    if (odd + 1 <= w) out |= ~odd_kinds & ~full_kinds & suits;
  }
  return out & shape.kinds & wild.natural_kinds();
}

// The waits of a hand with wilds (or read without caps): the natural kinds whose draw completes
// it, which are its 进张 when it is ready, i.e. one tile from complete (docs/rules.md §12.2).
uint32_t wild_waits(const Hand& hand, int void_suit, const HandShape& shape,
                    const WildRules& wild) {
  if (!hand.n_melds && !wild.fifth_copy) return wild_waits_fill(hand, void_suit, shape, wild);
  const unsigned melded = meld_suits(hand);
  if (popcount3(melded) > 2 || (void_suit >= 0 && (melded >> void_suit & 1))) return 0;
  if (wild_distance(hand, void_suit, shape, wild) != hand.wilds + 1) return 0;
  WildRules rules = wild;
  rules.kinds |= 1u << kWildBit;  // any(): the physical-copy filter, whatever the wild kinds
  return jinzhang_unchecked(hand, void_suit, shape, rules) & ~(1u << kWildBit);
}

}  // namespace

uint32_t jinzhang(const Hand& hand, int void_suit, const HandShape& shape,
                  const WildRules& wild) {
  validate_hand(hand);
  check_wilds(hand, wild);
  validate_void(void_suit);
  check_shape(hand, void_suit, shape);
  check_tile_count("jinzhang", hand, shape.tiles);
  check_win_reachable("jinzhang", hand, void_suit);
  return jinzhang_unchecked(hand, void_suit, shape, wild);
}

void check_wilds_slow(const Hand& hand, const WildRules& wild) {
  if ((hand.wilds | soft_melds(hand)) && !wild.any())
    throw std::invalid_argument("the hand holds wild tiles but the rules have none");
  for (uint32_t kinds = wild.kinds & ((1u << kKinds) - 1); kinds; kinds &= kinds - 1) {
    const int k = lowest_bit(kinds);
    if (hand.counts[k])
      throw std::invalid_argument(tile_name(k) + " is a wild kind: its tiles count as wilds");
    for (int i = 0; i < hand.n_melds; ++i)
      if (hand.melds[i].kind == k)
        throw std::invalid_argument("a meld of " + tile_name(k) + ", a wild kind");
  }
}

void check_win_reachable(const char* call, const Hand& hand, int void_suit) {
  const unsigned melded = meld_suits(hand);
  if (popcount3(melded) > 2 || (void_suit >= 0 && (melded >> void_suit & 1)))
    throw_unreachable(call, melded, void_suit);
}

bool is_win(const Hand& hand, int void_suit, const HandShape& shape,
            const WildRules& wild) {
  validate_hand(hand);
  check_wilds(hand, wild);
  validate_void(void_suit);
  check_shape(hand, void_suit, shape);
  check_tile_count("is_win", hand, shape.tiles + 1);
  if (!(wild.kinds | wild.fifth_copy)) return is_win_unchecked(hand, void_suit, shape);  // checked: none held
  return is_win_unchecked(hand, void_suit, shape, wild);
}

uint32_t waits(const Hand& hand, int void_suit, const HandShape& shape,
               const WildRules& wild) {
  validate_hand(hand);
  check_wilds(hand, wild);
  validate_void(void_suit);
  check_shape(hand, void_suit, shape);
  check_tile_count("waits", hand, shape.tiles);
  if (!(wild.kinds | wild.fifth_copy)) return waits_unchecked(hand, void_suit, shape);  // checked: none held
  return waits_unchecked(hand, void_suit, shape, wild);
}

int shanten(const Hand& hand, int void_suit, const HandShape& shape,
            const WildRules& wild) {
  validate_hand(hand);
  check_wilds(hand, wild);
  validate_void(void_suit);
  check_shape(hand, void_suit, shape);
  check_tile_count("shanten", hand, shape.tiles, /*or_one_more=*/true);
  check_win_reachable("shanten", hand, void_suit);
  if (!(wild.kinds | wild.fifth_copy)) return shanten_unchecked(hand, void_suit, shape);  // checked: none held
  return shanten_unchecked(hand, void_suit, shape, wild);
}

}  // namespace xueliu
