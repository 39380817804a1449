// Fan (番) evaluation of a winning hand: docs/rules.md §6, §6.1 and the scoring decisions D8–D25 of
// tests/data/hands.json.
//
// How it works. A standard-form hand can have many decompositions, but scoring only cares about four
// facts of a decomposition (its "features"):
//   no chow      every concealed set is a pung            (对对胡, 清对, 将对)
//   all yao      every set and the pair hold a 1 or a 9   (带幺九, 清幺九)
//   dragon       chows 123, 456 and 789 of one suit      (一条龙, optional)
//   middle five  the 456 chow of the winning 5's suit    (夹心五, optional), or in its second
//                reading the 123 chow of the winning 2s's suit (卡二条, optional): one winning tile
//                is never both, so one feature bit serves both fans
// Everything else (清一色, gens, 金钩钓 ...) is a fact of the whole hand. So a decomposition is one of
// 16 feature combos, and the set of combos a suit's tiles can reach is a 16-bit "signature". The
// signatures of every complete suit (at most four sets and at most one pair) are built once into a
// small hash table keyed by the suit's base-5 count key; a hand's signature is the combination of its
// suits' signatures. The candidates of D13/D22 are then (combo, pattern) pairs plus the seven-pairs
// reading: a handful of comparisons, no allocation.
#include "fan.hpp"

#include <string>

#include "bits.hpp"
#include "hand.hpp"
#include "tables.hpp"

namespace xueliu {

const std::array<int, kPatternCount> kDefaultFanTable = {
    1,  // pinghu
    2,  // duiduihu
    3,  // qingyise
    3,  // daiyaojiu
    3,  // qidui
    3,  // jingoudiao
    4,  // qingdui
    4,  // jiangdui
    5,  // jiangqidui
    5,  // jiangjingoudiao
    5,  // longqidui
    5,  // qingqidui
    5,  // qingyaojiu
    5,  // qingjingoudiao
    6,  // qinglongqidui
    6,  // tianhu
    6,  // dihu
    7,  // shibaluohan
    8,  // qingsanlongqidui
    9,  // qingshibaluohan
    9,  // jiulianbaodeng
};

namespace {

// ---------------------------------------------------------------------------------------------
// Decomposition features and signatures

constexpr unsigned kNoChow = 1;
constexpr unsigned kAllYao = 2;
constexpr unsigned kDragon = 4;
constexpr unsigned kMidFive = 8;

using Signature = uint16_t;  // bit c set: feature combo c is reachable

// An empty suit constrains nothing: neutral for "every set ..." (AND) and "some chow ..." (OR).
constexpr Signature kNeutral = Signature(1u << (kNoChow | kAllYao));

// Forgets one feature (a knob is off, or the suit is not the winning 5's): each combo holding it
// becomes the same combo without it.
inline Signature drop_feature(Signature sig, unsigned feature) {
  Signature with = 0;
  switch (feature) {
    case kNoChow: with = 0xAAAA; break;
    case kAllYao: with = 0xCCCC; break;
    case kDragon: with = 0xF0F0; break;
    default: with = 0xFF00; break;  // kMidFive
  }
  return Signature((sig & ~with) | ((sig & with) >> feature));
}

// The signature of two suits together: the "every set" features need both, the "some chow"
// features need either (the middle-five feature survives in the winning suit only, see above).
inline Signature combine(Signature a, Signature b) {
  uint32_t out = 0;
  for (uint32_t x = a; x; x &= x - 1) {
    const unsigned ca = static_cast<unsigned>(lowest_bit(x));
    for (uint32_t y = b; y; y &= y - 1) {
      const unsigned cb = static_cast<unsigned>(lowest_bit(y));
      out |= 1u << ((ca & cb & (kNoChow | kAllYao)) | ((ca | cb) & (kDragon | kMidFive)));
    }
  }
  return static_cast<Signature>(out);
}

// Signatures of every complete suit: a 9-count vector (0..4 each) that splits into at most four sets
// and at most one pair. 21,743 keys in an open-addressing table of 65,536 slots (512 KiB;
// 1.2 probes a lookup on average). Each slot holds two signatures: the middle-five feature read
// as the 456 chow (bits 32..47) and as the 123 chow (bits 48..63, 卡二条).
//
// Thread safety: the one instance is a function-local static (suit_signatures()), built by the
// first evaluate; C++11 makes concurrent first callers wait until it is built, and the constructor
// never calls into Python. It is read-only afterwards, so threads share it without a lock.
class SuitSignatures {
 public:
  SuitSignatures() {
    slots_.fill(kEmptySlot);
    for_each_suit_shape([this](const uint8_t* counts9, int, int pair, unsigned pungs,
                               unsigned chows) {
      // 带幺九 reading: every pung of a 1 or a 9, every chow 123 or 789, the pair (if any) yao.
      const bool yao = (pungs & ~0x101u) == 0 && (chows & ~0x41u) == 0 &&
                       (pair < 0 || pair == 0 || pair == kRanks - 1);
      unsigned combo = 0;
      if (chows == 0) combo |= kNoChow;
      if (yao) combo |= kAllYao;
      if ((chows & 0x49u) == 0x49u) combo |= kDragon;  // chows at ranks 0, 3, 6
      const unsigned combo123 = (combo & ~kMidFive) | ((chows & 0x01u) ? kMidFive : 0u);
      if (chows & 0x08u) combo |= kMidFive;            // the 456 chow
      add(suit_key(counts9), combo, combo123);
    });
  }

