// 查听: for each discard of a hand one tile over, its shanten, its 进张 with the tiles left to draw
// and, when ready, the fan each wait would score (docs/rules.md §5 "Tile counting").
#include "analysis.hpp"

#include <algorithm>
#include <string>

#include "bits.hpp"
#include "hand.hpp"

namespace xueliu {

namespace {

// The visible counts (none: zeros), checked against what the hand holds.
Counts seen_counts(const Counts& own, const Counts* visible) {
  if (!visible) return Counts{};
  for (int t = 0; t < kKinds; ++t) {
    const int v = (*visible)[t];
    if (v > 4)
      throw std::invalid_argument("visible count of " + tile_name(t) + " is " +
                                  std::to_string(v) + " (at most 4)");
    if (own[t] + v > 4)
      throw std::invalid_argument("visible shows " + std::to_string(v) + " of " + tile_name(t) +
                                  " but the hand holds " + std::to_string(own[t]));
  }
  return *visible;
}

// The kinds of `mask` with their copies left to draw, into tiles[0, n) and total.
void add_jinzhang(uint32_t mask, const Counts& own, const Counts& seen, JinzhangTile* tiles,
                  uint8_t& n, int& total) {
  for (; mask; mask &= mask - 1) {
    const int t = lowest_bit(mask);
    const auto left = static_cast<uint8_t>(4 - own[t] - seen[t]);  // >= 0: seen_counts checked
    tiles[n++] = {static_cast<uint8_t>(t), left};
    total += left;
  }
}

}  // namespace

HandJinzhang jinzhang(const Hand& hand, const Counts* visible, int void_suit,
                      const HandShape& shape, const WildRules& wild, int wild_left) {
  HandJinzhang out;
  const uint32_t mask = jinzhang(hand, void_suit, shape, wild);  // validates
  // Physical copies: a soft meld's wilds are not copies of its kind (the same as held() at a
  // table without wilds).
  const Counts own = hand.naturals();
  const Counts seen = seen_counts(own, visible);
  add_jinzhang(mask & ((1u << kKinds) - 1), own, seen, out.tiles.data(), out.n, out.total);
  if (mask >> kWildBit & 1) {
    if (wild_left < 0 || wild_left > 255)
      throw std::invalid_argument("wilds left to draw: " + std::to_string(wild_left) +
                                  " (the wall set's wilds less those seen)");
    out.tiles[out.n++] = {static_cast<uint8_t>(kWildBit), static_cast<uint8_t>(wild_left)};
    out.total += wild_left;
  }
  return out;
}

namespace {

// Best first: lower shanten, more tiles to draw, higher best discard-win fan, lower kind.
std::vector<DiscardOption> sorted_options(std::vector<DiscardOption>& options,
                                          const std::vector<int>& best_fan) {
  std::vector<size_t> order(options.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const DiscardOption &x = options[a], &y = options[b];
    if (x.shanten != y.shanten) return x.shanten < y.shanten;
    if (x.jinzhang_total != y.jinzhang_total) return x.jinzhang_total > y.jinzhang_total;
    if (best_fan[a] != best_fan[b]) return best_fan[a] > best_fan[b];
    return x.discard < y.discard;
  });
  std::vector<DiscardOption> sorted;
  sorted.reserve(options.size());
  for (size_t i : order) sorted.push_back(std::move(options[i]));
  return sorted;
}

}  // namespace

