// 查听: best-discard analysis of a hand one tile over (docs/rules.md §5 "Tile counting").
//
// Thread safety: best_discards is reentrant (it only calls hand.hpp and fan.hpp, see there);
// WaitOption and DiscardOption are plain values.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "fan.hpp"
#include "hand.hpp"
#include "tiles.hpp"

namespace xueliu {

struct WaitOption {
  uint8_t kind = 0;
  uint8_t remaining = 0;  // 4 - own(kind) - visible(kind), own = the 14-tile hand + melds
  FanResult discard_win;  // as a win on another seat's discard
  FanResult self_draw;    // as a self-draw
};

// One kind of 进张 and the copies of it left to draw (0 allowed: every copy is in sight).
struct JinzhangTile {
  uint8_t kind = 0;
  uint8_t remaining = 0;  // as WaitOption::remaining
};

struct DiscardOption {
  uint8_t discard = 0;  // kind; kWildBit: a wild (docs/rules.md §12.3)
  int8_t shanten = 0;   // of the 13 - 3k hand after the discard
  int total_remaining = 0;        // the waits' remaining, summed
  std::vector<WaitOption> waits;  // kind order; empty unless shanten == 0
  // 进张: every kind whose draw lowers the shanten after the discard, in kind order (for a ready
  // option, its waits); kinds held four times counting melds cannot be drawn and are left out.
  std::array<JinzhangTile, kKinds + 1> jinzhang{};  // with wild rules, the wild (kWildBit) last
  uint8_t n_jinzhang = 0;
  int jinzhang_total = 0;  // their remaining, summed (= total_remaining when ready)
};

// 进张 of a 13 - 3k hand with the copies of each left to draw (own = the hand + melds).
struct HandJinzhang {
  std::array<JinzhangTile, kKinds + 1> tiles{};  // kind order; with wild rules, then the wild
  uint8_t n = 0;
  int total = 0;
};
// Throws std::invalid_argument like jinzhang (hand.hpp), or when own + visible > 4. With wild
// rules (docs/rules.md §12.2) the natural kinds come first, `visible` holding natural tiles only,
// then the wild (kind kWildBit) with `wild_left` copies: the wall set's wilds the seat has not
// seen, which the caller counts (own wilds, concealed and melded, and the wilds in sight).
HandJinzhang jinzhang(const Hand& hand, const Counts* visible, int void_suit,
                      const HandShape& shape, const WildRules& wild = kNoWilds,
                      int wild_left = 0);

// One option per distinct discardable kind, best first: lower shanten, then more tiles left to
// draw (the winning tiles when ready, the 进张 otherwise: jinzhang_total), then higher best
// discard-win fan, then lower kind. With a void suit declared and tiles of it in the hand, only
// those may be discarded (docs/rules.md §4), so only they are options. `visible` may be null (nothing
// seen). Throws std::invalid_argument on a bad hand, wrong count (14 - 3k, or rules.shape.tiles + 1
// - 3k), a tile not in play, or own + visible > 4.
std::vector<DiscardOption> best_discards(const Hand& hand, const Counts* visible, int void_suit,
                                         const ScoringRules& rules);

// The same under wild rules (rules.wild, docs/rules.md §12.2): `visible` holds natural tiles only;
// `wild_left` is the wall set's wilds the seat has not seen (its own, concealed and melded, and
// those in sight are out), the remaining of the wild wait and of the wild's 进张; a wild may be
// discarded (kind kWildBit) when `wild_discard` (wild_discard "dead") or when the hand holds
// nothing else. Ready options list their natural waits, then the wild, whose fan is its best
// reading's.
std::vector<DiscardOption> best_discards(const Hand& hand, const Counts* visible, int void_suit,
                                         const ScoringRules& rules, int wild_left,
                                         bool wild_discard);

}  // namespace xueliu
