// What fan.cpp (the natural hand) and fan_wild.cpp (the best reading of a hand holding wilds)
// share: decomposition signatures, the candidates of docs/rules.md §6.1 and the choice of a base pattern
// for one reading. Internal to the core: only those two files include it.
//
// A "reading" is one set of concealed tiles to score: the natural hand itself, or (docs/rules.md
// §12.2) the natural tiles with every wild read as a kind. best_of_reading is §6.1's choice over
// the decompositions and patterns of one reading; both evaluators call it, so the pattern rules
// live in one place.
#pragma once

#include <cstdint>
#include <string>

#include "bits.hpp"
#include "fan.hpp"
#include "tables.hpp"

// The natural evaluator's per-call helpers are inlined into it as they were when they lived in
// fan.cpp (the compiler would otherwise call them: they are shared now, and large).
#if defined(__GNUC__)
#define XUELIU_FAN_INLINE inline __attribute__((always_inline))
#else
#define XUELIU_FAN_INLINE inline
#endif

namespace xueliu::fan_detail {

// ---------------------------------------------------------------------------------------------
// Decomposition features and signatures (see fan.cpp's header comment)

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

// The decomposition combo of one split of a suit into sets and at most one pair (pungs: bit r for
// a pung of rank r, chows: bit r for a chow from rank r, pair: its rank or -1), middle five read
// as the 456 chow, and the same with middle five read as the 123 chow (卡二条).
inline void suit_combos(int pair, unsigned pungs, unsigned chows, unsigned* combo456,
                        unsigned* combo123) {
  // 带幺九 reading: every pung of a 1 or a 9, every chow 123 or 789, the pair (if any) yao.
  const bool yao = (pungs & ~0x101u) == 0 && (chows & ~0x41u) == 0 &&
                   (pair < 0 || pair == 0 || pair == kRanks - 1);
  unsigned combo = 0;
  if (chows == 0) combo |= kNoChow;
  if (yao) combo |= kAllYao;
  if ((chows & 0x49u) == 0x49u) combo |= kDragon;  // chows at ranks 0, 3, 6
  *combo123 = (combo & ~kMidFive) | ((chows & 0x01u) ? kMidFive : 0u);
  if (chows & 0x08u) combo |= kMidFive;  // the 456 chow
  *combo456 = combo;
}

// Signatures of every complete suit: a 9-count vector (0..4 each) that splits into at most four sets
// and at most one pair. 21,743 keys in an open-addressing table of 65,536 slots (512 KiB;
// 1.2 probes a lookup on average). Each slot holds two signatures: the middle-five feature read
// as the 456 chow (bits 32..47) and as the 123 chow (bits 48..63, 卡二条).
//
// Thread safety: the one instance is a function-local static (suit_signatures(), fan.cpp), built
// by the first evaluate; C++11 makes concurrent first callers wait until it is built, and the
// constructor never calls into Python. It is read-only afterwards, so threads share it without a
// lock.
class SuitSignatures {
 public:
  SuitSignatures();

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
  void add(uint32_t key, unsigned combo, unsigned combo123);

