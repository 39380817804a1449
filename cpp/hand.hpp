// Win checks, waits and exact shanten (docs/rules.md §5).
//
// Thread safety: every function is reentrant. They share the per-suit tables (tables.hpp: built
// once, then read-only) and keep a thread_local cache for shanten with melds, so concurrent calls
// on different threads need no lock.
#pragma once

#include <cstdint>

#include "tiles.hpp"

namespace xueliu {

// Wild tiles (docs/rules.md §12): `hand.wilds` concealed wilds and `wild` (which kinds are wild,
// whether a reading may use a kind more than four times). A hand's wilds stand for any kind of a
// suit in play outside the void; the calls answer over those readings: is_win whether some reading
// is complete, waits the natural kinds whose draw completes the hand (never a wild kind: a drawn
// wild completes every ready hand), shanten §5's shanten of the natural tiles less one per wild,
// 进张 the natural kinds plus bit kWildBit (the wild) whenever the rules have wilds. A wild kind's
// count in `hand.counts` must be 0, and a hand may hold wilds only when `wild.any()`.
inline constexpr WildRules kNoWilds{};

// Every call takes the table shape (tiles.hpp: hand size, sets, pairs family, suits in play);
// "13 - 3k" below reads "shape.tiles - 3k", and the complete hands are made of the suits in play.
// The overloads taking `bool seven_pairs` are the default table (13 tiles, three suits).

// Whether `hand` (14 - 3k concealed tiles, the winning tile included) is a complete hand that
// respects 缺一门 and `void_suit` (kNoVoid for none). Throws std::invalid_argument on a bad hand,
// a wrong tile count or a tile not in play.
bool is_win(const Hand& hand, int void_suit, const HandShape& shape,
            const WildRules& wild = kNoWilds);

// The waits of a 13 - 3k hand as a bitmask (bit k = kind k), excluding kinds already held four
// times counting melds. Throws std::invalid_argument on a bad hand or a wrong tile count.
uint32_t waits(const Hand& hand, int void_suit, const HandShape& shape,
               const WildRules& wild = kNoWilds);

// Exact shanten of a 13 - 3k or 14 - 3k hand: min over complete hands H that keep the melds,
// respect 缺一门 and the void, use only the suits in play and no kind more than 4 times, of
// |H - hand| - 1. Throws std::invalid_argument on a bad hand, a wrong count, or when no complete
// hand exists (the melds already break 缺一门 or the void).
int shanten(const Hand& hand, int void_suit, const HandShape& shape,
            const WildRules& wild = kNoWilds);

// Throws std::invalid_argument, prefixed with `call`, when the melds alone already rule out every
// complete hand: they span three suits (缺一门) or hold the void suit. shanten and best_discards
// raise it; shanten_unchecked's -2 means exactly this.
void check_win_reachable(const char* call, const Hand& hand, int void_suit);

// Throws std::invalid_argument for wilds the rules do not have: concealed or melded wilds
// without wild rules, or a natural count of a wild kind (every copy of a wild kind is a wild).
// Inline, so that a natural call pays one test.
void check_wilds_slow(const Hand& hand, const WildRules& wild);
inline void check_wilds(const Hand& hand, const WildRules& wild) {
  unsigned any = wild.kinds | hand.wilds;
  for (int i = 0; i < hand.n_melds; ++i) any |= hand.melds[i].wilds;
  if (any) check_wilds_slow(hand, wild);
}

// The same without validation, for batch loops that validated every row first. Return -2 from
// shanten_unchecked when no complete hand exists. The overloads without WildRules are the natural
// hot paths (no wild held, no soft meld); those with it take any hand.
bool is_win_unchecked(const Hand& hand, int void_suit, const HandShape& shape);
bool is_win_unchecked(const Hand& hand, int void_suit, const HandShape& shape,
                      const WildRules& wild);
uint32_t waits_unchecked(const Hand& hand, int void_suit, const HandShape& shape);
uint32_t waits_unchecked(const Hand& hand, int void_suit, const HandShape& shape,
                         const WildRules& wild);
int shanten_unchecked(const Hand& hand, int void_suit, const HandShape& shape);
int shanten_unchecked(const Hand& hand, int void_suit, const HandShape& shape,
                      const WildRules& wild);

// 进张 (jinzhang) of a 13 - 3k hand: the kinds whose draw lowers its shanten (bit k = kind k), kinds
// held four times counting melds left out; for a ready hand, its waits. Throws
// std::invalid_argument like shanten (a bad hand, a wrong count, no complete hand possible).
uint32_t jinzhang(const Hand& hand, int void_suit, const HandShape& shape,
                  const WildRules& wild = kNoWilds);
uint32_t jinzhang_unchecked(const Hand& hand, int void_suit, const HandShape& shape,
                            const WildRules& wild = kNoWilds);

// The default table (13 tiles, three suits), with or without the pairs family.
inline bool is_win(const Hand& hand, int void_suit, bool seven_pairs) {
  return is_win(hand, void_suit, hand_shape(seven_pairs));
}
inline uint32_t waits(const Hand& hand, int void_suit, bool seven_pairs) {
  return waits(hand, void_suit, hand_shape(seven_pairs));
}
inline int shanten(const Hand& hand, int void_suit, bool seven_pairs) {
  return shanten(hand, void_suit, hand_shape(seven_pairs));
}
inline uint32_t jinzhang(const Hand& hand, int void_suit, bool seven_pairs) {
  return jinzhang(hand, void_suit, hand_shape(seven_pairs));
}
inline bool is_win_unchecked(const Hand& hand, int void_suit, bool seven_pairs) {
  return is_win_unchecked(hand, void_suit, hand_shape(seven_pairs));
}
inline uint32_t waits_unchecked(const Hand& hand, int void_suit, bool seven_pairs) {
  return waits_unchecked(hand, void_suit, hand_shape(seven_pairs));
}
inline int shanten_unchecked(const Hand& hand, int void_suit, bool seven_pairs) {
  return shanten_unchecked(hand, void_suit, hand_shape(seven_pairs));
}

// A suit that holds meld kinds, from the exact capped DP (tables.hpp's suit_costs_dp): its cost
// word and, per (sets, pair) slot, the ranks one more tile of which lowers that cost (bit r).
struct CappedSuit {
  uint64_t word = 0;
  uint16_t drops[10] = {};
};

// Shanten and 进张 after each discard of one validated 14 - 3k hand (查听), sharing the table
// lookups the discards have in common (a suit the discard leaves alone looks the same after each
// of them). discard(d) returns the shanten of the hand without one tile of kind d (which it must
// hold), -2 when no complete hand exists, and puts in *jinzhang the kinds whose draw would lower
// it (bit k = kind k; kinds then held four times counting melds left out). For a ready hand the
// 进张 are its waits. Holds a reference to the hand; one scan per thread.
class DiscardScan {
 public:
  DiscardScan(const Hand& hand, int void_suit, const HandShape& shape);
  int discard(int d, uint32_t* jinzhang);

 private:
  const Hand& hand_;
  int void_suit_;
  const HandShape& shape_;
  bool reachable_ = true;
  unsigned melded_ = 0;
  int sets_ = 0;
  uint32_t keys_[3] = {};
  uint64_t word_[3] = {};
  Counts held_{};
  CappedSuit capped_[3] = {};   // of the suits holding a meld kind
  uint64_t up_[3][9] = {};      // a table suit's word with one more tile of rank r, whole hand
  uint16_t up_ready_[3] = {};   // bit r: up_[y][r] is filled
};

}  // namespace xueliu
