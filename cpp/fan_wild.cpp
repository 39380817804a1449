// The fan of a hand holding wilds (docs/rules.md §12.2, §12.5): its best reading, or 四鸡.
//
// A reading lets each concealed wild stand for one tile of a kind of a suit in play, never of the
// void suit, no kind used more than four times counting the melds at full size (no limit under
// wild_fifth_copy). Every complete reading is scored with all its fans and the best one stands.
//
// How it works: per suit, not per substitution. A reading is, suit by suit, the suit's natural
// tiles plus j of the wilds, and the features the fan reads of a suit (its decomposition
// signatures, its fours and gens, 1/9 and 2/5/8 tiles, 九莲宝灯's counts, whether a winning wild may
// be its 5 or its 2s) depend on that suit alone. So:
//   1. for each suit the wilds may enter, list the complete shapes reachable by adding j <= w
//      tiles: a search adding tiles in non-decreasing rank order, cut as soon as the suit's cost
//      word (tables.hpp) says no completion is left within the remaining budget (the cost of a
//      shape of m sets and p pairs equals the tiles it still needs exactly when one exists), plus
//      the pairs-family shapes (every odd count made even, then pairs added);
//   2. reduce each shape to its features and keep one shape per distinct feature record (most
//      shapes of a suit share one);
//   3. combine one record per suit whose j add up to the wilds held, at most two suits present
//      (缺一门, melds fix suits), and score each combination as one reading with the same
//      best_of_reading the natural hand uses (fan_detail.hpp), ranking readings by total, base
//      fan, table order, gens, then the additive fans in table order.
// A reading's total can only be reached by readings whose bound (best base fan possible + gens +
// reading fans) reaches it, so a combination whose bound falls short is skipped unscored.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fan.hpp"
#include "fan_detail.hpp"
#include "hand.hpp"
#include "tables.hpp"

namespace xueliu::fan_detail {
namespace {

constexpr uint8_t kNoCopyCap = 14;  // wild_fifth_copy: a suit holds at most 14 tiles anyway
constexpr uint8_t kNineGates[kRanks] = {3, 1, 1, 1, 1, 1, 1, 1, 3};

// Nine counts packed four bits each: the identity of a shape of one suit (counts may pass 4
// under wild_fifth_copy, so the base-5 key cannot be it).
inline uint64_t pack(const uint8_t* c) {
  uint64_t p = 0;
  for (int r = kRanks - 1; r >= 0; --r) p = p << 4 | c[r];
  return p;
}

// Both decomposition signatures (fan_detail.hpp: the 456 reading low, the 123 one high) of a
// suit with a count above 4, which the table does not hold: every split into sets and at most
// one pair, as for_each_suit_shape describes them.
void split_sets(uint8_t* c, int r, unsigned pungs, unsigned chows, int pair, uint32_t* sigs) {
  while (r < kRanks && c[r] == 0) ++r;
  if (r == kRanks) {
    unsigned combo456 = 0, combo123 = 0;
    suit_combos(pair, pungs, chows, &combo456, &combo123);
    *sigs |= (1u << combo456) | (1u << (16 + combo123));
    return;
  }
  if (c[r] >= 3) {
    c[r] -= 3;
    split_sets(c, r, pungs | 1u << r, chows, pair, sigs);
    c[r] += 3;
  }
  if (r + 2 < kRanks && c[r + 1] && c[r + 2]) {
    --c[r], --c[r + 1], --c[r + 2];
    split_sets(c, r, pungs, chows | 1u << r, pair, sigs);
    ++c[r], ++c[r + 1], ++c[r + 2];
  }
}

uint32_t wide_signatures(const uint8_t* counts) {
  uint8_t c[kRanks];
  int n = 0;
  for (int r = 0; r < kRanks; ++r) n += c[r] = counts[r];
  uint32_t sigs = 0;
  if (n % 3 == 0) split_sets(c, 0, 0, 0, -1, &sigs);
  if (n % 3 == 2)
    for (int p = 0; p < kRanks; ++p) {
      if (c[p] < 2) continue;
      c[p] -= 2;
      split_sets(c, 0, 0, 0, p, &sigs);
      c[p] += 2;
    }
  return sigs;
}

// The complete shapes of one suit within a budget of added tiles (step 1 above).
class SuitShapes {
 public:
  // `cut`: the cost words bound the search (they assume four copies at most, so not under
  // wild_fifth_copy, where a reading may need a fifth: there the budget alone bounds it).
  SuitShapes(const uint8_t* naturals, const uint8_t* caps, int max_sets, bool pairs_family,
             bool cut, std::vector<uint64_t>& out)
      : tables_(SuitTables::get()), max_sets_(max_sets), cut_(cut), out_(out) {
    for (int r = 0; r < kRanks; ++r) {
      c_[r] = naturals[r];
      cap_[r] = caps[r];
      n_ += c_[r];
    }
    pairs_family_ = pairs_family;
  }

