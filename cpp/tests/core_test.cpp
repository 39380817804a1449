// Plain C++ test of the core, without Python: a few rules by example, the errors, and invariants
// that tie is_win, waits, shanten, evaluate and best_discards together on random hands (melds and
// voids included). The Python tests check the public vectors; this one exists so that the core
// can run under sanitizers on its own. From the repository root, configure a separate build
// directory with the flags of a normal configure plus
//   -DXUELIU_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Debug
//   -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"
// (a normal configure: -Dpybind11_DIR=$(.venv/bin/python -m pybind11 --cmakedir)
//  -DPython_EXECUTABLE=.venv/bin/python -DSKBUILD_PROJECT_NAME=xueliu -DSKBUILD_PROJECT_VERSION=0.1.0),
// then build the core_test target and run it (or ctest).
//
// Exit status: the number of failed checks (0: all passed).
#include <algorithm>
#include <bitset>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis.hpp"
#include "bits.hpp"
#include "encode.hpp"
#include "fan.hpp"
#include "hand.hpp"
#include "notation.hpp"
#include "tables.hpp"
#include "tiles.hpp"

namespace {

using namespace xueliu;

int failures = 0;

void check(bool ok, const char* what, int line, const std::string& detail = "") {
  if (ok) return;
  ++failures;
  std::fprintf(stderr, "core_test.cpp:%d: FAILED %s %s\n", line, what, detail.c_str());
}
#define CHECK(cond) check((cond), #cond, __LINE__)
#define CHECK_HAND(cond, hand) check((cond), #cond, __LINE__, "for " + text_of(hand))

// The std::invalid_argument message of f(), or "" when it does not throw.
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}
#define CHECK_ERROR(expr, part)                                                     \
  do {                                                                              \
    const std::string message = error_of([&] { (void)(expr); });                    \
    check(message.find(part) != std::string::npos, #expr " names " part, __LINE__, \
          "got \"" + message + "\"");                                               \
  } while (0)

// docs/rules.md §1 notation: "11p345m(777s)(8888m)[9999p]"; (...) of 3 a peng, of 4 a kong, [...] a
// concealed kong. Trusts its input.
Hand hand_of(const std::string& text) {
  Hand hand;
  std::string digits;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch >= '1' && ch <= '9') {
      digits += ch;
    } else if (ch == 'm' || ch == 'p' || ch == 's') {
      const int suit = ch == 'm' ? 0 : ch == 'p' ? 1 : 2;
      for (char d : digits) ++hand.counts[kRanks * suit + (d - '1')];
      digits.clear();
    } else {
      const size_t close = text.find(ch == '(' ? ')' : ']', i);
      const std::string body = text.substr(i + 1, close - i - 1);
      const char suit_ch = body.back();
      const int suit = suit_ch == 'm' ? 0 : suit_ch == 'p' ? 1 : 2;
      Meld& meld = hand.melds[hand.n_melds++];
      meld.kind = static_cast<uint8_t>(kRanks * suit + (body[0] - '1'));
      meld.type = body.size() == 4 ? MeldType::Peng
                  : ch == '('      ? MeldType::Kong
                                   : MeldType::ConcealedKong;
      i = close;
    }
  }
  return hand;
}

std::string text_of(const Hand& hand) {
  std::string s;
  for (int k = 0; k < kKinds; ++k)
    for (int c = 0; c < hand.counts[k]; ++c) s += tile_name(k);
  for (int i = 0; i < hand.n_melds; ++i)
    s += " [" + std::to_string(static_cast<int>(hand.melds[i].type)) + " " +
         tile_name(hand.melds[i].kind) + "]";
  return s;
}

// A random legal hand of 13 - 3k + extra concealed tiles: 0..4 melds, tiles from one to three
// suits (three-suit hands are never wins, and must say so), never a fifth copy.
Hand random_hand(std::mt19937& rng, int extra) {
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  static const int kSuitCounts[] = {1, 2, 2, 2, 3};
  static const int kMeldCounts[] = {0, 0, 0, 1, 1, 2, 3, 4};
  int suits[3] = {0, 1, 2};
  std::shuffle(suits, suits + 3, rng);
  const int n_suits = kSuitCounts[pick(5)];
  auto random_kind = [&] { return kRanks * suits[pick(n_suits)] + pick(kRanks); };
  Hand hand;
  Counts held{};
  for (int tries = kMeldCounts[pick(8)]; tries > 0; --tries) {
    const int kind = random_kind();
    const auto type = static_cast<MeldType>(pick(3));
    const int size = type == MeldType::Peng ? 3 : 4;
    if (held[kind] + size > 4) continue;
    held[kind] = static_cast<uint8_t>(held[kind] + size);
    hand.melds[hand.n_melds++] = Meld{type, static_cast<uint8_t>(kind)};
  }
  for (int want = 13 - 3 * hand.n_melds + extra; want > 0;) {
    const int kind = random_kind();
    if (held[kind] == 4) continue;
    ++held[kind];
    ++hand.counts[kind];
    --want;
  }
  return hand;
}

