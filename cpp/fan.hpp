// Fan (番) evaluation of a winning hand (docs/rules.md §6 and §6.1).
//
// Thread safety: evaluate is reentrant; it reads a lazily built signature table (fan.cpp:
// SuitSignatures, built once, then read-only). ScoringRules, WinContext and FanResult are plain
// values: a const ScoringRules may be shared by any number of threads (the batch calls do).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tiles.hpp"

namespace xueliu {

// Base patterns in docs/rules.md §6 table order; the order is the tie-break order and the batch code.
enum Pattern : uint8_t {
  kPinghu = 0,         // 平胡
  kDuiduihu,           // 对对胡
  kQingyise,           // 清一色
  kDaiyaojiu,          // 带幺九
  kQidui,              // 七对
  kJingoudiao,         // 金钩钓
  kQingdui,            // 清对
  kJiangdui,           // 将对
  kJiangqidui,         // 将七对 (将四对 at hand size 7; knob jiang_patterns, docs/rules.md §11.3)
  kJiangjingoudiao,    // 将金钩钓 (jiang_patterns with jingoudiao "base")
  kLongqidui,          // 龙七对
  kQingqidui,          // 清七对
  kQingyaojiu,         // 清幺九
  kQingjingoudiao,     // 清金钩钓
  kQinglongqidui,      // 清龙七对
  kTianhu,             // 天胡
  kDihu,               // 地胡
  kShibaluohan,        // 十八罗汉
  kQingsanlongqidui,   // 清三龙七对
  kQingshibaluohan,    // 清十八罗汉
  kJiulianbaodeng,     // 九莲宝灯
  // docs/rules.md §12.2: four or more concealed wilds. Its fan is the four_wilds knob's, so the
  // fan table stops before it (kTablePatterns); never compared by table order, only by fan (§12.5).
  kSiji,               // 四鸡
  kPatternCount
};
// The patterns of the fan table: every one before 四鸡.
constexpr int kTablePatterns = kSiji;

// Additive fans other than gen, in docs/rules.md §6 table order (bit i of FanResult::extras).
enum Extra : uint8_t {
  kGangshanghua = 0,  // 杠上花
  kGangshangpao,      // 杠上炮
  kQiangganghu,       // 抢杠胡
  kHaidilaoyue,       // 海底捞月
  kZimo,              // 自摸
  kMenqing,           // 门清
  kDuanyaojiu,        // 断幺九
  kYitiaolong,        // 一条龙
  kJiaxinwu,          // 夹心五
  kHaidipao,          // 海底炮
  // docs/rules.md §11.3
  kJingou,            // 金钩 +1 under jingoudiao "additive": every set melded
  kTianhuExtra,       // 天胡 under heavenly_earthly "additive" (+3, or the fan table's amount)
  kDihuExtra,         // 地胡 likewise (+2)
  kKaertiao,          // 卡二条: the winning 2s is the middle of the 123s chow
  kKabiandiao,        // 卡边吊: the hand before the win had exactly one wait
  // docs/rules.md §12.2
  kWuji,              // 无鸡: no wild anywhere in the win (worth no_wild_bonus, 1..3)
  kExtraCount
};

// Knobs with three values (docs/rules.md §11.3): off, the §6 meaning ("base") or "additive".
enum class Stacking : uint8_t { Off = 0, Base = 1, Additive = 2 };
// earthly_win: which wins may be 地胡.
enum class EarthlyWin : uint8_t { FirstDraw = 0, FirstDiscard = 1, Either = 2 };

enum class GenCounts : uint8_t { AllFours = 0, KongsOnly = 1, None = 2 };

// wild_gen (docs/rules.md §12.2, §12.5): what a 根 is when wilds are in the win. Fours: any four of
// the reading; Natural: a four no concealed wild is read into (a meld's wilds count as its
// kind); PerWild: fours without any wild, plus one per physical wild held.
enum class WildGen : uint8_t { Fours = 0, Natural = 1, PerWild = 2 };

// four_wilds (docs/rules.md §12.2): 0 off, kFourWildsCap scores max_fan, N >= 1 scores N fan.
constexpr int kFourWildsCap = -1;

extern const std::array<int, kTablePatterns> kDefaultFanTable;

// The scoring knobs of docs/rules.md §6/§9/§11 that the core needs, and the table shape.
struct ScoringRules {
  bool seven_pairs = true;
  Stacking jingoudiao = Stacking::Off;        // the 金钩钓 family
  Stacking heavenly_earthly = Stacking::Off;  // 天胡 / 地胡
  bool haidi = false;             // 海底捞月
  bool zimo_fan = false;          // self_draw_bonus == "fan"
  bool menqing = false;
  bool duanyaojiu = false;
  bool yitiaolong = false;
  bool jiaxinwu = false;
  bool haidipao = false;
  bool jiang_patterns = false;  // 将七对, 将金钩钓
  bool kaertiao = false;        // 卡二条
  bool single_wait = false;     // 卡边吊
  EarthlyWin earthly_win = EarthlyWin::FirstDraw;
  int tianhu_extra = 3;  // the additive 天胡 / 地胡 amounts
  int dihu_extra = 2;
  // Hand size, sets, the pairs family and the suits in play; shape.pairs is 0 whenever
  // seven_pairs is off (the bindings build both from one shape code).
  HandShape shape{};
  GenCounts gen_counts = GenCounts::AllFours;
  int max_fan = 0;  // 0: no cap
  std::array<int, kTablePatterns> fan_table = kDefaultFanTable;
  std::vector<int64_t> multipliers;  // empty: 2 ** (fan - 1); else entry i is fan i + 1
  // docs/rules.md §12: which kinds are wild (and wild_fifth_copy), wild_gen, 无鸡's amount (0:
  // off) and 四鸡 (four_wilds above). At their defaults scoring is §6 to §11 exactly, through the
  // natural evaluator; any of them on sends every win through the reading search (fan_wild.cpp).
  WildRules wild{};
  WildGen wild_gen = WildGen::Fours;
  int no_wild_bonus = 0;
  int four_wilds = 0;