  void search(int budget) {
    for (int r = 0; r < kRanks; ++r)
      if (c_[r] > cap_[r]) return;  // the natural tiles and the melds already pass the limit
    const uint32_t key = suit_key(c_);
    if (!cut_ || feasible(key, n_, budget)) standard(key, 0, budget, 0);
    if (pairs_family_) pairs(budget);
  }

 private:
  // Some shape of m sets and p pairs (m within the hand's sets) is reachable by adding at most
  // `budget` tiles: its cost (tiles it needs beyond the suit's) is at least 3m + 2p - n, and
  // equals it exactly when the suit's tiles are all part of it.
  bool feasible(uint32_t key, int n, int budget) const {
    const uint64_t word = tables_.costs(key);
    for (int m = 0; m <= max_sets_; ++m)
      for (int p = 0; p < 2; ++p) {
        const int need = 3 * m + 2 * p - n;
        if (need >= 0 && need <= budget && SuitTables::cost_of(word, m, p) == need) return true;
      }
    return false;
  }

  // Adds tiles at ranks >= first, so each multiset of additions is met once. `wide`: ranks
  // holding more than four (wild_fifth_copy), where the tables have no key: no cut there.
  void standard(uint32_t key, int first, int budget, int wide) {
    if (wide ? wide_signatures(c_) != 0 : (n_ % 3 != 1 && tables_.complete(key)))
      out_.push_back(pack(c_));
    if (budget == 0) return;
    for (int r = first; r < kRanks; ++r) {
      if (c_[r] >= cap_[r]) continue;
      ++c_[r];
      ++n_;
      const int w = wide + (c_[r] == 5);
      const uint32_t next = key + static_cast<uint32_t>(kPow5[r]);
      if (w || !cut_ || feasible(next, n_, budget - 1)) standard(next, r, budget - 1, w);
      --c_[r];
      --n_;
    }
  }

  // The pairs family: every count 0, 2 or 4. Each odd count takes one tile, then pairs are
  // added (a rank gets at most two), within the budget.
  void pairs(int budget) {
    uint8_t c[kRanks];
    int need = 0;
    for (int r = 0; r < kRanks; ++r) {
      c[r] = c_[r];
      if (c[r] & 1) {
        ++c[r];
        ++need;
        if (c[r] > cap_[r]) return;
      }
    }
    if (need > budget) return;
    add_pairs(c, 0, (budget - need) / 2);
  }

  void add_pairs(uint8_t* c, int first, int left) {
    out_.push_back(pack(c));
    if (left == 0) return;
    for (int r = first; r < kRanks; ++r) {
      if (c[r] + 2 > 4 || c[r] + 2 > cap_[r]) continue;
      c[r] += 2;
      add_pairs(c, r, left - 1);
      c[r] -= 2;
    }
  }