// A random complete hand of one or two suits: 0..4 melds, pungs and chows, one pair; now and
// then seven pairs instead. Never a fifth copy.
Hand random_win(std::mt19937& rng) {
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  static const int kMeldCounts[] = {0, 0, 0, 1, 1, 2, 3, 4};
  while (true) {
    const int suit_a = pick(3), suit_b = pick(3);
    auto random_kind = [&](int ranks) { return kRanks * (pick(2) ? suit_a : suit_b) + pick(ranks); };
    Hand hand;
    if (pick(5) == 0) {
      for (int i = 0; i < 7; ++i) hand.counts[random_kind(kRanks)] += 2;
    } else {
      hand.n_melds = static_cast<uint8_t>(kMeldCounts[pick(8)]);
      for (int i = 0; i < hand.n_melds; ++i)
        hand.melds[i] = Meld{static_cast<MeldType>(pick(3)), static_cast<uint8_t>(random_kind(kRanks))};
      for (int i = hand.n_melds; i < kMaxMelds; ++i) {
        if (pick(2)) {
          hand.counts[random_kind(kRanks)] += 3;
        } else {
          const int first = random_kind(kRanks - 2);
          for (int r = 0; r < 3; ++r) ++hand.counts[first + r];
        }
      }
      hand.counts[random_kind(kRanks)] += 2;
    }
    const Counts held = hand.held();
    if (std::all_of(held.begin(), held.end(), [](uint8_t c) { return c <= 4; })) return hand;
  }
}

bool melds_allow_a_win(const Hand& hand, int void_suit) {
  return error_of([&] { check_win_reachable("test", hand, void_suit); }).empty();
}

// --- rules by example (docs/rules.md §5, §6) ----------------------------------------------------------

void test_wins_and_waits_by_example() {
  CHECK(is_win(hand_of("23445677p345789s"), kNoVoid, true));
  CHECK(!is_win(hand_of("123456789m11p235p"), kNoVoid, true));
  CHECK(is_win(hand_of("2244552299m1199p"), kNoVoid, true));    // seven pairs, a four among them
  CHECK(!is_win(hand_of("2244552299m1199p"), kNoVoid, false));  // ... not without the knob
  CHECK(!is_win(hand_of("23445677p345789s"), 1, true));         // 缺一门: the void suit is held
  CHECK(!is_win(hand_of("123m456p789s11m123m"), kNoVoid, true));  // three suits never win
  // 九莲宝灯 shape waits on all nine tiles of its suit.
  CHECK(waits(hand_of("1112345678999m"), kNoVoid, true) == 0x1FFu);
  // A kind already held four times (melds included) is no wait, even when it would complete.
  // 2223m waits on 1m, 3m and 4m, but the kong holds every 1m.
  CHECK(waits(hand_of("2223m(1111m)(555p)(666p)"), kNoVoid, true) == (1u << 2 | 1u << 3));
  CHECK(shanten(hand_of("2344567p345789s"), kNoVoid, true) == 0);
  CHECK(shanten(hand_of("23445677p345789s"), kNoVoid, true) == -1);
  // A peng leaves one copy of its kind: the lone 1m cannot become a pair.
  CHECK(shanten(hand_of("1m(111m)(222m)(333m)(444m)"), kNoVoid, true) == 1);
  CHECK(shanten(hand_of("1m(111p)(222m)(333m)(444m)"), kNoVoid, true) == 0);
}

