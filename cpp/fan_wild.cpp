// The fan of a hand holding wilds (docs/rules.md §12.2, §12.5): its best reading, or 四鸡.
//
// A reading lets each concealed wild stand for one tile of a kind of a suit in play, never of the
// void suit, no kind used more than four times counting the melds at full size (no limit under
// wild_fifth_copy). Every complete reading is scored with all its fans and the best one stands.
//
// How it works: per suit, not per substitution. A reading is, suit by suit, the suit's natural
// tiles plus j of the wilds, and what the fan reads of a suit (its decomposition combos, its fours
// and gens, 1/9 and 2/5/8 tiles, 九莲宝灯's counts, whether a winning wild may be its 5 or its 2s)
// depends on that suit alone. So:
//   1. for each suit the wilds may enter, every decomposition into sets and at most one pair that
//      the natural tiles fit into with at most w tiles missing: a search rank by rank, the wild
//      budget paying for the missing tiles and cutting the search (no substitution is listed);
//   2. the shapes so reached folded into records of the facts the fan reads, each record holding
//      the union of its shapes' decomposition combos (two shapes with the same facts score alike),
//      and a record dropped where another of the same wilds reaches all it reaches and more;
//   3. one record per suit, their wilds adding up to the wilds held, at most two suits present
//      (缺一门, melds fix suits), each combination scored as one reading with the best_of_reading
//      the natural hand uses (fan_detail.hpp), readings ranked by total, base fan, table order,
//      gens, then the additive fans in table order. A combination whose bound (the best base fan
//      with every gen and reading fan) falls short of the best so far is not scored.
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

// What the fan reads of one suit of a reading (step 2), packed so that equal records compare
// equal: the two signatures in the low 32 bits (the decomposition combos of every shape merged
// into the record), the shape's facts above them, the wilds read into the suit in the top byte.
struct SuitOption {
  uint64_t id = 0;
  uint64_t shape = 0;  // the suit's counts, kept apart only where 天胡/地胡 may be the base
  int j() const { return static_cast<int>(id >> 56); }
  Signature sig_jx() const { return static_cast<Signature>(id); }        // middle five: 夹心五
  Signature sig_kr() const { return static_cast<Signature>(id >> 16); }  // middle five: 卡二条
  int gens() const { return static_cast<int>(id >> 32 & 0xF); }
  int fours() const { return static_cast<int>(id >> 36 & 0x7); }
  bool yao() const { return id >> 39 & 1; }
  bool not258() const { return id >> 40 & 1; }
  bool jiulian() const { return id >> 41 & 1; }
  bool even() const { return id >> 42 & 1; }
  bool pair() const { return id >> 43 & 1; }
  bool tiles() const { return id >> 44 & 1; }
  uint64_t facts() const { return id >> 32; }
};

// The hand's facts that no reading changes, and the knobs the suits' features read.
struct WildHand {
  const Hand& hand;
  const ScoringRules& rules;
  int void_suit;
  bool win_wild = false;  // the winning tile is a wild
  int win_kind = -1;      // a natural winning tile
  // 天胡/地胡 as a base is judged on each reading's own patterns (D14): no two shapes of a suit
  // are merged then, nor one dropped for another's sake.
  bool sky = false;
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
    sky = r.heavenly_earthly == Stacking::Base && (ctx.heavenly || ctx.earthly);
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
};

// Steps 1 and 2 for one suit: every complete shape reachable by reading at most `budget` wilds
// into the suit, found as its decompositions — rank by rank, the sets and the pair that use the
// rank, whatever they need beyond the natural tiles taken from the budget — and folded into
// records as it goes (the shape's facts accumulate rank by rank; each decomposition adds its
// combo to the record of its shape's facts).
class SuitSearch {
 public:
  SuitSearch(const WildHand& wh, int suit, std::vector<SuitOption>& out)
      : wh_(wh), rules_(wh.rules), n_(&wh.hand.counts[suit * kRanks]), out_(out) {
    for (int r = 0; r < kRanks; ++r) {
      const int k = suit * kRanks + r;
      cap_[r] = rules_.wild.fifth_copy ? kNoCopyCap : static_cast<uint8_t>(4 - wh.meld_full[k]);
      full_[r] = wh.meld_full[k];
      soft_[r] = wh.meld_wilds[k];
    }
    max_sets_ = rules_.shape.sets - wh.hand.n_melds;
    jx_ = rules_.jiaxinwu && (wh.win_wild || wh.win_kind == suit * kRanks + 4);
    kr_ = rules_.kaertiao && suit == 2 && (wh.win_wild || wh.win_kind == 2 * kRanks + 1);
    family_ = rules_.jingoudiao != Stacking::Off && wh.hand.n_melds == 0;
  }