  const SuitTables& tables_;
  uint8_t c_[kRanks] = {};
  uint8_t cap_[kRanks] = {};
  int n_ = 0;
  int max_sets_;
  bool cut_;
  bool pairs_family_ = false;
  std::vector<uint64_t>& out_;
};

// What the fan reads of one suit of a reading (step 2). Packed into `id` with the wilds used in
// the top bits, so options sort by wilds and equal records collapse.
struct SuitOption {
  uint64_t id = 0;
  int j() const { return static_cast<int>(id >> 56); }
  Signature sig_jx() const { return static_cast<Signature>(id); }  // middle five: 夹心五
  Signature sig_kr() const { return static_cast<Signature>(id >> 16); }  // middle five: 卡二条
  int gens() const { return static_cast<int>(id >> 32 & 0xF); }
  int fours() const { return static_cast<int>(id >> 36 & 0x7); }
  bool yao() const { return id >> 39 & 1; }
  bool not258() const { return id >> 40 & 1; }
  bool jiulian() const { return id >> 41 & 1; }
  bool even() const { return id >> 42 & 1; }
  bool pair() const { return id >> 43 & 1; }
  bool tiles() const { return id >> 44 & 1; }
};

// The hand's facts that no reading changes, and the knobs the suits' features read.
struct WildHand {
  const Hand& hand;
  const ScoringRules& rules;
  int void_suit;
  bool win_wild = false;  // the winning tile is a wild
  int win_kind = -1;      // a natural winning tile
  uint8_t meld_full[kKinds] = {};
  uint8_t meld_wilds[kKinds] = {};
  unsigned meld_suits = 0;
  int n_kongs = 0;
  int plain_kongs = 0;     // kongs holding no wild
  int physical_wilds = 0;  // concealed and melded
  bool melds_yao = true;   // every meld of a 1 or a 9
  bool melds_any_yao = false;
  bool melds_258 = true;
  bool exposed = false;

  WildHand(const Hand& h, const ScoringRules& r, int v, const WinContext& ctx)
      : hand(h), rules(r), void_suit(v) {
    win_wild = ctx.win_tile == kWildBit;
    win_kind = win_wild ? -1 : ctx.win_tile;
    physical_wilds = h.wilds;
    for (int i = 0; i < h.n_melds; ++i) {
      const Meld& m = h.melds[i];
      meld_full[m.kind] = static_cast<uint8_t>(meld_full[m.kind] + m.size());
      meld_wilds[m.kind] = static_cast<uint8_t>(meld_wilds[m.kind] + m.wilds);
      meld_suits |= 1u << suit_of(m.kind);
      physical_wilds += m.wilds;
      const int rank = rank_of(m.kind);
      const bool yao = rank == 0 || rank == kRanks - 1;
      melds_yao = melds_yao && yao;
      melds_any_yao = melds_any_yao || yao;
      melds_258 = melds_258 && rank % 3 == 1;
      if (m.is_kong()) {
        ++n_kongs;
        plain_kongs += m.wilds == 0;
      }
      exposed = exposed || m.type != MeldType::ConcealedKong;
    }
  }

