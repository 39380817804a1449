// Tiles, counts and hands: the vocabulary of the xueliu core.
//
// Glossary of the native terms used across the core (RULES.md §1, §5, §6):
//   万 m (characters), 筒 p (dots), 条 s (bamboo)   the three suits, kinds 0..8, 9..17, 18..26
//   刻子 pung   three of a kind inside the concealed tiles
//   顺子 chow   three consecutive ranks of one suit (never claimed: there is no 吃 in Sichuan)
//   将 / 对子 pair
//   碰 peng     an exposed pung made by claiming a discard
//   杠 kong     four of a kind: 直杠/点杠 direct, 补杠/面下杠 added (both exposed), 暗杠 concealed
//   根 gen      a kind of which the winner holds all four
//   缺一门      a winning hand spans at most two suits; 定缺 declares the suit to shed (the void)
//   听 / 下叫    ready; the tiles that complete the hand are its waits
//   向听 shanten tiles away from ready (-1 complete, 0 ready)
//   番 fan      the score of a win; payments use 2 ** (fan - 1)
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace xueliu {

constexpr int kKinds = 27;
constexpr int kSuits = 3;
constexpr int kRanks = 9;
constexpr int kMaxMelds = 4;
constexpr int kNoVoid = -1;

using Counts = std::array<uint8_t, kKinds>;

inline constexpr int suit_of(int kind) { return kind / kRanks; }
inline constexpr int rank_of(int kind) { return kind % kRanks; }  // 0-based rank

// Meld codes match the batch encoding: 27 * type + kind.
enum class MeldType : uint8_t { Peng = 0, Kong = 1, ConcealedKong = 2 };

struct Meld {
  MeldType type = MeldType::Peng;
  uint8_t kind = 0;
  int size() const { return type == MeldType::Peng ? 3 : 4; }
  bool is_kong() const { return type != MeldType::Peng; }
};

// A seat's hand: concealed tile counts plus its melds. A plain value with no hidden state: a const
// Hand may be read by any number of threads at once (the batch calls rely on that).
struct Hand {
  Counts counts{};
  std::array<Meld, kMaxMelds> melds{};
  uint8_t n_melds = 0;

  int concealed() const {
    int n = 0;
    for (uint8_t c : counts) n += c;
    return n;
  }
  // Copies of each kind held anywhere (concealed + melds).
  Counts held() const {
    Counts h = counts;
    for (int i = 0; i < n_melds; ++i) h[melds[i].kind] += static_cast<uint8_t>(melds[i].size());
    return h;
  }
};

// "5m", "9s": the name of a kind. Throws std::invalid_argument outside 0..26.
std::string tile_name(int kind);

// Checks every kind 0..26, meld kinds and types, at most four melds and no fifth copy of a kind
// (melds included). Throws std::invalid_argument naming the bad part. Tile counts for a particular
// call (14 - 3k for a win ...) are checked by that call.
void validate_hand(const Hand& hand);

// Checks void is kNoVoid or 0..2; throws std::invalid_argument otherwise.
void validate_void(int void_suit);

// Throws std::invalid_argument for a hand that fails check_tile_count; out of line, so the check
// itself stays small enough to inline into every single call.
[[noreturn]] void throw_tile_count(const char* call, const Hand& hand, int base, bool or_one_more);

// Checks that `hand` holds base - 3k concealed tiles (k melds), or with `or_one_more` either that
// or one more; throws std::invalid_argument naming `call` and both counts, e.g.
// "waits needs 13 - 3k = 10 concealed tiles (k = 1 melds), got 11".
inline void check_tile_count(const char* call, const Hand& hand, int base,
                             bool or_one_more = false) {
  const int want = base - 3 * hand.n_melds, got = hand.concealed();
  if (got != want && !(or_one_more && got == want + 1))
    throw_tile_count(call, hand, base, or_one_more);
}

}  // namespace xueliu
