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
// reading: a handful of comparisons, no allocation. The signatures and the choice of a pattern live
// in fan_detail.hpp, shared with fan_wild.cpp, which scores hands holding wilds (docs/rules.md §12)
// reading by reading.
#include "fan.hpp"

#include <string>

#include "bits.hpp"
#include "fan_detail.hpp"
#include "hand.hpp"
#include "tables.hpp"

namespace xueliu {

const std::array<int, kTablePatterns> kDefaultFanTable = {
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

namespace fan_detail {

SuitSignatures::SuitSignatures() {
  slots_.fill(kEmptySlot);
  for_each_suit_shape([this](const uint8_t* counts9, int, int pair, unsigned pungs,
                             unsigned chows) {
    unsigned combo = 0, combo123 = 0;
    suit_combos(pair, pungs, chows, &combo, &combo123);
    add(suit_key(counts9), combo, combo123);
  });
}

void SuitSignatures::add(uint32_t key, unsigned combo, unsigned combo123) {
  uint32_t slot = hash(key);
  while (slots_[slot] != kEmptySlot && static_cast<uint32_t>(slots_[slot]) != key)
    slot = (slot + 1) & kMask;
  const uint64_t sig = slots_[slot] == kEmptySlot ? 0 : slots_[slot] >> 32;
  slots_[slot] = key | ((sig | (uint64_t(1) << combo) | (uint64_t(1) << (16 + combo123))) << 32);
}

const SuitSignatures& suit_signatures() {
  static const SuitSignatures table;  // see the class comment for thread safety
  return table;
}

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

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

void fail_suits(int kind, int meld_kind) {
  if (kind >= 0) fail("not a winning hand: holds " + tile_name(kind) + " of the void suit");
  if (meld_kind >= 0)
    fail("not a winning hand: a meld of " + tile_name(meld_kind) + " is in the void suit");
  fail("not a winning hand: tiles of three suits (缺一门 allows two)");
}

}  // namespace fan_detail

namespace {

using namespace fan_detail;

// ---------------------------------------------------------------------------------------------
// Checks

// A winning tile that is not a kind: a wild (kWildBit, rules with wilds, a hand holding one) or
// bad input.
void check_win_tile_off_kinds(const Hand& hand, const WinContext& ctx, const ScoringRules& rules) {
  if (ctx.win_tile == kWildBit && rules.wild.any()) {
    if (hand.wilds == 0) fail("win_tile 27 (a wild) but the hand holds no concealed wild");
    return;
  }
  fail(std::string("win_tile must be -1 or a kind 0..26") +
       (rules.wild.any() ? " (27: a wild)" : "") + ", got " + std::to_string(ctx.win_tile));
}

// docs/rules.md §6.1 / D15 flag consistency, and win_tile (D23; a wild, §12.5). Hand shape is
// not looked at.
void check_context(const Hand& hand, const WinContext& ctx, const ScoringRules& rules) {
  if (ctx.win_tile != -1) {
    if (ctx.win_tile < 0 || ctx.win_tile >= kKinds)
      check_win_tile_off_kinds(hand, ctx, rules);
    else if (hand.counts[ctx.win_tile] == 0)
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

// ---------------------------------------------------------------------------------------------
// Scoring

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
  ReadingFacts f;
  f.standard = standard;
  f.seven = seven;
  f.sig = sig;
  f.one_suit = one_suit;
  f.all_258 = all_258;
  f.fours = concealed_fours;
  switch (rules.gen_counts) {
    case GenCounts::AllFours:
      f.std_gens = held_fours;
      f.pairs_gens = concealed_fours;
      break;
    case GenCounts::KongsOnly:
      f.std_gens = n_kongs;
      f.pairs_gens = concealed_fours;  // seven pairs' fours cannot be kongs
      break;
    case GenCounts::None:
      break;
  }
  // 九莲宝灯's counts (the family knob is best_of_reading's to read).
  if (rules.jingoudiao != Stacking::Off && n_melds == 0 && one_suit) {
    int s = suit_present[0] ? 0 : (suit_present[1] ? 1 : 2);
    static constexpr uint8_t kNine[kRanks] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
    f.jiulian = true;
    for (int r = 0; r < kRanks; ++r) f.jiulian = f.jiulian && counts[s * kRanks + r] >= kNine[r];
  }
  const Candidate best = best_of_reading<kRegional>(f, n_melds, n_kongs, ctx, rules);

  // Additive fans that do not depend on the decomposition (docs/rules.md §6, D15, D16, D21).
  const bool all_melded = n_melds == rules.shape.sets;
  uint16_t extras = context_extras(ctx, rules, exposed, all_melded, kRegional);
  auto set_extra = [&extras](bool on, Extra e) {
    if (on) extras = uint16_t(extras | (1u << e));
  };
  set_extra(rules.duanyaojiu && !any_yao, kDuanyaojiu);
  set_extra((best.combo & kDragon) != 0, kYitiaolong);
  set_extra((best.combo & kMidFive) != 0, mid_extra);
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
  // docs/rules.md §12: the wilds, 缺一门 and the void are the reading search's to check (四鸡
  // scores whatever the rest of the hand holds).
  if (rules.wild_scoring()) return evaluate_wild(hand, void_suit, ctx, rules);
  if (hand.wilds) check_wilds(hand, rules.wild);  // throws: wild tiles, rules without
  check_suits(hand, void_suit);
  return score_of(hand, ctx, rules);
}

FanResult self_draw_of_discard_win(const FanResult& discard_win, const ScoringRules& rules) {
  // In score(), self_draw is read only by the extras 海底捞月 (needs last_tile), 自摸 (needs
  // zimo_fan), 海底炮 (needs last_tile and no self_draw) and the 杠上花 / 天胡 / 地胡 checks (their
  // flags are off here). None of them touches the candidates, so the base pattern, gen and the
  // decomposition extras are those of the discard win; only 自摸, the cap and the multiplier change.
  // (Under four_wilds a self-draw may also be 四鸡, which needs the hand: evaluate it instead.)
  FanResult result = discard_win;
  if (!rules.zimo_fan) return result;
  result.extras = uint16_t(result.extras | (1u << kZimo));
  set_total(result, rules);
  return result;
}

FanResult evaluate_unchecked(const Hand& hand, int void_suit, const WinContext& ctx,
                             const ScoringRules& rules) {
  check_context(hand, ctx, rules);
  if (rules.wild_scoring()) return evaluate_wild(hand, void_suit, ctx, rules);
  return score_of(hand, ctx, rules);
}

FanResult evaluate_unchecked(const Hand& hand, const WinContext& ctx, const ScoringRules& rules) {
  check_context(hand, ctx, rules);
  if (rules.wild_scoring()) return evaluate_wild(hand, kNoVoid, ctx, rules);
  return score_of(hand, ctx, rules);
}

}  // namespace xueliu