// docs/rules.md §11.1: other hand sizes and fewer suits, through the shape codes (tiles.hpp).
void test_table_shapes_by_example() {
  const HandShape& ten = hand_shape(1 | 1 << 4);            // 10 tiles, three suits
  const HandShape& seven = hand_shape(1 | 2 << 4);          // 7 tiles, three suits
  const HandShape& two_suits = hand_shape(1 | 1 << 1);      // 13 tiles, no 万
  CHECK(is_win(hand_of("123456789m11p"), kNoVoid, ten));   // three sets and a pair
  CHECK(waits(hand_of("12345m11p234p"), kNoVoid, ten) == (1u << 2 | 1u << 5));
  CHECK(is_win(hand_of("11335577m"), kNoVoid, seven));     // four pairs
  CHECK(!is_win(hand_of("11335577m"), kNoVoid, hand_shape(2 << 4)));  // ... not with pairs off
  CHECK(shanten(hand_of("1133557m"), kNoVoid, seven) == 0);    // ready on 7m
  CHECK(shanten(hand_of("123p456p789p11s23s"), kNoVoid, two_suits) == 0);
  CHECK_ERROR(is_win(hand_of("123m456p789p11s234s"), kNoVoid, two_suits),
              "tile 1m is not in play (suits in play: p, s)");
  CHECK_ERROR(shanten(hand_of("1m(222m)(333m)(444m)"), kNoVoid, seven),
              "hand_size 7 allows at most 2 melds, got 3");
  CHECK_ERROR(hand_shape(14), "shape code 14");  // all three suits absent
}

void test_fan_by_example() {
  const ScoringRules rules;  // the xueliu preset's scoring
  auto fan_of = [&rules](const char* text) {
    return evaluate(hand_of(text), kNoVoid, WinContext{}, rules);
  };
  FanResult r = fan_of("23445677p345789s");
  CHECK(r.base == kPinghu && r.fan == 1 && r.multiplier == 1);
  r = fan_of("22m666p(333m)(444m)[5555p]");  // 对对胡 + one gen (the concealed kong)
  CHECK(r.base == kDuiduihu && r.gen == 1 && r.fan == 3 && r.multiplier == 4);
  r = fan_of("11122233344455p");  // 清对 beats 清一色 and 对对胡
  CHECK(r.base == kQingdui && r.fan == 4 && r.multiplier == 8);
  r = fan_of("2244552299m1199p");  // 龙七对: the four is part of the pattern, not a gen
  CHECK(r.base == kLongqidui && r.gen == 0 && r.fan == 5);

  WinContext self_drawn;
  self_drawn.self_draw = true;
  ScoringRules zimo = rules;
  zimo.zimo_fan = true;
  r = evaluate(hand_of("23445677p345789s"), kNoVoid, self_drawn, zimo);
  CHECK(r.fan == 2 && (r.extras >> kZimo & 1));
  ScoringRules capped = rules;
  capped.max_fan = 3;
  CHECK(evaluate(hand_of("2244552299m1199p"), kNoVoid, WinContext{}, capped).fan == 3);
}

// --- errors name the bad part -----------------------------------------------------------------

void test_errors_name_the_bad_part() {
  CHECK_ERROR(validate_hand(hand_of("55m123p456p(555m)")), "fifth copy of 5m");
  Hand five = hand_of("23445677p345789s");
  five.counts[13] = 5;
  CHECK_ERROR(validate_hand(five), "count of 5p is 5");
  Hand bad_meld = hand_of("23445677p345789s");
  bad_meld.melds[0] = Meld{MeldType::Peng, 27};
  bad_meld.n_melds = 1;
  CHECK_ERROR(validate_hand(bad_meld), "meld 0 has kind 27");
  CHECK_ERROR(validate_void(3), "void suit 3");
  CHECK_ERROR(tile_name(27), "tile kind 27");
  CHECK_ERROR(is_win(hand_of("1234567m111p(999m)"), kNoVoid, true),
              "is_win needs 14 - 3k = 11 concealed tiles (k = 1 melds), got 10");
  CHECK_ERROR(shanten(hand_of("2344567p34578s"), kNoVoid, true),
              "shanten needs 13 - 3k or 14 - 3k = 13 or 14 concealed tiles (k = 0 melds), got 12");
  CHECK_ERROR(shanten(hand_of("11223m(111p)(999s)[5555m]"), kNoVoid, true),
              "shanten: no complete hand exists: melds span three suits");
  CHECK_ERROR(best_discards(hand_of("1122334m5m(111p)(999p)"), nullptr, 1, ScoringRules{}),
              "best_discards: no complete hand exists: melds contain the void suit p");
  CHECK_ERROR(evaluate(hand_of("123456789m11p235p"), kNoVoid, WinContext{}, ScoringRules{}),
              "not a winning hand");
  CHECK_ERROR(evaluate(hand_of("23445677p345789s"), kNoVoid, win_context(-1, kKongReplacement),
                       ScoringRules{}),
              "kong_replacement");
  CHECK_ERROR(win_context(-1, 128), "unknown flag bits 128");
  const uint8_t counts9[9] = {}, caps9[9] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
  CHECK_ERROR(suit_costs_dp(counts9, caps9, 5), "max_sets 5");
  Counts visible{};
  visible[4] = 4;
  CHECK_ERROR(best_discards(hand_of("12334577m23345p1p"), &visible, kNoVoid, ScoringRules{}),
              "visible shows 4 of 5m but the hand holds 1");
}