  std::array<uint64_t, kSlots> slots_;
};

const SuitSignatures& suit_signatures();

// ---------------------------------------------------------------------------------------------
// Candidates (docs/rules.md §6.1)

[[noreturn]] void fail(const std::string& message);

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

// The extras' fan: one each, but an additive 天胡 / 地胡 is worth its amount (docs/rules.md §11.3)
// and 无鸡 the no_wild_bonus (§12.2).
inline int extras_fan(unsigned extras, const ScoringRules& rules) {
  int n = 0;
  for (unsigned e = extras; e; e &= e - 1) ++n;
  if (extras & (1u << kTianhuExtra)) n += rules.tianhu_extra - 1;
  if (extras & (1u << kDihuExtra)) n += rules.dihu_extra - 1;
  if (extras & (1u << kWuji)) n += rules.no_wild_bonus - 1;
  return n;
}

// The capped fan and its multiplier of a result whose base, gen and extras are set.
void set_total(FanResult& result, const ScoringRules& rules);

// What the base patterns of one reading read (the whole hand's concealed tiles as read, and its
// melds): whether it is a standard hand and the combos its decompositions reach, whether it is a
// pairs hand, 清一色, all 2/5/8, 九莲宝灯's counts, and its raw gens before the pattern exceptions.
struct ReadingFacts {
  bool standard = false;
  bool seven = false;
  Signature sig = 0;     // standard only; features of knobs that are off already dropped
  bool one_suit = false;
  bool all_258 = false;  // every tile, melds included, a 2, 5 or 8
  bool jiulian = false;  // no melds, one suit, at least 1112345678999 of it (family knob aside)
  int std_gens = 0;      // raw gens of the standard reading
  int pairs_gens = 0;    // raw gens of the pairs reading
  int fours = 0;         // kinds held four times (the pairs reading's 龙)
};

// The best candidate of one reading over its decompositions and applicable patterns (D13, D22),
// 天胡/地胡 "base" included (D14: judged on this reading's patterns). kRegional: rules.regional().
template <bool kRegional>
XUELIU_FAN_INLINE Candidate best_of_reading(const ReadingFacts& f, int n_melds, int n_kongs,
                                 const WinContext& ctx, const ScoringRules& rules) {
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
  const bool jiang = kRegional && rules.jiang_patterns && f.all_258;
  const bool one_suit = f.one_suit;
  const bool jiulian = family && f.jiulian;
  const int std_gens = f.std_gens;

  if (f.standard) {
    for (uint32_t x = f.sig; x; x &= x - 1) {
      const unsigned combo = static_cast<unsigned>(lowest_bit(x));
      const bool pungs = combo & kNoChow;
      const bool yao = combo & kAllYao;
      consider(kPinghu, std_gens, combo);
      if (pungs) consider(kDuiduihu, std_gens, combo);
      if (one_suit) consider(kQingyise, std_gens, combo);
      if (yao) consider(kDaiyaojiu, std_gens, combo);
      if (gou_base && all_melded) consider(kJingoudiao, std_gens, combo);
      if (one_suit && pungs) consider(kQingdui, std_gens, combo);
      if (pungs && f.all_258) consider(kJiangdui, std_gens, combo);
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
  if (f.seven) {
    const int pairs_gens = f.pairs_gens, fours = f.fours;
    if (fours == 0) consider(kQidui, pairs_gens, 0);
    if (jiang) consider(kJiangqidui, pairs_gens, 0);
    if (fours >= 1) consider(kLongqidui, pairs_gens - 1, 0);
    if (one_suit) consider(kQingyise, pairs_gens, 0);
    if (one_suit && fours == 0) consider(kQingqidui, pairs_gens, 0);
    if (one_suit && fours >= 1) consider(kQinglongqidui, pairs_gens - 1, 0);
    // Three fours in one suit need 14 tiles: only at hand size 13 (docs/rules.md §11.1).
    if (one_suit && fours == 3) consider(kQingsanlongqidui, 0, 0);
  }

  // 天胡/地胡 (D14, D22): a 6-fan base on every reading with all its gens, unless a hand pattern
  // is worth more than it (best_hand_base so far covers exactly the hand patterns).
  if (rules.heavenly_earthly == Stacking::Base && (ctx.heavenly || ctx.earthly)) {
    const Pattern p = ctx.heavenly ? kTianhu : kDihu;
    if (best_hand_base <= fan_table[p]) {
      if (f.standard)
        for (uint32_t x = f.sig; x; x &= x - 1)
          consider(p, std_gens, static_cast<unsigned>(lowest_bit(x)));
      if (f.seven) consider(p, f.pairs_gens, 0);
    }
  }
  return best;
}

// The additive fans that no decomposition or reading changes, in the order of the Extra enum
// (docs/rules.md §6, D15, D16, D21, §11.3; 卡边吊 and 无鸡 are the callers').
inline uint16_t context_extras(const WinContext& ctx, const ScoringRules& rules, bool exposed,
                               bool all_melded, bool regional) {
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
  set_extra(rules.haidipao && ctx.last_tile && !ctx.self_draw, kHaidipao);
  set_extra(regional && rules.jingoudiao == Stacking::Additive && all_melded, kJingou);
  const bool stacked = regional && rules.heavenly_earthly == Stacking::Additive;
  set_extra(stacked && ctx.heavenly, kTianhuExtra);
  set_extra(stacked && ctx.earthly, kDihuExtra);
  return extras;
}

// 缺一门 and the void over concealed natural tiles and melds (docs/rules.md §5, D5; wilds belong to
// no suit, §12.2). Throws std::invalid_argument "not a winning hand: ..." naming the tile: a void
// tile (kind), a meld in the void (meld), or three suits (neither).
[[noreturn]] void fail_suits(int kind, int meld_kind);
XUELIU_FAN_INLINE void check_suits(const Hand& hand, int void_suit) {
  bool present[kSuits] = {false, false, false};
  for (int k = 0; k < kKinds; ++k) {
    if (!hand.counts[k]) continue;
    if (suit_of(k) == void_suit) fail_suits(k, -1);
    present[suit_of(k)] = true;
  }
  for (int i = 0; i < hand.n_melds; ++i) {
    const int k = hand.melds[i].kind;
    if (suit_of(k) == void_suit) fail_suits(-1, k);
    present[suit_of(k)] = true;
  }
  if (present[0] && present[1] && present[2]) fail_suits(-1, -1);
}

// The best reading of a hand under wild rules (ScoringRules::wild_scoring(); fan_wild.cpp), or
// 四鸡. The hand, the void, the count and the context flags are checked by the caller; the wilds,
// 缺一门 and the void here, since 四鸡 scores whatever the rest of the hand holds.
FanResult evaluate_wild(const Hand& hand, int void_suit, const WinContext& ctx,
                        const ScoringRules& rules);

}  // namespace xueliu::fan_detail
