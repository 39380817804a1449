// Fan bindings: ScoringRules, pattern / extra ids, context flags and evaluate (docs/rules.md §6, §6.1).
#include <pybind11/stl.h>

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "convert.hpp"
#include "fan.hpp"
#include "register.hpp"
#include "tiles.hpp"

namespace py = pybind11;

namespace xueliu::bindings {
namespace {

// docs/rules.md §6 ids (§11.3's, then §12's 四鸡 and 无鸡), in the order of the Pattern / Extra
// enums.
constexpr const char* kPatternIds[kPatternCount] = {
    "pinghu",      "duiduihu",       "qingyise",         "daiyaojiu",       "qidui",
    "jingoudiao",  "qingdui",        "jiangdui",         "jiangqidui",      "jiangjingoudiao",
    "longqidui",   "qingqidui",      "qingyaojiu",       "qingjingoudiao",  "qinglongqidui",
    "tianhu",      "dihu",           "shibaluohan",      "qingsanlongqidui", "qingshibaluohan",
    "jiulianbaodeng", "siji"};
constexpr const char* kExtraIds[kExtraCount] = {
    "gangshanghua", "gangshangpao", "qiangganghu", "haidilaoyue", "zimo",
    "menqing",      "duanyaojiu",   "yitiaolong",  "jiaxinwu",    "haidipao",
    "jingou",       "tianhu",       "dihu",        "kaertiao",    "kabiandiao",
    "wuji"};

Stacking stacking_of(int v, const char* knob) {
  if (v < 0 || v > 2)
    throw py::value_error(std::string(knob) + " must be 0 (off), 1 (base) or 2 (additive), got " +
                          std::to_string(v));
  return static_cast<Stacking>(v);
}

// A fan value above this is certainly a mistake, and keeping values small keeps sums from
// overflowing in the core.
constexpr int kMaxTableFan = 1000;

const char* py_bool(bool b) { return b ? "True" : "False"; }

ScoringRules make_rules(bool seven_pairs, int jingoudiao, int heavenly_earthly, bool haidi,
                        bool zimo_fan, bool menqing, bool duanyaojiu, bool yitiaolong,
                        bool jiaxinwu, bool haidipao, int gen_counts, int max_fan,
                        const std::optional<std::vector<int>>& fan_table,
                        const std::vector<int64_t>& multipliers, int shape, bool jiang_patterns,
                        bool kaertiao, bool single_wait, int earthly_win, int tianhu_extra,
                        int dihu_extra, uint32_t wild_kinds, bool wild_fifth_copy, int wild_gen,
                        int no_wild_bonus, int four_wilds) {
  ScoringRules r;
  r.seven_pairs = seven_pairs;
  // The shape code carries the size and the suits; its seven-pairs bit is this knob's.
  r.shape = hand_shape((shape & ~1) | (seven_pairs ? 1 : 0));
  r.jingoudiao = stacking_of(jingoudiao, "jingoudiao");
  r.heavenly_earthly = stacking_of(heavenly_earthly, "heavenly_earthly");
  r.jiang_patterns = jiang_patterns;
  r.kaertiao = kaertiao;
  r.single_wait = single_wait;
  if (earthly_win < 0 || earthly_win > 2)
    throw py::value_error("earthly_win must be 0 (first_draw), 1 (first_discard) or 2 (either), "
                          "got " + std::to_string(earthly_win));
  r.earthly_win = static_cast<EarthlyWin>(earthly_win);
  if (tianhu_extra < 1 || tianhu_extra > kMaxTableFan || dihu_extra < 1 ||
      dihu_extra > kMaxTableFan)
    throw py::value_error("tianhu_extra and dihu_extra must be 1.." +
                          std::to_string(kMaxTableFan) + ", got " + std::to_string(tianhu_extra) +
                          " and " + std::to_string(dihu_extra));
  r.tianhu_extra = tianhu_extra;
  r.dihu_extra = dihu_extra;
  r.haidi = haidi;
  r.zimo_fan = zimo_fan;
  r.menqing = menqing;
  r.duanyaojiu = duanyaojiu;
  r.yitiaolong = yitiaolong;
  r.jiaxinwu = jiaxinwu;
  r.haidipao = haidipao;
  if (gen_counts < 0 || gen_counts > 2)
    throw py::value_error("gen_counts must be 0 (all_fours), 1 (kongs_only) or 2 (none), got " +
                          std::to_string(gen_counts));
  r.gen_counts = static_cast<GenCounts>(gen_counts);
  if (max_fan < 0)
    throw py::value_error("max_fan must be >= 0 (0: no cap), got " + std::to_string(max_fan));
  r.max_fan = max_fan;
  if (fan_table) {
    if (fan_table->size() != kTablePatterns)
      throw py::value_error("fan_table needs " + std::to_string(kTablePatterns) +
                            " entries (one per pattern of PATTERN_IDS but siji, in order), got " +
                            std::to_string(fan_table->size()));
    for (int p = 0; p < kTablePatterns; ++p) {
      const int v = (*fan_table)[p];
      if (v < 1 || v > kMaxTableFan)
        throw py::value_error(std::string("fan_table[") + kPatternIds[p] + "] must be 1.." +
                              std::to_string(kMaxTableFan) + ", got " + std::to_string(v));
      r.fan_table[p] = v;
    }
  }
  for (size_t i = 0; i < multipliers.size(); ++i)
    if (multipliers[i] < 0)
      throw py::value_error("multipliers[" + std::to_string(i) + "] (fan " + std::to_string(i + 1) +
                            ") must be >= 0, got " + std::to_string(multipliers[i]));
  r.multipliers = multipliers;
  // docs/rules.md §12: the wild kinds as a mask (bit k: kind k, bit 27: 红中), never a kind of a
  // suit not in play.
  if (wild_kinds >> (kWildBit + 1))
    throw py::value_error("wild_kinds must be a mask of bits 0..27 (27: 红中), got " +
                          std::to_string(wild_kinds));
  for (int k = 0; k < kKinds; ++k)
    if ((wild_kinds >> k & 1) && !(r.shape.kinds >> k & 1))
      throw py::value_error("wild_kinds names " + tile_name(k) + ", of a suit not in play");
  r.wild.kinds = wild_kinds;
  r.wild.fifth_copy = wild_fifth_copy;
  if (wild_gen < 0 || wild_gen > 2)
    throw py::value_error("wild_gen must be 0 (fours), 1 (natural) or 2 (per_wild), got " +
                          std::to_string(wild_gen));
  r.wild_gen = static_cast<WildGen>(wild_gen);
  if (no_wild_bonus < 0 || no_wild_bonus > 3)
    throw py::value_error("no_wild_bonus must be 0..3, got " + std::to_string(no_wild_bonus));
  r.no_wild_bonus = no_wild_bonus;
  if (four_wilds < kFourWildsCap || four_wilds > kMaxTableFan)
    throw py::value_error("four_wilds must be 0 (none), -1 ('cap': max_fan) or 1.." +
                          std::to_string(kMaxTableFan) + " (that many fan), got " +
                          std::to_string(four_wilds));
  if (four_wilds == kFourWildsCap && max_fan == 0)
    throw py::value_error("four_wilds -1 ('cap') scores max_fan, but max_fan is 0 (no cap)");
  r.four_wilds = four_wilds;
  return r;
}

template <class T>
py::tuple to_tuple(const T& values) {
  py::tuple t(values.size());
  for (size_t i = 0; i < values.size(); ++i) t[i] = py::cast(values[i]);
  return t;
}

py::dict rules_state(const ScoringRules& r) {
  py::dict d;
  d["seven_pairs"] = r.seven_pairs;
  d["jingoudiao"] = static_cast<int>(r.jingoudiao);
  d["heavenly_earthly"] = static_cast<int>(r.heavenly_earthly);
  d["haidi"] = r.haidi;
  d["zimo_fan"] = r.zimo_fan;
  d["menqing"] = r.menqing;
  d["duanyaojiu"] = r.duanyaojiu;
  d["yitiaolong"] = r.yitiaolong;
  d["jiaxinwu"] = r.jiaxinwu;
  d["haidipao"] = r.haidipao;
  d["gen_counts"] = static_cast<int>(r.gen_counts);
  d["max_fan"] = r.max_fan;
  d["fan_table"] = to_tuple(r.fan_table);
  d["multipliers"] = to_tuple(r.multipliers);
  d["shape"] = r.shape.code;
  d["jiang_patterns"] = r.jiang_patterns;
  d["kaertiao"] = r.kaertiao;
  d["single_wait"] = r.single_wait;
  d["earthly_win"] = static_cast<int>(r.earthly_win);
  d["tianhu_extra"] = r.tianhu_extra;
  d["dihu_extra"] = r.dihu_extra;
  d["wild_kinds"] = r.wild.kinds;
  d["wild_fifth_copy"] = r.wild.fifth_copy;
  d["wild_gen"] = static_cast<int>(r.wild_gen);
  d["no_wild_bonus"] = r.no_wild_bonus;
  d["four_wilds"] = r.four_wilds;
  return d;
}

ScoringRules rules_from_state(const py::dict& d) {
  return make_rules(d["seven_pairs"].cast<bool>(), d["jingoudiao"].cast<int>(),
                    d["heavenly_earthly"].cast<int>(), d["haidi"].cast<bool>(),
                    d["zimo_fan"].cast<bool>(), d["menqing"].cast<bool>(),
                    d["duanyaojiu"].cast<bool>(), d["yitiaolong"].cast<bool>(),
                    d["jiaxinwu"].cast<bool>(), d["haidipao"].cast<bool>(),
                    d["gen_counts"].cast<int>(), d["max_fan"].cast<int>(),
                    d["fan_table"].cast<std::vector<int>>(),
                    d["multipliers"].cast<std::vector<int64_t>>(), d["shape"].cast<int>(),
                    d["jiang_patterns"].cast<bool>(), d["kaertiao"].cast<bool>(),
                    d["single_wait"].cast<bool>(), d["earthly_win"].cast<int>(),
                    d["tianhu_extra"].cast<int>(), d["dihu_extra"].cast<int>(),
                    d["wild_kinds"].cast<uint32_t>(), d["wild_fifth_copy"].cast<bool>(),
                    d["wild_gen"].cast<int>(), d["no_wild_bonus"].cast<int>(),
                    d["four_wilds"].cast<int>());
}

}  // namespace

py::tuple fan_tuple(const FanResult& r) {
  // The extras' fan beyond one each (an additive 天胡 / 地胡) rides above the mask's 16 bits,
  // so every other result's tuple is exactly as before the additive fans (_core.pyi FanTuple).
  int over = r.extra_fan;
  for (unsigned e = r.extras; e; e &= e - 1) --over;
  return py::make_tuple(r.fan, r.multiplier, static_cast<int>(r.base), r.base_fan, r.gen,
                        static_cast<int>(r.extras) | over << 16);
}

void register_fan(py::module_& m) {
  {
    py::tuple ids(static_cast<size_t>(kPatternCount));
    for (int p = 0; p < kPatternCount; ++p) ids[p] = py::str(kPatternIds[p]);
    m.attr("PATTERN_IDS") = ids;
  }
  {
    py::tuple ids(static_cast<size_t>(kExtraCount));
    for (int e = 0; e < kExtraCount; ++e) ids[e] = py::str(kExtraIds[e]);
    m.attr("EXTRA_IDS") = ids;
  }
  m.attr("DEFAULT_FAN_TABLE") = to_tuple(kDefaultFanTable);
  m.attr("SELF_DRAW") = static_cast<int>(kSelfDraw);
  m.attr("KONG_REPLACEMENT") = static_cast<int>(kKongReplacement);
  m.attr("AFTER_KONG_DISCARD") = static_cast<int>(kAfterKongDiscard);
  m.attr("ROBBED_KONG") = static_cast<int>(kRobbedKong);
  m.attr("LAST_TILE") = static_cast<int>(kLastTile);
  m.attr("HEAVENLY") = static_cast<int>(kHeavenly);
  m.attr("EARTHLY") = static_cast<int>(kEarthly);

  // No setters: immutable once built, so the batch calls may read one instance from several
  // threads with the GIL released.
  py::class_<ScoringRules>(m, "ScoringRules",
                           "The scoring knobs of docs/rules.md §6/§9, built once per Rules (immutable).\n\n"
                           "ScoringRules(jingoudiao=True, heavenly_earthly=True, haidi=True)")
      .def(py::init(&make_rules), py::kw_only(), py::arg("seven_pairs") = true,
           py::arg("jingoudiao") = false, py::arg("heavenly_earthly") = false,
           py::arg("haidi") = false, py::arg("zimo_fan") = false, py::arg("menqing") = false,
           py::arg("duanyaojiu") = false, py::arg("yitiaolong") = false,
           py::arg("jiaxinwu") = false, py::arg("haidipao") = false, py::arg("gen_counts") = 0,
           py::arg("max_fan") = 0, py::arg("fan_table") = py::none(),
           py::arg("multipliers") = std::vector<int64_t>{}, py::arg("shape") = 1,
           py::arg("jiang_patterns") = false, py::arg("kaertiao") = false,
           py::arg("single_wait") = false, py::arg("earthly_win") = 0,
           py::arg("tianhu_extra") = 3, py::arg("dihu_extra") = 2,
           py::arg("wild_kinds") = 0u, py::arg("wild_fifth_copy") = false,
           py::arg("wild_gen") = 0, py::arg("no_wild_bonus") = 0, py::arg("four_wilds") = 0)
      .def_property_readonly("seven_pairs", [](const ScoringRules& r) { return r.seven_pairs; })
      .def_property_readonly("jingoudiao",
                             [](const ScoringRules& r) { return static_cast<int>(r.jingoudiao); })
      .def_property_readonly("heavenly_earthly", [](const ScoringRules& r) {
        return static_cast<int>(r.heavenly_earthly);
      })
      .def_property_readonly("shape", [](const ScoringRules& r) { return r.shape.code; })
      .def_property_readonly("jiang_patterns", [](const ScoringRules& r) { return r.jiang_patterns; })
      .def_property_readonly("kaertiao", [](const ScoringRules& r) { return r.kaertiao; })
      .def_property_readonly("single_wait", [](const ScoringRules& r) { return r.single_wait; })
      .def_property_readonly("earthly_win",
                             [](const ScoringRules& r) { return static_cast<int>(r.earthly_win); })
      .def_property_readonly("tianhu_extra", [](const ScoringRules& r) { return r.tianhu_extra; })
      .def_property_readonly("dihu_extra", [](const ScoringRules& r) { return r.dihu_extra; })
      .def_property_readonly("haidi", [](const ScoringRules& r) { return r.haidi; })
      .def_property_readonly("zimo_fan", [](const ScoringRules& r) { return r.zimo_fan; })
      .def_property_readonly("menqing", [](const ScoringRules& r) { return r.menqing; })
      .def_property_readonly("duanyaojiu", [](const ScoringRules& r) { return r.duanyaojiu; })
      .def_property_readonly("yitiaolong", [](const ScoringRules& r) { return r.yitiaolong; })
      .def_property_readonly("jiaxinwu", [](const ScoringRules& r) { return r.jiaxinwu; })
      .def_property_readonly("haidipao", [](const ScoringRules& r) { return r.haidipao; })
      .def_property_readonly("gen_counts",
                             [](const ScoringRules& r) { return static_cast<int>(r.gen_counts); })
      .def_property_readonly("max_fan", [](const ScoringRules& r) { return r.max_fan; })
      .def_property_readonly("wild_kinds", [](const ScoringRules& r) { return r.wild.kinds; })
      .def_property_readonly("wild_fifth_copy",
                             [](const ScoringRules& r) { return r.wild.fifth_copy; })
      .def_property_readonly("wild_gen",
                             [](const ScoringRules& r) { return static_cast<int>(r.wild_gen); })
      .def_property_readonly("no_wild_bonus", [](const ScoringRules& r) { return r.no_wild_bonus; })
      .def_property_readonly("four_wilds", [](const ScoringRules& r) { return r.four_wilds; })
      .def_property_readonly("fan_table",
                             [](const ScoringRules& r) { return to_tuple(r.fan_table); })
      .def_property_readonly("multipliers",
                             [](const ScoringRules& r) { return to_tuple(r.multipliers); })
      .def("__repr__",
           [](const ScoringRules& r) {
             const std::pair<const char*, bool> knobs[] = {
                 {"seven_pairs", r.seven_pairs}, {"haidi", r.haidi},
                 {"zimo_fan", r.zimo_fan}, {"menqing", r.menqing},
                 {"duanyaojiu", r.duanyaojiu}, {"yitiaolong", r.yitiaolong},
                 {"jiaxinwu", r.jiaxinwu}, {"haidipao", r.haidipao},
                 {"jiang_patterns", r.jiang_patterns}, {"kaertiao", r.kaertiao},
                 {"single_wait", r.single_wait}};
             std::ostringstream o;
             o << "ScoringRules(";
             for (const auto& knob : knobs) o << knob.first << "=" << py_bool(knob.second) << ", ";
             o << "jingoudiao=" << static_cast<int>(r.jingoudiao)
               << ", heavenly_earthly=" << static_cast<int>(r.heavenly_earthly)
               << ", earthly_win=" << static_cast<int>(r.earthly_win)
               << ", tianhu_extra=" << r.tianhu_extra << ", dihu_extra=" << r.dihu_extra
               << ", shape=" << r.shape.code << ", ";
             o << "gen_counts=" << static_cast<int>(r.gen_counts) << ", max_fan=" << r.max_fan
               << ", fan_table=(";
             for (int p = 0; p < kTablePatterns; ++p) o << (p ? ", " : "") << r.fan_table[p];
             o << "), multipliers=(";
             for (size_t i = 0; i < r.multipliers.size(); ++i)
               o << (i ? ", " : "") << r.multipliers[i];
             o << (r.multipliers.size() == 1 ? ",)" : ")");
             // docs/rules.md §12's knobs only away from their defaults: the repr of rules
             // without wilds reads as before.
             if (r.wild.kinds) o << ", wild_kinds=" << r.wild.kinds;
             if (r.wild.fifth_copy) o << ", wild_fifth_copy=True";
             if (r.wild_gen != WildGen::Fours) o << ", wild_gen=" << static_cast<int>(r.wild_gen);
             if (r.no_wild_bonus) o << ", no_wild_bonus=" << r.no_wild_bonus;
             if (r.four_wilds) o << ", four_wilds=" << r.four_wilds;
             o << ")";
             return o.str();
           })
      .def(py::pickle([](const ScoringRules& r) { return rules_state(r); },
                      [](const py::dict& d) { return rules_from_state(d); }));

  m.def(
      "evaluate",
      [](const py::handle& hand, int void_suit, const ScoringRules& rules, int win_tile, int flags,
         const py::handle& melds) {
        Hand storage;
        return fan_tuple(evaluate(hand_arg(hand, melds, storage), void_suit,
                                  win_context(win_tile, flags), rules));
      },
      py::arg("hand"), py::arg("void"), py::arg("rules"), py::arg("win_tile") = -1,
      py::arg("flags") = 0, py::arg("melds") = py::none(),
      "Fan (番) of a winning hand of 14 - 3k concealed tiles, the winning tile included:\n"
      "(fan, multiplier, base pattern code, base_fan, gen, extras mask). flags: SELF_DRAW | ...\n"
      "Under wild rules (ScoringRules wild_kinds ...) the best reading, or 四鸡; win_tile 27: a\n"
      "winning wild.\n"
      "Raises ValueError on a bad hand, a hand that is not a win, or contradicting flags.");
}

}  // namespace xueliu::bindings