// --- invariants on random hands ---------------------------------------------------------------

// waits(h) is exactly the kinds t (no fifth copy) with is_win(h + t); shanten 0 means some wait.
void test_waits_are_the_tiles_that_win(std::mt19937& rng, int n) {
  for (int i = 0; i < n; ++i) {
    const Hand hand = random_hand(rng, 0);
    const int void_suit = static_cast<int>(rng() % 4) - 1;
    for (bool seven_pairs : {true, false}) {
      const uint32_t mask = waits(hand, void_suit, seven_pairs);
      const Counts held = hand.held();
      uint32_t want = 0;
      for (int t = 0; t < kKinds; ++t) {
        if (held[t] == 4) continue;
        Hand won = hand;
        ++won.counts[t];
        if (is_win(won, void_suit, seven_pairs)) want |= 1u << t;
      }
      CHECK_HAND(mask == want, hand);
      if (melds_allow_a_win(hand, void_suit))
        CHECK_HAND((shanten(hand, void_suit, seven_pairs) == 0) == (mask != 0), hand);
    }
  }
}

// One tile over (random hands, every other one complete): a win is shanten -1 and evaluates to
// its base fan plus gens plus extras; otherwise shanten is that of the best discard; and
// best_discards agrees with the single calls option by option.
void test_one_tile_over(std::mt19937& rng, int n) {
  const ScoringRules rules;
  for (int i = 0; i < n; ++i) {
    const Hand hand = i % 2 ? random_win(rng) : random_hand(rng, 1);
    const int void_suit = static_cast<int>(rng() % 4) - 1;
    const bool win = is_win(hand, void_suit, true);
    const std::string fan_error =
        error_of([&] { evaluate(hand, void_suit, WinContext{}, rules); });
    CHECK_HAND(win == fan_error.empty(), hand);
    if (win && fan_error.empty()) {
      const FanResult r = evaluate(hand, void_suit, WinContext{}, rules);
      CHECK_HAND(r.base_fan == rules.fan_table[r.base], hand);
      CHECK_HAND(r.fan == r.base_fan + r.gen + static_cast<int>(std::bitset<16>(r.extras).count()),
                 hand);
      CHECK_HAND(r.multiplier == int64_t(1) << (r.fan - 1), hand);
    }
    if (!melds_allow_a_win(hand, void_suit)) {
      CHECK_HAND(!win, hand);
      continue;
    }
    const int sh = shanten(hand, void_suit, true);
    CHECK_HAND(win == (sh == -1), hand);
    const auto options = best_discards(hand, nullptr, void_suit, rules);
    CHECK_HAND(!options.empty() && options.front().shanten == std::max(sh, 0), hand);
    const Counts own = hand.held();
    for (const DiscardOption& option : options) {
      Hand rest = hand;
      --rest.counts[option.discard];
      CHECK_HAND(option.shanten == shanten(rest, void_suit, true), hand);
      CHECK_HAND(option.shanten >= sh, hand);
      const uint32_t mask = option.shanten == 0 ? waits(rest, void_suit, true) : 0;
      uint32_t listed = 0;
      int total = 0;
      for (const WaitOption& w : option.waits) {
        listed |= 1u << w.kind;
        CHECK_HAND(w.remaining == 4 - own[w.kind], hand);
        total += w.remaining;
      }
      CHECK_HAND(listed == mask && option.total_remaining == total, hand);
      // 进张: the core's scan of the rest, with the same remaining counts; the waits when ready.
      uint32_t jz = 0;
      int jz_total = 0;
      for (int j = 0; j < option.n_jinzhang; ++j) {
        jz |= 1u << option.jinzhang[j].kind;
        CHECK_HAND(option.jinzhang[j].remaining == 4 - own[option.jinzhang[j].kind], hand);
        jz_total += option.jinzhang[j].remaining;
      }
      CHECK_HAND(jz == jinzhang(rest, void_suit, true) && jz_total == option.jinzhang_total, hand);
      if (option.shanten == 0) CHECK_HAND(jz == mask, hand);
    }
    // docs/rules.md §4: void tiles held means only they are options; the order is the documented one.
    bool holds_void = false;
    for (int k = 0; void_suit >= 0 && k < kKinds; ++k)
      holds_void = holds_void || (hand.counts[k] && suit_of(k) == void_suit);
    for (size_t j = 0; j < options.size(); ++j) {
      if (holds_void) CHECK_HAND(suit_of(options[j].discard) == void_suit, hand);
      if (j) {
        const DiscardOption &a = options[j - 1], &b = options[j];
        CHECK_HAND(a.shanten < b.shanten ||
                       (a.shanten == b.shanten && a.jinzhang_total >= b.jinzhang_total),
                   hand);
      }
    }
  }
}

