// 查听: for each discard of a hand one tile over, its shanten and, when ready, every wait with the
// tiles left to draw and the fan it would score (RULES.md §5 "Tile counting").
#include "analysis.hpp"

#include <algorithm>
#include <string>

#include "hand.hpp"

namespace xueliu {

std::vector<DiscardOption> best_discards(const Hand& hand, const Counts* visible, int void_suit,
                                         const ScoringRules& rules) {
  validate_hand(hand);
  validate_void(void_suit);
  check_tile_count("best_discards", hand, 14);
  // The 14-tile hand and its melds: the tile about to be discarded counts as seen too.
  const Counts own = hand.held();
  Counts seen{};
  if (visible) {
    for (int t = 0; t < kKinds; ++t) {
      const int v = (*visible)[t];
      if (v > 4)
        throw std::invalid_argument("visible count of " + tile_name(t) + " is " +
                                    std::to_string(v) + " (at most 4)");
      if (own[t] + v > 4)
        throw std::invalid_argument("visible shows " + std::to_string(v) + " of " + tile_name(t) +
                                    " but the hand holds " + std::to_string(own[t]));
    }
    seen = *visible;
  }
  check_win_reachable("best_discards", hand, void_suit);

  std::vector<DiscardOption> options;
  std::vector<int> best_fan;  // best discard-win fan per option, for the ordering
  Hand rest = hand;
  for (int d = 0; d < kKinds; ++d) {
    if (!hand.counts[d]) continue;
    --rest.counts[d];
    DiscardOption option;
    option.discard = static_cast<uint8_t>(d);
    option.shanten = static_cast<int8_t>(shanten_unchecked(rest, void_suit, rules.seven_pairs));
    int top = 0;
    if (option.shanten == 0) {
      const uint32_t mask = waits_unchecked(rest, void_suit, rules.seven_pairs);
      for (int t = 0; t < kKinds; ++t) {
        if (!(mask >> t & 1)) continue;
        WaitOption wait;
        wait.kind = static_cast<uint8_t>(t);
        wait.remaining = static_cast<uint8_t>(4 - own[t] - seen[t]);  // >= 0: checked above
        Hand won = rest;
        ++won.counts[t];
        WinContext ctx;
        ctx.win_tile = t;
        wait.discard_win = evaluate_unchecked(won, ctx, rules);
        wait.self_draw = self_draw_of_discard_win(wait.discard_win, rules);
        option.total_remaining += wait.remaining;
        top = std::max(top, wait.discard_win.fan);
        option.waits.push_back(wait);
      }
    }
    options.push_back(std::move(option));
    best_fan.push_back(top);
    ++rest.counts[d];
  }

  std::vector<size_t> order(options.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const DiscardOption &x = options[a], &y = options[b];
    if (x.shanten != y.shanten) return x.shanten < y.shanten;
    if (x.total_remaining != y.total_remaining) return x.total_remaining > y.total_remaining;
    if (best_fan[a] != best_fan[b]) return best_fan[a] > best_fan[b];
    return x.discard < y.discard;
  });
  std::vector<DiscardOption> sorted;
  sorted.reserve(options.size());
  for (size_t i : order) sorted.push_back(std::move(options[i]));
  return sorted;
}

}  // namespace xueliu