  void run(int budget) {
    for (int r = 0; r < kRanks; ++r)
      if (n_[r] > cap_[r]) return;  // the natural tiles and the melds already pass the limit
    rank(0, 0, 0, budget, 0, -1, 0, 0, Acc{});
    if (rules_.shape.pairs && wh_.hand.n_melds == 0) pairs(budget);
  }

 private:
  // A shape's facts so far (ranks below the one being chosen).
  struct Acc {
    int tiles = 0, added = 0, gens = 0, fours = 0;
    bool yao = false, not258 = false, nine = true, even = true, five = false, two = false;
    uint64_t shape = 0;
  };

  void take(Acc& acc, int r, int used, int read) const {
    acc.tiles += used;
    acc.added += read;
    if (used) {
      acc.yao = acc.yao || r == 0 || r == kRanks - 1;
      acc.not258 = acc.not258 || r % 3 != 1;
    }
    acc.nine = acc.nine && used >= kNineGates[r];
    acc.even = acc.even && (used == 0 || used == 2 || used == 4);
    acc.fours += used == 4;
    acc.five = acc.five || (r == 4 && read > 0);
    acc.two = acc.two || (r == 1 && read > 0);
    // A 根 per kind used four or more times (a fifth use is still one), by wild_gen (D49).
    if (used + full_[r] >= 4) {
      switch (rules_.wild_gen) {
        case WildGen::Fours: ++acc.gens; break;
        case WildGen::Natural: acc.gens += read == 0; break;
        case WildGen::PerWild: acc.gens += read == 0 && soft_[r] == 0; break;
      }
    }
    acc.shape |= uint64_t(used) << (4 * r);
  }

  // Rank r: x chows started at r - 1 and y at r - 2 need a tile here; choose the pair (p), the
  // pungs (b) and the chows (a) that start here. Each decomposition is met once.
  void rank(int r, int x, int y, int budget, int sets, int pair, unsigned pungs, unsigned chows,
            const Acc& acc) {
    if (r == kRanks) {
      leaf(acc, pair, pungs, chows);
      return;
    }
    const int need = x + y, nat = n_[r], cap = cap_[r];
    const int max_a = r + 2 < kRanks ? kMaxSuitSets : 0;
    for (int p = 0; p <= (pair < 0 ? 1 : 0); ++p)
      for (int b = 0;; ++b) {
        const int base = need + 3 * b + 2 * p;
        if (base > cap || sets + b > max_sets_ || base - nat > budget) break;
        for (int a = 0; a <= max_a; ++a) {
          const int used = base + a, read = used - nat;
          if (used > cap || sets + b + a > max_sets_ || read > budget) break;
          if (read < 0) continue;
          Acc next = acc;
          take(next, r, used, read);
          rank(r + 1, a, x, budget - read, sets + a + b, p ? r : pair, b ? pungs | 1u << r : pungs,
               a ? chows | 1u << r : chows, next);
        }
      }
  }

  void leaf(const Acc& acc, int pair, unsigned pungs, unsigned chows) {
    unsigned c456 = 0, c123 = 0;
    suit_combos(pair, pungs, chows, &c456, &c123);
    // The middle-five feature of this suit: its 456 chow where the winning tile is (or a
    // winning wild may be read as) its 5; its 123 chow where it is (or may be) the 2s (D50).
    const unsigned plain = c456 & ~kMidFive;
    unsigned jx = jx_ && (wh_.win_wild ? acc.five : true) ? c456 : plain;
    unsigned kr = kr_ && (wh_.win_wild ? acc.two : true) ? c123 : plain;
    if (!rules_.yitiaolong) {
      jx &= ~kDragon;
      kr &= ~kDragon;
    }
    add(acc, (1u << jx) | (1u << kr) << 16);
  }

  // The pairs family: every count 0, 2 or 4. Each odd count takes one tile, then pairs are
  // added (a rank gets at most two), within the budget.
  void pairs(int budget) {
    uint8_t c[kRanks];
    int need = 0;
    for (int r = 0; r < kRanks; ++r) {
      c[r] = n_[r];
      if (c[r] & 1) {
        ++c[r];
        ++need;
        if (c[r] > cap_[r]) return;
      }
    }
    if (need <= budget) add_pairs(c, 0, (budget - need) / 2);
  }