// 进张 of a 13 - 3k hand is exactly the kinds t (held fewer than four times) whose draw gives a
// lower shanten, asked one by one.
void test_jinzhang_are_the_draws_that_lower_shanten(std::mt19937& rng, int n) {
  for (int i = 0; i < n; ++i) {
    const Hand hand = random_hand(rng, 0);
    const int void_suit = static_cast<int>(rng() % 4) - 1;
    if (!melds_allow_a_win(hand, void_suit)) {
      CHECK_ERROR(jinzhang(hand, void_suit, true), "jinzhang: no complete hand exists");
      continue;
    }
    for (bool seven_pairs : {true, false}) {
      const int sh = shanten(hand, void_suit, seven_pairs);
      const Counts held = hand.held();
      uint32_t want = 0;
      for (int t = 0; t < kKinds; ++t) {
        if (held[t] >= 4) continue;
        Hand more = hand;
        ++more.counts[t];
        if (shanten(more, void_suit, seven_pairs) < sh) want |= 1u << t;
      }
      CHECK_HAND(jinzhang(hand, void_suit, seven_pairs) == want, hand);
      if (sh == 0) CHECK_HAND(want == waits(hand, void_suit, seven_pairs), hand);
    }
  }
}

// Notation (docs/rules.md §1): the parser reads what core_test's own hand_of builds, the Chinese suits and
// whitespace, and names every problem.
void test_notation() {
  for (const char* text : {"11p345m(777s)(8888m)[9999p]", "23445677p345789s", "1m(222p)"}) {
    const Hand a = parse_notation(text), b = hand_of(text);
    CHECK(a.counts == b.counts && a.n_melds == b.n_melds);
    for (int i = 0; i < a.n_melds; ++i)
      CHECK(a.melds[i].kind == b.melds[i].kind && a.melds[i].type == b.melds[i].type);
  }
  CHECK(parse_notation("1 1 万 345 條 (777 筒)").counts == parse_notation("11m345s(777p)").counts);
  CHECK(tile_kind_of_name("5m") == 4 && tile_kind_of_name(" 5 筒") == 13 && tile_kind_of_name("9索") == 26);
  CHECK(tile_kind_of_name("0m") == -1 && tile_kind_of_name("5x") == -1 && tile_kind_of_name("55m") == -1);
  CHECK(suit_of_name("条") == 2 && suit_of_name("mm") == -1);
  CHECK_ERROR(parse_notation("11111m"), "fifth copy of 1m in '11111m'");
  CHECK_ERROR(parse_notation("123x"), "unknown suit 'x' in '123x'");
  CHECK_ERROR(parse_notation("(789s)"), "meld '(789s)' is not a peng or kong (no chow melds)");
  CHECK_ERROR(parse_notation("[777s]"), "concealed kong '[777s]' needs 4 tiles, has 3");
  CHECK_ERROR(parse_notation("(777s)1m"), "digit after a meld");
  CHECK_ERROR(parse_notation("12"), "digits '12' with no suit");
  CHECK_ERROR(parse_notation("(111m)(222m)(333m)(444m)(555m)"), "more than 4 melds");
  CHECK_ERROR(parse_notation("1m\xff"), "unexpected character");  // invalid UTF-8 is a character too
}

