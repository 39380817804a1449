// 查听: best-discard analysis of a hand one tile over (RULES.md §5 "Tile counting").
//
// Thread safety: best_discards is reentrant (it only calls hand.hpp and fan.hpp, see there);
// WaitOption and DiscardOption are plain values.
#pragma once

#include <cstdint>
#include <vector>

#include "fan.hpp"
#include "tiles.hpp"

namespace xueliu {

struct WaitOption {
  uint8_t kind = 0;
  uint8_t remaining = 0;  // 4 - own(kind) - visible(kind), own = the 14-tile hand + melds
  FanResult discard_win;  // as a win on another seat's discard
  FanResult self_draw;    // as a self-draw
};

struct DiscardOption {
  uint8_t discard = 0;  // kind
  int8_t shanten = 0;   // of the 13 - 3k hand after the discard
  int total_remaining = 0;
  std::vector<WaitOption> waits;  // kind order; empty unless shanten == 0
};

// One option per distinct discardable kind, best first: lower shanten, then more remaining winning
// tiles, then higher best discard-win fan, then lower kind. `visible` may be null (nothing seen).
// Throws std::invalid_argument on a bad hand, wrong count (14 - 3k), or own + visible > 4.
std::vector<DiscardOption> best_discards(const Hand& hand, const Counts* visible, int void_suit,
                                         const ScoringRules& rules);

}  // namespace xueliu