  bool wild_scoring() const { return wild.any() | (no_wild_bonus != 0) | (four_wilds != 0); }

  // Whether a §11.3 knob that scoring tests on every win is on (the §6 rules alone are scored by
  // an instantiation without those tests: fan.cpp's score).
  bool regional() const {
    return jiang_patterns | kaertiao | single_wait | (jingoudiao == Stacking::Additive) |
           (heavenly_earthly == Stacking::Additive);
  }
};

// How the win happened (docs/rules.md §6.1 flags).
struct WinContext {
  // A kind or -1; must be among the concealed tiles. kWildBit (27): the winning tile is a wild
  // (rules with wilds, a hand holding one), read as a kind its best reading gives a wild.
  int win_tile = -1;
  bool self_draw = false;
  bool kong_replacement = false;    // 杠上花
  bool after_kong_discard = false;  // 杠上炮
  bool robbed_kong = false;         // 抢杠胡
  bool last_tile = false;           // 海底
  bool heavenly = false;            // 天胡
  bool earthly = false;             // 地胡
};

// The flags word that carries a WinContext across the Python boundary (_core.SELF_DRAW ...).
enum WinFlag : int {
  kSelfDraw = 1,
  kKongReplacement = 2,
  kAfterKongDiscard = 4,
  kRobbedKong = 8,
  kLastTile = 16,
  kHeavenly = 32,
  kEarthly = 64,
  kAllWinFlags = 127
};

// The context of a flags word (bits of WinFlag) and a win tile (-1, a kind or kWildBit, checked by
// evaluate).
// Throws std::invalid_argument naming the unknown bits. Flag contradictions are evaluate's to
// report, as they depend on the hand.
WinContext win_context(int win_tile, int flags);

struct FanResult {
  int fan = 0;              // capped total
  int64_t multiplier = 0;   // of the capped fan
  Pattern base = kPinghu;
  int base_fan = 0;         // uncapped, from the fan table
  int gen = 0;              // after the pattern's exceptions
  uint16_t extras = 0;      // bitmask over Extra
  int extra_fan = 0;        // the extras' fan: one each, the additive 天胡 / 地胡 their amount
};

// Evaluates a winning hand (14 - 3k concealed tiles, the winning tile included; rules.shape.tiles
// + 1 - 3k at other hand sizes). Under wild rules (docs/rules.md §12.2, §12.5) the hand is scored
// on its best reading, or as 四鸡: a self-draw holding four or more concealed wilds under
// four_wilds scores 四鸡 even when no reading is complete, and the better of the two when one is
// (a tie keeps the reading).
// Throws std::invalid_argument when the hand is bad, not a win, the flags contradict (docs/rules.md §6.1),
// or a multipliers table does not reach the fan.
FanResult evaluate(const Hand& hand, int void_suit, const WinContext& ctx, const ScoringRules& rules);

// Without validating the hand (the caller checked it and that it wins); still throws on flag
// contradictions and an unreachable multiplier. The void matters only under wild rules (a wild is
// never read as the void suit): the overload without it reads the hand with no void.
FanResult evaluate_unchecked(const Hand& hand, int void_suit, const WinContext& ctx,
                             const ScoringRules& rules);
FanResult evaluate_unchecked(const Hand& hand, const WinContext& ctx, const ScoringRules& rules);

// The self-draw score of a win whose score on a discard, with no flag but win_tile set, is
// `discard_win`: equal to evaluate_unchecked with self_draw set (only 自摸, the cap and the
// multiplier can differ). Throws like evaluate when the multipliers table does not reach the fan.
FanResult self_draw_of_discard_win(const FanResult& discard_win, const ScoringRules& rules);

}  // namespace xueliu