  // The features of one shape of suit s (counts c) reached from its natural counts n.
  SuitOption option(int s, const uint8_t* c, const uint8_t* n) const {
    int tiles = 0, added = 0, fours = 0, gens = 0;
    bool even = true, not258 = false, jiulian = true, five = false, two = false, wide = false;
    for (int r = 0; r < kRanks; ++r) {
      const int k = s * kRanks + r, read = c[r] - n[r];
      tiles += c[r];
      added += read;
      even = even && (c[r] == 0 || c[r] == 2 || c[r] == 4);
      fours += c[r] == 4;
      wide = wide || c[r] > 4;
      not258 = not258 || (c[r] && r % 3 != 1);
      jiulian = jiulian && c[r] >= kNineGates[r];
      five = five || (r == 4 && read > 0);
      two = two || (k == 2 * kRanks + 1 && read > 0);
      // A 根 per kind used four or more times (a fifth use is still one), by wild_gen (D49).
      if (c[r] + meld_full[k] >= 4) {
        switch (rules.wild_gen) {
          case WildGen::Fours: ++gens; break;
          case WildGen::Natural: gens += read == 0; break;
          case WildGen::PerWild: gens += read == 0 && meld_wilds[k] == 0; break;
        }
      }
    }
    const uint32_t both = wide ? wide_signatures(c) : suit_signatures().lookup(suit_key(c));
    Signature s456 = static_cast<Signature>(both), s123 = static_cast<Signature>(both >> 16);
    // The middle-five feature of this suit: its 456 chow where the winning tile is (or a winning
    // wild may be read as) its 5; its 123 chow where it is (or may be) the 2s (D50).
    const bool jx = rules.jiaxinwu && (win_wild ? five : win_kind == s * kRanks + 4);
    const bool kr = rules.kaertiao && (win_wild ? two : win_kind == 2 * kRanks + 1) && s == 2;
    const Signature plain = drop_feature(s456, kMidFive);
    Signature sig_jx = jx ? s456 : plain, sig_kr = kr ? s123 : plain;
    if (!rules.yitiaolong) {
      sig_jx = drop_feature(sig_jx, kDragon);
      sig_kr = drop_feature(sig_kr, kDragon);
    }
    const bool yao = c[0] || c[kRanks - 1];
    SuitOption o;
    o.id = uint64_t(sig_jx) | uint64_t(sig_kr) << 16 | uint64_t(std::min(gens, 15)) << 32 |
           uint64_t(std::min(fours, 7)) << 36 | uint64_t(yao) << 39 | uint64_t(not258) << 40 |
           uint64_t(jiulian) << 41 | uint64_t(even) << 42 | uint64_t(tiles % 3 == 2) << 43 |
           uint64_t(tiles > 0) << 44 | uint64_t(added) << 56;
    return o;
  }
};

// The best candidate so far across readings, with the reading fans the extras rank (D48):
// total (断幺九 included: it depends on the reading), base fan, table order, gens, then 断幺九,
// 一条龙, 夹心五, 卡二条.
struct Ranked {
  Candidate c;
  bool duanyao = false;
  bool kaer = false;  // the middle-five feature of c is 卡二条's
  int total() const { return c.total + duanyao; }
  unsigned rank() const {
    const bool mid = c.combo & kMidFive;
    return unsigned(duanyao) << 3 | ((c.combo & kDragon) ? 4u : 0u) | unsigned(mid && !kaer) << 1 |
           unsigned(mid && kaer);
  }
};

inline bool better(const Ranked& a, const Ranked& b) {
  if (a.total() != b.total()) return a.total() > b.total();
  if (a.c.base_fan != b.c.base_fan) return a.c.base_fan > b.c.base_fan;
  if (a.c.pattern != b.c.pattern) return a.c.pattern < b.c.pattern;
  if (a.c.gen != b.c.gen) return a.c.gen > b.c.gen;
  return a.rank() > b.rank();
}

// Step 3 over the options of the three suits.
template <bool kRegional>
class ReadingSearch {
 public:
  ReadingSearch(const WildHand& wh, const WinContext& ctx, const std::vector<SuitOption>* opts)
      : wh_(wh), ctx_(ctx), opts_(opts) {
    const ScoringRules& rules = wh.rules;
    // The highest base fan any reading can reach, for the bound.
    for (int p = 0; p < kTablePatterns; ++p) max_base_ = std::max(max_base_, rules.fan_table[p]);
  }

  Ranked run() {
    const int w = wh_.hand.wilds;
    // Options by wilds used: opts_[s] is sorted by j, start_[s][j] its first of j.
    for (int s = 0; s < kSuits; ++s) {
      const auto& o = opts_[s];
      size_t i = 0;
      for (int j = 0; j <= w + 1; ++j) {
        while (i < o.size() && o[i].j() < j) ++i;
        start_[s][j] = i;
      }
    }
    for (int j0 = 0; j0 <= w; ++j0)
      for (int j1 = 0; j0 + j1 <= w; ++j1) {
        const int j2 = w - j0 - j1;
        for (size_t a = start_[0][j0]; a < start_[0][j0 + 1]; ++a)
          for (size_t b = start_[1][j1]; b < start_[1][j1 + 1]; ++b)
            for (size_t c = start_[2][j2]; c < start_[2][j2 + 1]; ++c)
              reading(opts_[0][a], opts_[1][b], opts_[2][c]);
      }
    return best_;
  }

  bool found() const { return found_; }