std::vector<DiscardOption> best_discards(const Hand& hand, const Counts* visible, int void_suit,
                                         const ScoringRules& rules, int wild_left,
                                         bool wild_discard) {
  if (!rules.wild.any()) {
    if (hand.wilds) throw std::invalid_argument("the hand holds wild tiles but the rules have none");
    return best_discards(hand, visible, void_suit, rules);
  }
  validate_hand(hand);
  check_wilds(hand, rules.wild);
  validate_void(void_suit);
  check_shape(hand, void_suit, rules.shape);
  check_tile_count("best_discards", hand, rules.shape.tiles + 1);
  if (wild_left < 0 || wild_left > 255)
    throw std::invalid_argument("wilds left to draw: " + std::to_string(wild_left) +
                                " (the wall set's wilds less those seen)");
  const Counts own = hand.naturals();
  const Counts seen = seen_counts(own, visible);
  check_win_reachable("best_discards", hand, void_suit);

  // The void suit's tiles go first (docs/rules.md §4); wilds never count as void tiles (§12.3),
  // and a wild is a discard only where it is legal or nothing else is held.
  int first = 0, last = kKinds;
  bool void_held = false;
  if (void_suit >= 0)
    for (int k = kRanks * void_suit; k < kRanks * (void_suit + 1); ++k)
      if (hand.counts[k]) {
        first = kRanks * void_suit, last = first + kRanks, void_held = true;
        break;
      }
  bool naturals_held = false;
  for (int k = 0; k < kKinds; ++k) naturals_held |= hand.counts[k] != 0;
  const bool discard_wild = hand.wilds && !void_held && (wild_discard || !naturals_held);

  std::vector<DiscardOption> options;
  std::vector<int> best_fan;
  // Kinds first..last-1, then kKinds standing for a wild (without a held void tile only).
  for (int d = first; d <= (discard_wild ? kKinds : last - 1); ++d) {
    Hand rest = hand;
    if (d == kKinds) {
      --rest.wilds;
    } else {
      if (!hand.counts[d]) continue;
      --rest.counts[d];
    }
    DiscardOption option;
    option.discard = static_cast<uint8_t>(d == kKinds ? kWildBit : d);
    const int sh = shanten_unchecked(rest, void_suit, rules.shape, rules.wild);
    option.shanten = static_cast<int8_t>(sh);
    uint32_t mask = sh == -2 ? 0 : jinzhang_unchecked(rest, void_suit, rules.shape, rules.wild);
    add_jinzhang(mask & ((1u << kKinds) - 1), own, seen, option.jinzhang.data(),
                 option.n_jinzhang, option.jinzhang_total);
    if (mask >> kWildBit & 1) {
      option.jinzhang[option.n_jinzhang++] = {static_cast<uint8_t>(kWildBit),
                                               static_cast<uint8_t>(wild_left)};
      option.jinzhang_total += wild_left;
    }
    int top = 0;
    if (option.shanten == 0) {
      for (int i = 0; i < option.n_jinzhang; ++i) {
        const int t = option.jinzhang[i].kind;
        WaitOption wait;
        wait.kind = static_cast<uint8_t>(t);
        wait.remaining = option.jinzhang[i].remaining;
        Hand won = rest;
        if (t == kWildBit) ++won.wilds;
        else ++won.counts[t];
        WinContext ctx;
        ctx.win_tile = t;
        wait.discard_win = evaluate_unchecked(won, void_suit, ctx, rules);
        // Scored again rather than derived: a self-draw with four concealed wilds may be 四鸡.
        ctx.self_draw = true;
        wait.self_draw = evaluate_unchecked(won, void_suit, ctx, rules);
        top = std::max(top, wait.discard_win.fan);
        option.waits.push_back(wait);
      }
      option.total_remaining = option.jinzhang_total;
    }
    options.push_back(std::move(option));
    best_fan.push_back(top);
  }
  return sorted_options(options, best_fan);
}

std::vector<DiscardOption> best_discards(const Hand& hand, const Counts* visible, int void_suit,
                                         const ScoringRules& rules) {
  validate_hand(hand);
  validate_void(void_suit);
  check_shape(hand, void_suit, rules.shape);
  check_tile_count("best_discards", hand, rules.shape.tiles + 1);
  // The 14-tile hand and its melds: the tile about to be discarded counts as seen too.
  const Counts own = hand.held();
  const Counts seen = seen_counts(own, visible);
  check_win_reachable("best_discards", hand, void_suit);

  // docs/rules.md §4: while the hand holds tiles of its void suit, only those may be discarded.
  int first = 0, last = kKinds;
  if (void_suit >= 0)
    for (int k = kRanks * void_suit; k < kRanks * (void_suit + 1); ++k)
      if (hand.counts[k]) {
        first = kRanks * void_suit, last = first + kRanks;
        break;
      }

  std::vector<DiscardOption> options;
  options.reserve(14);
  std::vector<int> best_fan;  // best discard-win fan per option, for the ordering
  best_fan.reserve(14);
  Hand rest = hand;
  DiscardScan scan(hand, void_suit, rules.shape);
  for (int d = first; d < last; ++d) {
    if (!hand.counts[d]) continue;
    --rest.counts[d];
    DiscardOption option;
    option.discard = static_cast<uint8_t>(d);
    uint32_t jinzhang = 0;
    option.shanten = static_cast<int8_t>(scan.discard(d, &jinzhang));
    add_jinzhang(jinzhang, own, seen, option.jinzhang.data(), option.n_jinzhang,
                 option.jinzhang_total);
    int top = 0;
    if (option.shanten == 0) {
      // A ready hand's 进张 are exactly its waits (both: the draws that complete it).
      for (int i = 0; i < option.n_jinzhang; ++i) {
        const int t = option.jinzhang[i].kind;
        WaitOption wait;
        wait.kind = static_cast<uint8_t>(t);
        wait.remaining = option.jinzhang[i].remaining;
        Hand won = rest;
        ++won.counts[t];
        WinContext ctx;
        ctx.win_tile = t;
        wait.discard_win = evaluate_unchecked(won, ctx, rules);
        wait.self_draw = self_draw_of_discard_win(wait.discard_win, rules);
        top = std::max(top, wait.discard_win.fan);
        option.waits.push_back(wait);
      }
      option.total_remaining = option.jinzhang_total;
    }
    options.push_back(std::move(option));
    best_fan.push_back(top);
    ++rest.counts[d];
  }

  return sorted_options(options, best_fan);
}

}  // namespace xueliu