// Threads that start at the same moment share the lazily built tables (the per-suit tables and
// the fan signatures): the first use builds each once, and every thread gets the single-threaded
// answers.
void test_threads_share_the_tables(int n_threads, int n) {
  std::mt19937 rng(11);
  std::vector<std::pair<Hand, Hand>> hands;  // (13 tiles, a complete 14)
  for (int i = 0; i < n; ++i) hands.emplace_back(random_hand(rng, 0), random_win(rng));
  using Answers = std::vector<std::tuple<uint32_t, int, int>>;  // waits, shanten, fan per pair
  auto answer = [&hands](Answers& out) {
    const ScoringRules rules;
    for (const auto& [h13, win] : hands)
      out.emplace_back(waits_unchecked(h13, kNoVoid, true), shanten_unchecked(h13, kNoVoid, true),
                       evaluate_unchecked(win, WinContext{}, rules).fan);
  };
  std::vector<Answers> got(static_cast<size_t>(n_threads));
  std::vector<std::thread> pool;
  for (auto& out : got) pool.emplace_back(answer, std::ref(out));
  for (auto& thread : pool) thread.join();
  Answers want;
  answer(want);
  for (const auto& answers : got) CHECK(answers == want);
}

void test_every_table_key_equals_the_exact_dp() { CHECK(SuitTables::get().self_check() == 0); }

// obs_v1 of a small view, channel by channel by name: seats turn to the viewer's order, another
// seat's concealed kong is counted but not shown, and the copies on view add up.
void test_obs_v1_by_example() {
  ObsView v;
  v.seat = 1;
  v.dealer = 0;
  v.turn = 2;
  v.phase = 3;  // turn
  v.hand[4] = 2;
  v.add_discard(1, 4);
  v.add_discard(2, 9);
  v.add_discard(2, 9);
  v.add_meld(3, 0, 20);   // seat 3 (across) pengs 3s
  v.add_meld(0, 2, -1);   // seat 0 (the viewer's prev) concealed kong, kind unseen
  v.add_meld(1, 2, 7);    // its own concealed kong of 8m
  v.add_win(2, 9);
  v.voids[1] = 2;
  v.wall_remaining = 30;
  for (int q = 0; q < 4; ++q) v.hand_size[q] = 13;
  std::vector<float> out(kObsV1Channels * kKinds, 7.0f);
  encode_obs_v1(v, out.data());
  auto channel = [&](const char* name) {
    for (int c = 0; c < kObsV1Channels; ++c)
      if (std::string(kObsV1Names[c]) == name) return &out[static_cast<size_t>(c * kKinds)];
    std::fprintf(stderr, "no channel %s\n", name);
    std::abort();
  };
  auto ones = [&](const char* name) {
    int n = 0;
    for (int k = 0; k < kKinds; ++k) n += channel(name)[k] == 1.0f;
    return n;
  };
  for (float x : out) CHECK(x == 0.0f || x == 1.0f);  // every value written
  CHECK(channel("hand_2")[4] == 1.0f && ones("hand_2") == 1 && ones("hand_3") == 0);
  CHECK(channel("discards_self")[4] == 1.0f && channel("last_discard_self")[4] == 1.0f);
  CHECK(channel("discards_next_2")[9] == 1.0f && channel("won_tiles_next")[9] == 1.0f);
  CHECK(channel("pengs_across")[20] == 1.0f && ones("pengs_across") == 1);
  CHECK(channel("concealed_kongs_self")[7] == 1.0f);
  CHECK(ones("hidden_kongs_prev") == 1 && ones("hidden_kongs_next") == 0);  // seat 0 is prev
  CHECK(channel("visible_4")[7] == 1.0f && channel("visible_3")[20] == 1.0f &&
        channel("visible_2")[9] == 1.0f && channel("visible_1")[4] == 1.0f);
  CHECK(ones("void_self") == 9 && channel("void_self")[18] == 1.0f && ones("void_next") == 0);
  CHECK(ones("phase_turn") == 27 && ones("phase_claim") == 0);
  CHECK(ones("dealer_prev") == 27 && ones("turn_next") == 27 && ones("turn_self") == 0);
  CHECK(ones("wins_next") == 1 && ones("hand_size_self") == 13);
  CHECK(ones("wall_0_27") == 27 && ones("wall_28_54") == 3);
}

}  // namespace

int main() {
  test_threads_share_the_tables(4, 2000);  // first: the tables are built under contention
  test_wins_and_waits_by_example();
  test_table_shapes_by_example();
  test_fan_by_example();
  test_errors_name_the_bad_part();
  std::mt19937 rng(2024);
  test_waits_are_the_tiles_that_win(rng, 3000);
  test_one_tile_over(rng, 3000);
  test_jinzhang_are_the_draws_that_lower_shanten(rng, 3000);
  test_notation();
  test_every_table_key_equals_the_exact_dp();
  test_obs_v1_by_example();
  if (failures) std::fprintf(stderr, "%d check(s) failed\n", failures);
  else std::printf("core_test: all checks passed\n");
  return failures;
}