  // Both signatures (the 456 reading in bits 0..15, the 123 one in bits 16..31); 0 when the
  // suit's tiles do not split into sets and at most one pair.
  uint32_t lookup(uint32_t key) const {
    uint32_t slot = hash(key);
    while (true) {
      const uint64_t entry = slots_[slot];
      if (static_cast<uint32_t>(entry) == key) return static_cast<uint32_t>(entry >> 32);
      if (entry == kEmptySlot) return 0;
      slot = (slot + 1) & kMask;
    }
  }

 private:
  // One 64-bit slot holds the key (low half) and its signature, so a lookup touches one cache line.
  static constexpr int kSlotBits = 16;
  static constexpr uint32_t kSlots = 1u << kSlotBits;
  static constexpr uint32_t kMask = kSlots - 1;
  static constexpr uint64_t kEmptySlot = ~uint64_t(0);

  static uint32_t hash(uint32_t key) { return (key * 2654435761u) >> (32 - kSlotBits); }

  void add(uint32_t key, unsigned combo, unsigned combo123) {
    uint32_t slot = hash(key);
    while (slots_[slot] != kEmptySlot && static_cast<uint32_t>(slots_[slot]) != key)
      slot = (slot + 1) & kMask;
    const uint64_t sig = slots_[slot] == kEmptySlot ? 0 : slots_[slot] >> 32;
    slots_[slot] = key | ((sig | (uint64_t(1) << combo) | (uint64_t(1) << (16 + combo123))) << 32);
  }