 private:
  void reading(const SuitOption& o0, const SuitOption& o1, const SuitOption& o2) {
    const SuitOption* o[kSuits] = {&o0, &o1, &o2};
    unsigned present = wh_.meld_suits;
    for (int s = 0; s < kSuits; ++s) present |= unsigned(o[s]->tiles()) << s;
    if (present == 7) return;  // 缺一门
    const ScoringRules& rules = wh_.rules;
    const int pair_suits = int(o0.pair()) + int(o1.pair()) + int(o2.pair());
    const bool standard = pair_suits == 1 && o0.sig_jx() && o1.sig_jx() && o2.sig_jx();
    const bool seven =
        rules.shape.pairs && wh_.hand.n_melds == 0 && o0.even() && o1.even() && o2.even();
    if (!standard && !seven) return;
    found_ = true;

    ReadingFacts f;
    f.standard = standard;
    f.seven = seven;
    f.one_suit = (present & (present - 1)) == 0;
    f.all_258 = wh_.melds_258 && !(o0.not258() || o1.not258() || o2.not258());
    const bool any_yao = wh_.melds_any_yao || o0.yao() || o1.yao() || o2.yao();
    const bool duanyao = rules.duanyaojiu && !any_yao;
    f.jiulian = wh_.hand.n_melds == 0 && f.one_suit &&
                (o0.jiulian() || o1.jiulian() || o2.jiulian()) &&
                ((o0.tiles() ? 1 : 0) + (o1.tiles() ? 1 : 0) + (o2.tiles() ? 1 : 0)) == 1;
    f.fours = o0.fours() + o1.fours() + o2.fours();
    const bool per_wild = rules.wild_gen == WildGen::PerWild;
    const int fours_gens = o0.gens() + o1.gens() + o2.gens() + (per_wild ? wh_.physical_wilds : 0);
    switch (rules.gen_counts) {
      case GenCounts::AllFours:
        f.std_gens = f.pairs_gens = fours_gens;
        break;
      case GenCounts::KongsOnly:  // a soft kong is a kong (docs/rules.md §12.5)
        f.std_gens = per_wild ? wh_.plain_kongs + wh_.physical_wilds : wh_.n_kongs;
        f.pairs_gens = fours_gens;
        break;
      case GenCounts::None:
        break;
    }

    // The bound: no candidate of this reading beats the best so far when even the best base
    // fan with every gen and reading fan falls short of its total.
    if (found_best_) {
      const int gens = std::max(f.std_gens, f.pairs_gens);
      const int bound = max_base_ + gens + duanyao + 2;
      if (bound < best_.total()) return;
    }

    if (standard) {
      Signature sig = kNeutral;
      bool kr = false;
      for (int s = 0; s < kSuits; ++s) {
        if (!o[s]->tiles()) continue;
        sig = combine(sig, o[s]->sig_jx());
        kr = kr || (o[s]->sig_kr() & 0xFF00);
      }
      if (!wh_.melds_yao) sig = drop_feature(sig, kAllYao);
      f.sig = sig;
      consider(f, duanyao, false);
      if (kr) {  // a winning wild read as the 2s instead (卡二条): the same reading once more
        Signature sk = kNeutral;
        for (int s = 0; s < kSuits; ++s)
          if (o[s]->tiles()) sk = combine(sk, o[s]->sig_kr());
        if (!wh_.melds_yao) sk = drop_feature(sk, kAllYao);
        f.sig = sk;
        consider(f, duanyao, true);
      }
    } else {
      consider(f, duanyao, false);
    }
  }

  void consider(const ReadingFacts& f, bool duanyao, bool kaer) {
    Ranked r;
    r.c = best_of_reading<kRegional>(f, wh_.hand.n_melds, wh_.n_kongs, ctx_, wh_.rules);
    r.duanyao = duanyao;
    r.kaer = kaer;
    if (r.c.pattern == kPatternCount) return;
    if (!found_best_ || better(r, best_)) {
      best_ = r;
      found_best_ = true;
    }
  }

