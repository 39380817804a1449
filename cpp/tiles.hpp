// Tiles, counts and hands: the vocabulary of the xueliu core.
//
// Glossary of the native terms used across the core (docs/rules.md §1, §5, §6):
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
//   两房 / 一房  a wall of two suits / one suit (docs/rules.md §11.1): the suits in play
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

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
  uint8_t kind = 0;   // the kind of its natural tiles (a soft meld's too)
  uint8_t wilds = 0;  // wild tiles inside a soft meld (软碰 / 软杠, docs/rules.md §12.3); 0 otherwise
  int size() const { return type == MeldType::Peng ? 3 : 4; }
  int naturals() const { return size() - wilds; }
  bool is_kong() const { return type != MeldType::Peng; }
};

// A seat's hand: concealed natural tile counts, concealed wilds and melds. A plain value with no
// hidden state: a const Hand may be read by any number of threads at once (the batch calls rely
// on that). Wilds (docs/rules.md §12) are a count, whatever their physical kinds: a wild stands
// for any kind in a reading, so which tiles they are never matters to a hand question; the kinds'
// columns of `counts` stay 0 (WildRules below says which kinds are wild).
struct Hand {
  Counts counts{};
  std::array<Meld, kMaxMelds> melds{};
  uint8_t n_melds = 0;
  uint8_t wilds = 0;

  // Concealed tiles, wilds included.
  int concealed() const {
    int n = wilds;
    for (uint8_t c : counts) n += c;
    return n;
  }
  // Uses of each kind outside the concealed wilds: concealed naturals plus every tile of a meld of
  // that kind (a soft meld at its full size, its wilds read as the kind): the 4-copy limit of a
  // reading (docs/rules.md §12.2).
  Counts held() const {
    Counts h = counts;
    for (int i = 0; i < n_melds; ++i) h[melds[i].kind] += static_cast<uint8_t>(melds[i].size());
    return h;
  }
  // Physical natural copies of each kind: concealed plus the natural tiles of melds.
  Counts naturals() const {
    Counts h = counts;
    for (int i = 0; i < n_melds; ++i) h[melds[i].kind] += static_cast<uint8_t>(melds[i].naturals());
    return h;
  }
};

// Which tiles are wild (docs/rules.md §12.1), as data: bit k of `kinds` for every kind k all of
// whose copies are wild, bit kWildBit when red dragons (红中) are added. `fifth_copy`: a reading
// may use a kind more than four times (wild_fifth_copy). The default is a table without wilds.
constexpr int kWildBit = 27;  // also "the wild" in a kind mask of waits or 进张
struct WildRules {
  uint32_t kinds = 0;
  bool fifth_copy = false;
  bool any() const { return kinds != 0; }
  uint32_t natural_kinds() const { return ((1u << 27) - 1) & ~kinds; }
};

// The table shape the hand calls read (docs/rules.md §11.1): the hand size, the sets a complete hand
// needs, the pairs of the pairs family and the suits in play. It is data, passed to every call,
// so that the default shape's hot paths gain no branch per hand: the sets are a loop bound, the
// absent suits a mask over cost words and waits.
struct HandShape {
  int tiles = 13;             // hand_size: a ready hand holds tiles - 3k concealed tiles
  int sets = kMaxMelds;       // (tiles - 1) / 3 sets and a pair make a complete hand
  int pairs = 7;              // pairs of the pairs family (七对 7, 四对 4); 0: no pairs family
  uint8_t absent = 0;         // bit s: suit s is not in play
  uint32_t kinds = (1u << kKinds) - 1;  // bit k: kind k is in play
  int code = 1;               // its shape code (hand_shape below)
};

// Every shape code's HandShape, computed at compile time (no guard, no call on the hot paths).
constexpr int kShapeCodes = 1 << 6;
struct ShapeTable {
  HandShape shapes[kShapeCodes] = {};
  bool valid[kShapeCodes] = {};
  constexpr ShapeTable() {
    constexpr int kHandSizes[3] = {13, 10, 7};
    for (int code = 0; code < kShapeCodes; ++code) {
      const int size_index = code >> 4, absent = (code >> 1) & 7;
      if (size_index > 2 || absent == 7) continue;  // no fourth size; at least one suit
      HandShape s;
      s.tiles = kHandSizes[size_index];
      s.sets = (s.tiles - 1) / 3;
      // The pairs family needs an even complete hand: 14 or 8 tiles, never 11 (docs/rules.md §11.1).
      s.pairs = (code & 1) && (s.tiles + 1) % 2 == 0 ? (s.tiles + 1) / 2 : 0;
      s.absent = static_cast<uint8_t>(absent);
      s.kinds = 0;
      for (int suit = 0; suit < kSuits; ++suit)
        if (!(absent >> suit & 1)) s.kinds |= 0x1FFu << (kRanks * suit);
      s.code = code;
      shapes[code] = s;
      valid[code] = true;
    }
  }
};
inline constexpr ShapeTable kShapeTable{};

[[noreturn]] void throw_bad_shape_code(int code);

// The shape of a shape code (the int the bindings carry; python/xueliu/rules/shape.py builds it):
// bit 0 the seven_pairs knob, bits 1..3 the suits not in play (bit 1 + s: suit s), bits 4..5 the
// hand size (0: 13, 1: 10, 2: 7). So 1 and 0 (True / False) are the default table with and
// without the pairs family. Throws std::invalid_argument for any other code.
inline const HandShape& hand_shape(int code) {
  if (static_cast<unsigned>(code) >= static_cast<unsigned>(kShapeCodes) || !kShapeTable.valid[code])
    throw_bad_shape_code(code);
  return kShapeTable.shapes[code];
}
inline const HandShape& hand_shape(bool seven_pairs) { return kShapeTable.shapes[seven_pairs ? 1 : 0]; }

// The default table's two shape codes as compile-time constants, so that a hot loop pays nothing
// for the shapes it is not playing: with_shape_code(shape, f) calls f(std::integral_constant<int,
// code>) for codes 1 and 0 and f(std::integral_constant<int, kAnyShape>) for every other shape,
// once, at the call; inside, fixed_shape<code>(shape) is the shape — for 1 and 0 a constant, whose
// fields fold into the instantiation (sets a literal bound, no absent-suit masks, no loads).
constexpr int kAnyShape = -1;
template <int kCode>
inline const HandShape& fixed_shape(const HandShape& shape) {
  if constexpr (kCode == kAnyShape) {
    return shape;
  } else {
    return kShapeTable.shapes[kCode];
  }
}
template <typename F>
inline decltype(auto) with_shape_code(const HandShape& shape, F&& f) {
  switch (shape.code) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 0: return f(std::integral_constant<int, 0>{});
    default: return f(std::integral_constant<int, kAnyShape>{});
  }
}

// Throws std::invalid_argument naming the first tile (concealed or in a meld) of a suit not in
// play, when the hand has more melds than the shape's sets, and for a void with fewer than three
// suits in play (there is no 定缺 then, docs/rules.md §11.1). Nothing to do for the default table: the
// inline test below is all the default table pays.
void check_shape_slow(const Hand& hand, int void_suit, const HandShape& shape);
inline void check_shape(const Hand& hand, int void_suit, const HandShape& shape) {
  if (hand.n_melds > shape.sets || shape.absent) check_shape_slow(hand, void_suit, shape);
}

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