  std::array<uint64_t, kSlots> slots_;
};

const SuitSignatures& suit_signatures() {
  static const SuitSignatures table;  // see the class comment for thread safety
  return table;
}

// ---------------------------------------------------------------------------------------------
// Checks

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

// docs/rules.md §6.1 / D15 flag consistency, and win_tile (D23). Hand shape is not looked at.
void check_context(const Hand& hand, const WinContext& ctx, const ScoringRules& rules) {
  if (ctx.win_tile != -1) {
    if (ctx.win_tile < 0 || ctx.win_tile >= kKinds)
      fail("win_tile must be -1 or a kind 0..26, got " + std::to_string(ctx.win_tile));
    if (hand.counts[ctx.win_tile] == 0)
      fail("win_tile " + tile_name(ctx.win_tile) + " is not among the concealed tiles");
  }
  bool has_kong = false;
  for (int i = 0; i < hand.n_melds; ++i) has_kong = has_kong || hand.melds[i].is_kong();
  if (ctx.kong_replacement && !ctx.self_draw)
    fail("flags: kong_replacement (杠上花) needs self_draw");
  if (ctx.kong_replacement && !has_kong)
    fail("flags: kong_replacement (杠上花) needs a kong meld");
  if (ctx.after_kong_discard && ctx.robbed_kong)
    fail("flags: after_kong_discard (杠上炮) and robbed_kong (抢杠胡) exclude each other");
  if (ctx.after_kong_discard && ctx.self_draw)
    fail("flags: after_kong_discard (杠上炮) needs a discard win, not self_draw");
  if (ctx.robbed_kong && ctx.self_draw)
    fail("flags: robbed_kong (抢杠胡) needs a discard win, not self_draw");
  if (ctx.heavenly && ctx.earthly) fail("flags: heavenly (天胡) and earthly (地胡) exclude each other");
  if (ctx.heavenly || ctx.earthly) {
    const char* name = ctx.heavenly ? "heavenly (天胡)" : "earthly (地胡)";
    if (hand.n_melds != 0) fail(std::string("flags: ") + name + " needs a hand without melds");
  }
  if (ctx.heavenly && !ctx.self_draw) fail("flags: heavenly (天胡) needs self_draw");
  // 地胡 by earthly_win (docs/rules.md §11.3): the first draw (a self-draw), the hand's first discard (a
  // discard win, before anyone made a kong: no 杠上炮, no robbing) or either.
  if (ctx.earthly) {
    switch (rules.earthly_win) {
      case EarthlyWin::FirstDraw:
        if (!ctx.self_draw) fail("flags: earthly (地胡) needs self_draw under earthly_win 'first_draw'");
        break;
      case EarthlyWin::FirstDiscard:
        if (ctx.self_draw)
          fail("flags: earthly (地胡) needs a discard win under earthly_win 'first_discard'");
        break;
      case EarthlyWin::Either:
        break;
    }
    if (!ctx.self_draw && (ctx.robbed_kong || ctx.after_kong_discard))
      fail("flags: a discard earthly (地胡) comes before any kong: no robbed_kong (抢杠胡) or "
           "after_kong_discard (杠上炮)");
  }
}

// 缺一门 and the void over concealed tiles and melds (docs/rules.md §5, D5).
void check_suits(const Hand& hand, int void_suit) {
  bool present[kSuits] = {false, false, false};
  for (int k = 0; k < kKinds; ++k) {
    if (!hand.counts[k]) continue;
    if (suit_of(k) == void_suit)
      fail("not a winning hand: holds " + tile_name(k) + " of the void suit");
    present[suit_of(k)] = true;
  }
  for (int i = 0; i < hand.n_melds; ++i) {
    const int k = hand.melds[i].kind;
    if (suit_of(k) == void_suit)
      fail("not a winning hand: a meld of " + tile_name(k) + " is in the void suit");
    present[suit_of(k)] = true;
  }
  if (present[0] && present[1] && present[2])
    fail("not a winning hand: tiles of three suits (缺一门 allows two)");
}

// ---------------------------------------------------------------------------------------------
// Scoring

struct Candidate {
  int total = -1;
  int base_fan = 0;
  int pattern = kPatternCount;
  int gen = 0;
  unsigned combo = 0;  // features of the decomposition (dragon / middle five are what count here)
};

// Decomposition fans in table order: 一条龙 before 夹心五 / 卡二条 (D22, last tie-break).
inline unsigned decomposition_rank(unsigned combo) {
  return ((combo & kDragon) ? 2u : 0u) | ((combo & kMidFive) ? 1u : 0u);
}

inline int decomposition_fans(unsigned combo) {
  return ((combo & kDragon) ? 1 : 0) + ((combo & kMidFive) ? 1 : 0);
}

// D13/D22 order: total, then base fan, then table order, then more gens, then decomposition fans.
inline bool better(const Candidate& a, const Candidate& b) {
  if (a.total != b.total) return a.total > b.total;
  if (a.base_fan != b.base_fan) return a.base_fan > b.base_fan;
  if (a.pattern != b.pattern) return a.pattern < b.pattern;
  if (a.gen != b.gen) return a.gen > b.gen;
  return decomposition_rank(a.combo) > decomposition_rank(b.combo);
}

// The capped fan and its multiplier of a result whose base, gen and extras are set.
// The extras' fan: one each, but an additive 天胡 / 地胡 is worth its amount (docs/rules.md §11.3).
inline int extras_fan(unsigned extras, const ScoringRules& rules) {
  int n = 0;
  for (unsigned e = extras; e; e &= e - 1) ++n;
  if (extras & (1u << kTianhuExtra)) n += rules.tianhu_extra - 1;
  if (extras & (1u << kDihuExtra)) n += rules.dihu_extra - 1;
  return n;
}

void set_total(FanResult& result, const ScoringRules& rules) {
  result.extra_fan = extras_fan(result.extras, rules);
  const int total = result.base_fan + result.gen + result.extra_fan;
  const int fan = (rules.max_fan > 0 && total > rules.max_fan) ? rules.max_fan : total;
  result.fan = fan;
  if (rules.multipliers.empty()) {
    if (fan < 1 || fan > 63)
      fail("fan " + std::to_string(fan) + " has no 2 ** (fan - 1) multiplier in 64 bits");
    result.multiplier = int64_t(1) << (fan - 1);
  } else {
    if (fan < 1 || fan > static_cast<int>(rules.multipliers.size()))
      fail("fan " + std::to_string(fan) + " is beyond the multipliers table (" +
           std::to_string(rules.multipliers.size()) + " entries)");
    result.multiplier = rules.multipliers[static_cast<size_t>(fan - 1)];
  }
}

// kRegional: rules.regional(), chosen once per call (score_of below). Without a §11.3 scoring
// knob on, its tests fold away and the §6 rules pay nothing for them.
template <bool kRegional>
FanResult score(const Hand& hand, const WinContext& ctx, const ScoringRules& rules) {
  const Counts& counts = hand.counts;
  const int n_melds = hand.n_melds;

  // Facts of the whole hand (concealed tiles, the winning tile included, plus melds).
  int suit_tiles[kSuits] = {0, 0, 0};   // concealed only
  uint32_t suit_keys[kSuits] = {0, 0, 0};
  bool suit_present[kSuits] = {false, false, false};
  bool even_counts = true;  // seven pairs shape: every kind 0, 2 or 4
  int concealed_fours = 0;
  bool any_yao = false;
  bool all_258 = true;
  for (int s = 0; s < kSuits; ++s) {
    uint32_t key = 0;
    int n = 0;
    for (int r = kRanks - 1; r >= 0; --r) {
      const int c = counts[s * kRanks + r];
      key = key * 5 + static_cast<uint32_t>(c);
      n += c;
      if (!c) continue;
      even_counts = even_counts && (c & 1) == 0;
      concealed_fours += c == 4;
      any_yao = any_yao || r == 0 || r == kRanks - 1;
      all_258 = all_258 && r % 3 == 1;
    }
    suit_tiles[s] = n;
    suit_keys[s] = key;
    suit_present[s] = n > 0;
  }
  int n_kongs = 0;
  int held_fours = concealed_fours;
  bool melds_yao = true;
  bool exposed = false;  // a peng or an exposed kong: no 门清
  for (int i = 0; i < n_melds; ++i) {
    const Meld& m = hand.melds[i];
    const int r = rank_of(m.kind);
    suit_present[suit_of(m.kind)] = true;
    const bool yao = r == 0 || r == kRanks - 1;
    melds_yao = melds_yao && yao;
    any_yao = any_yao || yao;
    all_258 = all_258 && r % 3 == 1;
    if (m.is_kong()) {
      ++n_kongs;
      ++held_fours;
    } else if (counts[m.kind] == 1) {
      ++held_fours;  // a peng plus the fourth copy in hand
    }
    exposed = exposed || m.type != MeldType::ConcealedKong;
  }
  const int n_suits = int(suit_present[0]) + int(suit_present[1]) + int(suit_present[2]);
  const bool one_suit = n_suits == 1;

  // 夹心五 reads the winning tile: a 5 whose suit's 456 chow is in the decomposition; 卡二条 a
  // 2s whose 123s chow is (the second signature reading). One tile is never both.
  constexpr int k2s = 2 * kRanks + 1;
  const bool kaer = kRegional && rules.kaertiao && ctx.win_tile == k2s;
  const int mid_five_suit = kaer ? suit_of(k2s)
                            : (rules.jiaxinwu && ctx.win_tile >= 0 && rank_of(ctx.win_tile) == 4)
                                ? suit_of(ctx.win_tile)
                                : -1;
  const Extra mid_extra = kaer ? kKaertiao : kJiaxinwu;

  // Standard form: every suit splits into sets, exactly one suit holds the pair.
  Signature sig = kNeutral;
  bool standard = true;
  int pair_suits = 0;
  const SuitSignatures& table = suit_signatures();
  for (int s = 0; s < kSuits && standard; ++s) {
    if (!suit_tiles[s]) continue;
    const int rest = suit_tiles[s] % 3;
    if (rest == 1) {
      standard = false;
      break;
    }
    pair_suits += rest == 2;
    const uint32_t both = table.lookup(suit_keys[s]);
    Signature m = static_cast<Signature>(kaer && s == mid_five_suit ? both >> 16 : both);
    if (!m) {
      standard = false;
      break;
    }
    if (!rules.yitiaolong) m = drop_feature(m, kDragon);
    if (s != mid_five_suit) m = drop_feature(m, kMidFive);
    sig = combine(sig, m);
  }
  standard = standard && pair_suits == 1;
  if (standard && !melds_yao) sig = drop_feature(sig, kAllYao);

  // The pairs family (seven pairs at 13, four at 7; shape.pairs is 0 where there is none).
  const int pairs = rules.shape.pairs;
  const bool seven = pairs && n_melds == 0 && even_counts;
  if (!standard && !seven) {
    const int sets = rules.shape.sets;
    fail(pairs && n_melds == 0
             ? "not a winning hand: the tiles form neither " + std::to_string(sets) +
                   " sets and a pair nor " + (pairs == 7 ? "seven" : "four") + " pairs"
             : "not a winning hand: the concealed tiles do not form " +
                   std::to_string(sets - n_melds) + " sets and a pair");
  }

  // Raw gens (D20) of the standard reading and of the seven-pairs reading.
  int std_gens = 0;
  int pairs_gens = 0;
  switch (rules.gen_counts) {
    case GenCounts::AllFours:
      std_gens = held_fours;
      pairs_gens = concealed_fours;
      break;
    case GenCounts::KongsOnly:
      std_gens = n_kongs;
      pairs_gens = concealed_fours;  // seven pairs' fours cannot be kongs
      break;
    case GenCounts::None:
      break;
  }

  const auto& fan_table = rules.fan_table;
  Candidate best;
  int best_hand_base = 0;  // highest base fan of any applicable hand pattern (天胡/地胡 test, D14)
  auto consider = [&](Pattern p, int gen, unsigned combo) {
    Candidate c;
    c.base_fan = fan_table[p];
    c.pattern = p;
    c.gen = gen < 0 ? 0 : gen;
    c.combo = combo;
    c.total = c.base_fan + c.gen + decomposition_fans(combo);
    if (c.base_fan > best_hand_base) best_hand_base = c.base_fan;
    if (better(c, best)) best = c;
  };

  // The 金钩钓 family (D8): 金钩钓 and 清金钩钓 (将金钩钓 too) are base patterns only under
  // "base"; 十八罗汉, 清十八罗汉 and 九莲宝灯 under "base" and "additive" alike (docs/rules.md §11.3).
  const bool family = rules.jingoudiao != Stacking::Off;
  const bool gou_base = rules.jingoudiao == Stacking::Base;
  const bool all_melded = n_melds == rules.shape.sets;  // 金钩钓: every set melded (4, 3, 2)
  const bool jiang = kRegional && rules.jiang_patterns && all_258;
  bool jiulian = false;
  if (family && n_melds == 0 && one_suit) {
    int s = suit_present[0] ? 0 : (suit_present[1] ? 1 : 2);
    static constexpr uint8_t kNine[kRanks] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
    jiulian = true;
    for (int r = 0; r < kRanks; ++r) jiulian = jiulian && counts[s * kRanks + r] >= kNine[r];
  }

  if (standard) {
    for (uint32_t x = sig; x; x &= x - 1) {
      const unsigned combo = static_cast<unsigned>(lowest_bit(x));
      const bool pungs = combo & kNoChow;
      const bool yao = combo & kAllYao;
      consider(kPinghu, std_gens, combo);
      if (pungs) consider(kDuiduihu, std_gens, combo);
      if (one_suit) consider(kQingyise, std_gens, combo);
      if (yao) consider(kDaiyaojiu, std_gens, combo);
      if (gou_base && all_melded) consider(kJingoudiao, std_gens, combo);
      if (one_suit && pungs) consider(kQingdui, std_gens, combo);
      if (pungs && all_258) consider(kJiangdui, std_gens, combo);
      if (gou_base && all_melded && jiang) consider(kJiangjingoudiao, std_gens, combo);
      if (one_suit && yao) consider(kQingyaojiu, std_gens, combo);
      if (gou_base && one_suit && all_melded) consider(kQingjingoudiao, std_gens, combo);
      // 十八罗汉 drops the four kongs' gens; the pair can never be a fourth copy (D12). Four
      // kongs need hand size 13, and so does 九莲宝灯's 14 tiles of one suit (docs/rules.md §11.1).
      if (family && n_kongs == 4) consider(kShibaluohan, 0, combo);
      if (family && one_suit && n_kongs == 4) consider(kQingshibaluohan, 0, combo);
      if (jiulian) consider(kJiulianbaodeng, std_gens, combo);
    }
  }
  if (seven) {
    if (concealed_fours == 0) consider(kQidui, pairs_gens, 0);
    if (jiang) consider(kJiangqidui, pairs_gens, 0);
    if (concealed_fours >= 1) consider(kLongqidui, pairs_gens - 1, 0);
    if (one_suit) consider(kQingyise, pairs_gens, 0);
    if (one_suit && concealed_fours == 0) consider(kQingqidui, pairs_gens, 0);
    if (one_suit && concealed_fours >= 1) consider(kQinglongqidui, pairs_gens - 1, 0);
    // Three fours in one suit need 14 tiles: only at hand size 13 (docs/rules.md §11.1).
    if (one_suit && concealed_fours == 3) consider(kQingsanlongqidui, 0, 0);
  }

  // 天胡/地胡 (D14, D22): a 6-fan base on every reading with all its gens, unless a hand pattern
  // is worth more than it (best_hand_base so far covers exactly the hand patterns).
  if (rules.heavenly_earthly == Stacking::Base && (ctx.heavenly || ctx.earthly)) {
    const Pattern p = ctx.heavenly ? kTianhu : kDihu;
    if (best_hand_base <= fan_table[p]) {
      if (standard)
        for (uint32_t x = sig; x; x &= x - 1)
          consider(p, std_gens, static_cast<unsigned>(lowest_bit(x)));
      if (seven) consider(p, pairs_gens, 0);
    }
  }

  // Additive fans that do not depend on the decomposition (docs/rules.md §6, D15, D16, D21).
  uint16_t extras = 0;
  auto set_extra = [&extras](bool on, Extra e) {
    if (on) extras = uint16_t(extras | (1u << e));
  };
  set_extra(ctx.kong_replacement, kGangshanghua);
  set_extra(ctx.after_kong_discard, kGangshangpao);
  set_extra(ctx.robbed_kong, kQiangganghu);
  set_extra(rules.haidi && ctx.self_draw && ctx.last_tile, kHaidilaoyue);
  set_extra(rules.zimo_fan && ctx.self_draw, kZimo);
  set_extra(rules.menqing && !exposed, kMenqing);
  set_extra(rules.duanyaojiu && !any_yao, kDuanyaojiu);
  set_extra((best.combo & kDragon) != 0, kYitiaolong);
  set_extra((best.combo & kMidFive) != 0, mid_extra);
  set_extra(rules.haidipao && ctx.last_tile && !ctx.self_draw, kHaidipao);
  // docs/rules.md §11.3, in that table's order (D32).
  set_extra(kRegional && rules.jingoudiao == Stacking::Additive && all_melded, kJingou);
  const bool stacked = kRegional && rules.heavenly_earthly == Stacking::Additive;
  set_extra(stacked && ctx.heavenly, kTianhuExtra);
  set_extra(stacked && ctx.earthly, kDihuExtra);
  // 卡边吊: the hand before the win (less one winning tile) had exactly one wait (§5 waits;
  // the void cannot matter: that hand holds no void tile, so no void kind can complete it).
  if (kRegional && rules.single_wait && ctx.win_tile >= 0 && !ctx.heavenly) {
    Hand before = hand;
    --before.counts[ctx.win_tile];
    const uint32_t w = waits_unchecked(before, kNoVoid, rules.shape);
    set_extra(w && !(w & (w - 1)), kKabiandiao);
  }

  FanResult result;
  result.base = static_cast<Pattern>(best.pattern);
  result.base_fan = best.base_fan;
  result.gen = best.gen;
  result.extras = extras;
  set_total(result, rules);
  return result;
}

inline FanResult score_of(const Hand& hand, const WinContext& ctx, const ScoringRules& rules) {
  return rules.regional() ? score<true>(hand, ctx, rules) : score<false>(hand, ctx, rules);
}

}  // namespace

WinContext win_context(int win_tile, int flags) {
  if (flags & ~kAllWinFlags)
    fail("unknown flag bits " + std::to_string(flags & ~kAllWinFlags) + " in flags " +
         std::to_string(flags) + " (SELF_DRAW .. EARTHLY are the bits of 127)");
  WinContext ctx;
  ctx.win_tile = win_tile;
  ctx.self_draw = flags & kSelfDraw;
  ctx.kong_replacement = flags & kKongReplacement;
  ctx.after_kong_discard = flags & kAfterKongDiscard;
  ctx.robbed_kong = flags & kRobbedKong;
  ctx.last_tile = flags & kLastTile;
  ctx.heavenly = flags & kHeavenly;
  ctx.earthly = flags & kEarthly;
  return ctx;
}

FanResult evaluate(const Hand& hand, int void_suit, const WinContext& ctx, const ScoringRules& rules) {
  validate_hand(hand);
  validate_void(void_suit);
  check_shape(hand, void_suit, rules.shape);
  check_tile_count("evaluate", hand, rules.shape.tiles + 1);
  check_context(hand, ctx, rules);
  check_suits(hand, void_suit);
  return score_of(hand, ctx, rules);
}

FanResult self_draw_of_discard_win(const FanResult& discard_win, const ScoringRules& rules) {
  // In score(), self_draw is read only by the extras 海底捞月 (needs last_tile), 自摸 (needs
  // zimo_fan), 海底炮 (needs last_tile and no self_draw) and the 杠上花 / 天胡 / 地胡 checks (their
  // flags are off here). None of them touches the candidates, so the base pattern, gen and the
  // decomposition extras are those of the discard win; only 自摸, the cap and the multiplier change.
  FanResult result = discard_win;
  if (!rules.zimo_fan) return result;
  result.extras = uint16_t(result.extras | (1u << kZimo));
  set_total(result, rules);
  return result;
}

FanResult evaluate_unchecked(const Hand& hand, const WinContext& ctx, const ScoringRules& rules) {
  check_context(hand, ctx, rules);
  return score_of(hand, ctx, rules);
}

}  // namespace xueliu