  void add_pairs(uint8_t* c, int first, int left) {
    Acc acc;
    for (int r = 0; r < kRanks; ++r) take(acc, r, c[r], c[r] - n_[r]);
    add(acc, 0);  // a standard decomposition of the same shape adds its combos itself
    if (left == 0) return;
    for (int r = first; r < kRanks; ++r) {
      if (c[r] + 2 > 4 || c[r] + 2 > cap_[r]) continue;
      c[r] += 2;
      add_pairs(c, r, left - 1);
      c[r] -= 2;
    }
  }

  // Folds a shape into the record of its facts. Facts no knob reads are left out, so that shapes
  // differing only there share a record: 1/9 tiles matter only to 断幺九, 九莲宝灯's counts only
  // to the family without melds, the fours only to the pairs family.
  void add(const Acc& acc, uint32_t sigs) {
    const bool yao = rules_.duanyaojiu && acc.yao;
    const bool nine = family_ && acc.nine && acc.tiles > 0;
    const int fours = acc.even ? std::min(acc.fours, 7) : 0;
    const uint64_t facts = uint64_t(std::min(acc.gens, 15)) | uint64_t(fours) << 4 |
                           uint64_t(yao) << 7 | uint64_t(acc.not258) << 8 | uint64_t(nine) << 9 |
                           uint64_t(acc.even) << 10 | uint64_t(acc.tiles % 3 == 2) << 11 |
                           uint64_t(acc.tiles > 0) << 12 | uint64_t(acc.added) << 24;
    const uint64_t shape = wh_.sky ? acc.shape : 0;
    for (size_t i = first_; i < out_.size(); ++i)
      if (out_[i].facts() == facts && out_[i].shape == shape) {
        out_[i].id |= sigs;
        return;
      }
    SuitOption o;
    o.id = facts << 32 | sigs;
    o.shape = shape;
    out_.push_back(o);
  }

  const WildHand& wh_;
  const ScoringRules& rules_;
  const uint8_t* n_;
  std::vector<SuitOption>& out_;
  size_t first_ = 0;
  uint8_t cap_[kRanks] = {};
  uint8_t full_[kRanks] = {};
  uint8_t soft_[kRanks] = {};
  int max_sets_ = 0;
  bool jx_ = false, kr_ = false, family_ = false;
};

// o reaches every candidate p reaches, and as much (a superset of combos, as many gens, no
// 1/9 or non-2/5/8 tile p lacks, 九莲宝灯 where p has it, the same pairs-family facts).
bool dominates(const SuitOption& o, const SuitOption& p) {
  if (o.j() != p.j() || o.tiles() != p.tiles() || o.pair() != p.pair()) return false;
  const uint32_t so = static_cast<uint32_t>(o.id), sp = static_cast<uint32_t>(p.id);
  if ((sp & ~so) || o.gens() < p.gens()) return false;
  if ((o.yao() && !p.yao()) || (o.not258() && !p.not258()) || (p.jiulian() && !o.jiulian()))
    return false;
  if (p.even() && (!o.even() || o.fours() != p.fours())) return false;
  return true;
}

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

// The options of every suit (steps 1 and 2), sorted by the wilds they use, none dominated by
// another. A suit the wilds may not enter (not in play, or the void) holds nothing here (evaluate
// checked the void and the shape): its one option is empty.
void suit_options(const WildHand& wh, std::vector<SuitOption>* opts) {
  for (int s = 0; s < kSuits; ++s) {
    std::vector<SuitOption>& o = opts[s];
    o.clear();
    const bool open = !(wh.rules.shape.absent >> s & 1) && s != wh.void_suit;
    SuitSearch(wh, s, o).run(open ? wh.hand.wilds : 0);
    if (!wh.sky) {
      size_t kept = 0;
      for (size_t i = 0; i < o.size(); ++i) {
        bool dominated = false;
        for (size_t k = 0; k < o.size() && !dominated; ++k)
          dominated = k != i && dominates(o[k], o[i]) && (o[k].id != o[i].id || k < i);
        if (!dominated) o[kept++] = o[i];
      }
      o.resize(kept);
    }
    std::sort(o.begin(), o.end(), [](const SuitOption& a, const SuitOption& b) {
      return a.j() < b.j();
    });
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