  const WildHand& wh_;
  const WinContext& ctx_;
  const std::vector<SuitOption>* opts_;
  size_t start_[kSuits][16] = {};
  int max_base_ = 0;
  Ranked best_;
  bool found_ = false;
  bool found_best_ = false;
};

// The options of every suit (steps 1 and 2). A suit the wilds may not enter (not in play, or the
// void) holds nothing here (evaluate checked the void and the shape): its one option is empty.
void suit_options(const WildHand& wh, std::vector<SuitOption>* opts) {
  const Hand& hand = wh.hand;
  const ScoringRules& rules = wh.rules;
  thread_local std::vector<uint64_t> shapes;
  const int max_sets = rules.shape.sets - hand.n_melds;
  const bool pairs_family = rules.shape.pairs && hand.n_melds == 0;
  for (int s = 0; s < kSuits; ++s) {
    const uint8_t* n = &hand.counts[s * kRanks];
    opts[s].clear();
    shapes.clear();
    const bool open = !(rules.shape.absent >> s & 1) && s != wh.void_suit;
    if (open) {
      uint8_t caps[kRanks];
      for (int r = 0; r < kRanks; ++r)
        caps[r] = rules.wild.fifth_copy ? kNoCopyCap
                                        : static_cast<uint8_t>(4 - wh.meld_full[s * kRanks + r]);
      SuitShapes(n, caps, max_sets, pairs_family, !rules.wild.fifth_copy, shapes)
          .search(hand.wilds);
    } else {
      shapes.push_back(pack(n));
    }
    std::sort(shapes.begin(), shapes.end());
    shapes.erase(std::unique(shapes.begin(), shapes.end()), shapes.end());
    for (uint64_t p : shapes) {
      uint8_t c[kRanks];
      for (int r = 0; r < kRanks; ++r) c[r] = static_cast<uint8_t>(p >> (4 * r) & 0xF);
      opts[s].push_back(wh.option(s, c, n));
    }
    std::sort(opts[s].begin(), opts[s].end(),
              [](const SuitOption& a, const SuitOption& b) { return a.id < b.id; });
    opts[s].erase(std::unique(opts[s].begin(), opts[s].end(),
                              [](const SuitOption& a, const SuitOption& b) { return a.id == b.id; }),
                  opts[s].end());
  }
}

template <bool kRegional>
bool best_reading(const WildHand& wh, const WinContext& ctx, Ranked* best) {
  thread_local std::vector<SuitOption> opts[kSuits];
  suit_options(wh, opts);
  ReadingSearch<kRegional> search(wh, ctx, opts);
  *best = search.run();
  return search.found();
}

}  // namespace

FanResult evaluate_wild(const Hand& hand, int void_suit, const WinContext& ctx,
                        const ScoringRules& rules) {
  check_wilds(hand, rules.wild);
  // 四鸡 (docs/rules.md §12.2, D52): a self-draw holding four or more concealed wilds, whatever the
  // rest of the hand; no gen and no additive fan.
  const bool siji = rules.four_wilds != 0 && ctx.self_draw && hand.wilds >= 4;
  FanResult four;
  if (siji) {
    four.base = kSiji;
    four.base_fan = rules.four_wilds == kFourWildsCap ? rules.max_fan : rules.four_wilds;
    set_total(four, rules);
  }
  if (siji) {
    try {
      check_suits(hand, void_suit);
    } catch (const std::invalid_argument&) {
      return four;  // void tiles or three suits: only 四鸡 wins
    }
  } else {
    check_suits(hand, void_suit);
  }

  const WildHand wh(hand, rules, void_suit, ctx);
  Ranked best;
  const bool complete = rules.regional() ? best_reading<true>(wh, ctx, &best)
                                         : best_reading<false>(wh, ctx, &best);
  if (!complete) {
    if (siji) return four;
    fail("not a winning hand: no reading of the " + std::to_string(hand.wilds) +
         " wilds completes it");
  }

  const bool all_melded = hand.n_melds == rules.shape.sets;
  uint16_t extras = context_extras(ctx, rules, wh.exposed, all_melded, rules.regional());
  auto set_extra = [&extras](bool on, Extra e) {
    if (on) extras = uint16_t(extras | (1u << e));
  };
  set_extra(best.duanyao, kDuanyaojiu);
  set_extra((best.c.combo & kDragon) != 0, kYitiaolong);
  set_extra((best.c.combo & kMidFive) != 0, best.kaer ? kKaertiao : kJiaxinwu);
  // 卡边吊 (D50): the hand less its winning tile, wild or natural, had exactly one natural wait.
  if (rules.single_wait && ctx.win_tile >= 0 && !ctx.heavenly) {
    Hand before = hand;
    if (ctx.win_tile == kWildBit)
      --before.wilds;
    else
      --before.counts[ctx.win_tile];
    const uint32_t w = waits_unchecked(before, void_suit, rules.shape, rules.wild);
    set_extra(w && !(w & (w - 1)), kKabiandiao);
  }
  // 无鸡 (D51): no wild among the concealed tiles, the melds and the winning tile.
  set_extra(rules.no_wild_bonus > 0 && wh.physical_wilds == 0, kWuji);

  FanResult result;
  result.base = static_cast<Pattern>(best.c.pattern);
  result.base_fan = best.c.base_fan;
  result.gen = best.c.gen;
  result.extras = extras;
  set_total(result, rules);
  // The better of 四鸡 and the reading, by the fan paid; a tie keeps the reading (§12.5).
  if (siji && four.fan > result.fan) return four;
  return result;
}

}  // namespace xueliu::fan_detail
