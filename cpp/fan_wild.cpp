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
//   1. each suit gets a wild budget: the wilds held less what the other suits holding tiles need
//      at least (their cost words, tables.hpp), none for a suit that must stay empty (缺一门, the
//      void, a suit not in play);
//   2. within its budget, every decomposition of the suit into sets and at most one pair: the
//      groups holding a natural tile rank by rank, the budget paying for their missing tiles, then
//      groups of wilds alone at any rank the budget still allows (no substitution is listed; a
//      suit without budget is its natural tiles, read off the signature table);
//   3. the shapes so reached folded into records of the facts the fan reads, each record holding
//      the union of its shapes' decomposition combos (shapes with the same facts score alike), and
//      a record dropped where another of the same wilds reaches all it reaches and more;
//   4. one record per suit, their wilds adding up to the wilds held, at most two suits present
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

constexpr int kCostLookupWilds = 2;
constexpr uint8_t kNoCopyCap = 14;  // wild_fifth_copy: a suit holds at most 14 tiles anyway
constexpr uint8_t kNineGates[kRanks] = {3, 1, 1, 1, 1, 1, 1, 1, 3};

// What the fan reads of one suit of a reading (step 3), packed so that equal records compare
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

// Steps 2 and 3 for one suit: every complete shape reachable by reading at most `budget` wilds
// into the suit, found as its decompositions, folded into records as they are found (each
// decomposition adds its combo to the record of its shape's facts). A decomposition is split in
// two: the groups holding a natural tile, found rank by rank with the budget paying for their
// missing tiles (a group started at a rank needs a natural there, or for a chow at one of its
// three ranks), and the groups made of wilds alone, added to each such split at any rank the
// leftover budget allows. Every decomposition is met this way (give each natural tile to a group
// of its rank: the groups that get none are the wild ones); some more than once, which the
// records absorb.
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
    for (int r = kRanks - 1; r >= 0; --r) ahead_[r] = n_[r] + (r + 1 < kRanks ? n_[r + 1] : 0) +
                                                     (r + 2 < kRanks ? n_[r + 2] : 0);
    max_sets_ = rules_.shape.sets - wh.hand.n_melds;
    jx_ = rules_.jiaxinwu && (wh.win_wild || wh.win_kind == suit * kRanks + 4);
    kr_ = rules_.kaertiao && suit == 2 && (wh.win_wild || wh.win_kind == 2 * kRanks + 1);
    family_ = rules_.jingoudiao != Stacking::Off && wh.hand.n_melds == 0;
  }

  void run(int budget) {
    for (int r = 0; r < kRanks; ++r)
      if (n_[r] > cap_[r]) return;  // the natural tiles and the melds already pass the limit
    f_ = 0;
    if (budget == 0) {
      natural();
      return;
    }
    // Each rank's part for every count a reading may give it, looked up by the search; the
    // parts of empty ranks summed from rank 0, and each rank's next rank a group can start at.
    for (int r = 0; r < kRanks; ++r) {
      const int most = std::min<int>({cap_[r], n_[r] + budget, kMaxCount});
      for (int used = n_[r]; used <= most; ++used) parts_[r][used] = part(r, used);
      empty_[r + 1] = empty_[r] + (n_[r] ? 0 : part(r, 0));
    }
    next_[kRanks] = kRanks;
    for (int r = kRanks - 1; r >= 0; --r) next_[r] = ahead_[r] ? r : next_[r + 1];
    rank(0, 0, 0, budget, 0, -1, 0, 0);
    if (rules_.shape.pairs && wh_.hand.n_melds == 0) pairs(budget);
  }

 private:
  // The facts of the shape being built, as sums over its ranks packed in one word (so that a
  // rank's part is added and taken back in one operation): tiles, wilds read, gens, fours, ranks
  // holding a 1/9 tile, ranks holding a tile other than 2/5/8, ranks short of 九莲宝灯's counts,
  // ranks whose count is not 0, 2 or 4.
  static constexpr int kTiles = 0, kAdded = 5, kGens = 10, kFours = 14, kYao = 18, kNot258 = 22,
                       kShort = 26, kUneven = 30;
  static int field(uint64_t f, int at, int bits) {
    return static_cast<int>(f >> at & ((1u << bits) - 1));
  }

  uint64_t part(int r, int used) const {
    const int read = used - n_[r];
    uint64_t f = uint64_t(used) << kTiles | uint64_t(read) << kAdded;
    if (used) f |= uint64_t(r == 0 || r == kRanks - 1) << kYao | uint64_t(r % 3 != 1) << kNot258;
    f += uint64_t(used < kNineGates[r]) << kShort;
    f += uint64_t(!(used == 0 || used == 2 || used == 4)) << kUneven;
    f += uint64_t(used == 4) << kFours;
    // A 根 per kind used four or more times (a fifth use is still one), by wild_gen (D49).
    if (used + full_[r] >= 4) {
      bool gen = true;
      switch (rules_.wild_gen) {
        case WildGen::Fours: break;
        case WildGen::Natural: gen = read == 0; break;
        case WildGen::PerWild: gen = read == 0 && soft_[r] == 0; break;
      }
      f += uint64_t(gen) << kGens;
    }
    return f;
  }

  // No wild to read into the suit: its one shape is its natural tiles, whose decompositions the
  // signature table holds (as for a hand without wilds).
  void natural() {
    for (int r = 0; r < kRanks; ++r) {
      u_[r] = n_[r];
      f_ += part(r, n_[r]);
    }
    const uint32_t both = suit_signatures().lookup(suit_key(n_));
    const Signature s456 = static_cast<Signature>(both), s123 = static_cast<Signature>(both >> 16);
    const Signature plain = drop_feature(s456, kMidFive);
    Signature jx = jx_ && !wh_.win_wild ? s456 : plain;
    Signature kr = kr_ && !wh_.win_wild ? s123 : plain;
    if (!rules_.yitiaolong) {
      jx = drop_feature(jx, kDragon);
      kr = drop_feature(kr, kDragon);
    }
    const bool even = field(f_, kUneven, 4) == 0;
    if (both || (even && rules_.shape.pairs && wh_.hand.n_melds == 0))
      add(uint32_t(jx) | uint32_t(kr) << 16);
  }

  // Rank r of the natural groups: x chows started at r - 1 and y at r - 2 need a tile here;
  // choose the pair (p), the pungs (b) and the chows (a) that start here, each holding a natural.
  void rank(int r, int x, int y, int budget, int sets, int pair, unsigned pungs, unsigned chows) {
    if (r == kRanks) {
      wild_groups(0, budget, sets, pair, pungs, chows);
      return;
    }
    if (x + y == 0 && ahead_[r] == 0) {  // nothing can use these ranks: on to the next that can
      const int next = next_[r];
      const uint64_t here = empty_[next] - empty_[r];
      for (int q = r; q < next; ++q) u_[q] = 0;
      f_ += here;
      rank(next, 0, 0, budget, sets, pair, pungs, chows);
      f_ -= here;
      return;
    }
    const int need = x + y, nat = n_[r];
    const int most = std::min<int>(cap_[r], nat + budget);  // uses of this rank within reach
    if (need > most) return;
    const int chow_room = r + 2 < kRanks ? kMaxSuitSets : 0;
    for (int p = 0; p <= (pair < 0 && nat ? 1 : 0); ++p)
      for (int b = 0; b + p <= nat && sets + b <= max_sets_; ++b) {
        const int base = need + 3 * b + 2 * p;
        if (base > most) break;
        const int lo = std::max(0, nat - base);
        const int hi = std::min({chow_room, most - base, ahead_[r] - b - p, max_sets_ - sets - b});
        for (int a = lo; a <= hi; ++a) {
          const int used = base + a, left = budget - (used - nat);
          // The next two ranks must hold these chows (and the x that need rank r + 1 too).
          if (r + 1 < kRanks && a + x > std::min<int>(cap_[r + 1], n_[r + 1] + left)) break;
          if (r + 2 < kRanks && a > std::min<int>(cap_[r + 2], n_[r + 2] + left)) break;
          const uint64_t here = parts_[r][used];
          u_[r] = static_cast<uint8_t>(used);
          f_ += here;
          rank(r + 1, a, x, budget - (used - nat), sets + a + b, p ? r : pair,
               b ? pungs | 1u << r : pungs, a ? chows | 1u << r : chows);
          f_ -= here;
        }
      }
  }

  // Adds `add` uses to rank r of the shape being built (negative: takes them back).
  void bump(int r, int add) {
    f_ -= parts_[r][u_[r]];
    u_[r] = static_cast<uint8_t>(u_[r] + add);
    f_ += parts_[r][u_[r]];
  }

  // Groups of wilds alone, in non-decreasing type order (0..8 the pair at that rank, 9..17 a pung,
  // 18..24 a chow), so each multiset of them is added once; every stop is a shape.
  void wild_groups(int first, int budget, int sets, int pair, unsigned pungs, unsigned chows) {
    record(pair, pungs, chows);
    if (budget < 2) return;
    for (int t = first; t < kRanks * 2 + 7; ++t) {
      if (t < kRanks) {
        if (pair >= 0 || u_[t] + 2 > cap_[t]) continue;
        bump(t, 2);
        wild_groups(t + 1, budget - 2, sets, t, pungs, chows);
        bump(t, -2);
      } else if (t < 2 * kRanks) {
        const int r = t - kRanks;
        if (budget < 3 || sets == max_sets_ || u_[r] + 3 > cap_[r]) continue;
        bump(r, 3);
        wild_groups(t, budget - 3, sets + 1, pair, pungs | 1u << r, chows);
        bump(r, -3);
      } else {
        const int r = t - 2 * kRanks;
        if (budget < 3 || sets == max_sets_ || u_[r] + 1 > cap_[r] || u_[r + 1] + 1 > cap_[r + 1] ||
            u_[r + 2] + 1 > cap_[r + 2])
          continue;
        bump(r, 1), bump(r + 1, 1), bump(r + 2, 1);
        wild_groups(t, budget - 3, sets + 1, pair, pungs, chows | 1u << r);
        bump(r, -1), bump(r + 1, -1), bump(r + 2, -1);
      }
    }
  }

  void record(int pair, unsigned pungs, unsigned chows) {
    unsigned c456 = 0, c123 = 0;
    suit_combos(pair, pungs, chows, &c456, &c123);
    // The middle-five feature of this suit: its 456 chow where the winning tile is (or a
    // winning wild may be read as) its 5; its 123 chow where it is (or may be) the 2s (D50).
    const bool five = u_[4] > n_[4], two = u_[1] > n_[1];
    const unsigned plain = c456 & ~kMidFive;
    unsigned jx = jx_ && (wh_.win_wild ? five : true) ? c456 : plain;
    unsigned kr = kr_ && (wh_.win_wild ? two : true) ? c123 : plain;
    if (!rules_.yitiaolong) {
      jx &= ~kDragon;
      kr &= ~kDragon;
    }
    add((1u << jx) | (1u << kr) << 16);
  }

  // The pairs family: every count 0, 2 or 4. Each odd count takes one tile, then pairs are
  // added (a rank gets at most two), within the budget.
  void pairs(int budget) {
    f_ = 0;
    int need = 0;
    for (int r = 0; r < kRanks; ++r) {
      u_[r] = n_[r];
      if (u_[r] & 1) {
        ++u_[r];
        ++need;
        if (u_[r] > cap_[r]) return;
      }
      f_ += part(r, u_[r]);
    }
    if (need <= budget) add_pairs(0, (budget - need) / 2);
  }

  void add_pairs(int first, int left) {
    add(0);  // a standard decomposition of the same shape adds its combos itself
    if (left == 0) return;
    for (int r = first; r < kRanks; ++r) {
      if (u_[r] + 2 > 4 || u_[r] + 2 > cap_[r]) continue;
      bump(r, 2);
      add_pairs(r, left - 1);
      bump(r, -2);
    }
  }

  // Folds the shape being built into the record of its facts. Facts no knob reads are left out,
  // so that shapes differing only there share a record: 1/9 tiles matter only to 断幺九,
  // 九莲宝灯's counts only to the family without melds, the fours only to the pairs family.
  void add(uint32_t sigs) {
    const int tiles = field(f_, kTiles, 5);
    const bool even = field(f_, kUneven, 4) == 0;
    const bool yao = rules_.duanyaojiu && field(f_, kYao, 4);
    const bool nine = family_ && field(f_, kShort, 4) == 0;
    const int fours = even ? field(f_, kFours, 4) : 0;
    const uint64_t facts = uint64_t(field(f_, kGens, 4)) | uint64_t(std::min(fours, 7)) << 4 |
                           uint64_t(yao) << 7 | uint64_t(field(f_, kNot258, 4) != 0) << 8 |
                           uint64_t(nine) << 9 | uint64_t(even) << 10 |
                           uint64_t(tiles % 3 == 2) << 11 | uint64_t(tiles > 0) << 12 |
                           uint64_t(field(f_, kAdded, 5)) << 24;
    uint64_t shape = 0;
    if (wh_.sky)
      for (int r = 0; r < kRanks; ++r) shape |= uint64_t(u_[r]) << (4 * r);
    // The records by facts: an open-addressing index of kSlots slots (most suits fill a few).
    uint32_t slot = static_cast<uint32_t>(((facts ^ shape * 31) * 0x9E3779B97F4A7C15ull) >> 56) &
                    (kSlots - 1);
    if (out_.size() < kSlots / 2) {
      while (index_[slot]) {
        SuitOption& o = out_[index_[slot] - 1];
        if (o.facts() == facts && o.shape == shape) {
          o.id |= sigs;
          return;
        }
        slot = (slot + 1) & (kSlots - 1);
      }
      index_[slot] = static_cast<uint16_t>(out_.size() + 1);
    } else {  // past half full: no index, a scan (the 天胡/地胡 case keeps shapes apart)
      for (SuitOption& o : out_)
        if (o.facts() == facts && o.shape == shape) {
          o.id |= sigs;
          return;
        }
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
  static constexpr int kMaxCount = 15;  // a suit holds at most 14 tiles
  uint64_t parts_[kRanks][kMaxCount + 1];  // part(r, used), filled from n_[r] to the budget's reach
  uint64_t empty_[kRanks + 1] = {};  // the parts of ranks 0..r-1 at count 0
  uint8_t next_[kRanks + 1] = {};    // the first rank from r on that a group holding a natural
                                     // can use
  static constexpr uint32_t kSlots = 256;
  uint16_t index_[kSlots] = {};  // 1 + the record's position in out_, 0: free
  uint64_t f_ = 0;             // the facts of the shape being built (see part)
  uint8_t u_[kRanks] = {};     // the counts of the shape being built
  uint8_t cap_[kRanks] = {};   // most uses of each rank a reading may make
  uint8_t ahead_[kRanks] = {};  // natural tiles at this rank and the next two
  uint8_t full_[kRanks] = {};  // melded tiles of each rank, melds at full size
  uint8_t soft_[kRanks] = {};  // wilds inside those melds
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

// Step 4 over the options of the three suits.
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

// The options of every suit (steps 1 to 3), sorted by the wilds they use, none dominated by
// another. A suit the wilds may not enter (not in play, or the void) holds nothing here (evaluate
// checked the void and the shape): its one option is empty.
void suit_options(const WildHand& wh, std::vector<SuitOption>* opts) {
  // Each suit's budget: the wilds the other suits holding tiles leave it at least (a lower bound of
  // what each needs), none for a suit beside two others holding tiles (缺一门).
  const Hand& hand = wh.hand;
  const ScoringRules& rules = wh.rules;
  int needs[kSuits] = {0, 0, 0};
  unsigned held = wh.meld_suits;
  const SuitTables& tables = SuitTables::get();
  for (int s = 0; s < kSuits; ++s) {
    const uint8_t* n = &hand.counts[s * kRanks];
    int tiles = 0, odd = 0;
    for (int r = 0; r < kRanks; ++r) {
      tiles += n[r];
      odd += n[r] & 1;
    }
    if (!tiles) continue;
    held |= 1u << s;
    int need = tiles % 3 == 1 ? 1 : 0;  // a suit holds 3m or 3m + 2 tiles
    // The cost word's least completion (four copies at most); worth its lookup from two wilds on.
    if (!rules.wild.fifth_copy && hand.wilds >= kCostLookupWilds) {
      const uint64_t word = tables.costs(suit_key(n));
      need = kMaxSuitTiles;
      for (int m = 0; m <= rules.shape.sets - hand.n_melds; ++m)
        for (int p = 0; p < 2; ++p) {
          const int d = 3 * m + 2 * p - tiles;
          if (d >= 0 && d < need && SuitTables::cost_of(word, m, p) == d) need = d;
        }
    }
    if (rules.shape.pairs && hand.n_melds == 0) need = std::min(need, odd);
    needs[s] = need;
  }
  for (int s = 0; s < kSuits; ++s) {
    std::vector<SuitOption>& o = opts[s];
    o.clear();
    const bool open = !(rules.shape.absent >> s & 1) && s != wh.void_suit;
    int budget = hand.wilds, others = 0;
    for (int t = 0; t < kSuits; ++t)
      if (t != s && (held >> t & 1)) {
        budget -= needs[t];
        ++others;
      }
    if (!open || (others == 2 && !(held >> s & 1))) budget = 0;  // empty in every reading
    if (budget < 0) continue;  // no reading completes the other suits
    SuitSearch(wh, s, o).run(budget);
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
