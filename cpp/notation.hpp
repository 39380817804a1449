// Text notation of tiles and hands (docs/rules.md §1), read natively so that a caller holding text or
// tile names pays for no interpreted validation loop.
//
//   tile names   a rank 1-9 then a suit: "5m", "5万"; whitespace anywhere is ignored (" 5 m")
//   hands        digits then a suit, melds after the concealed tiles:
//                "11p345m(777s)(8888m)[9999p]" — (777s) a peng, (8888m) an exposed kong,
//                [9999p] a concealed kong
//   suits        m 万 萬 (characters), p 筒 饼 餅 铜 銅 (dots), s 条 條 索 (bamboo)
//   whitespace   what Python's str.split() drops (ASCII blanks, U+0085, U+00A0, U+1680,
//                U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), so both languages agree
//
// Text is UTF-8. Error messages quote pieces of the input through a `Quote` function, so that a
// caller can quote them as its users expect (the Python bindings pass repr()); messages name the
// problem the way python/xueliu/tiles.py always has, e.g. "fifth copy of 1m in '11111m'".
//
// Thread safety: pure functions of their arguments.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "tiles.hpp"

namespace xueliu {

// Renders a piece of the input text (UTF-8) inside an error message.
using Quote = std::string (*)(std::string_view);

// 'text' in single quotes: the default Quote.
std::string quote_plain(std::string_view text);

// Kind of a tile name ("5m", "5筒", " 5 m"), or -1 when `name` is not a tile name.
int tile_kind_of_name(std::string_view name);

// Suit index of one suit spelling ("m", "万", ...), or -1.
int suit_of_name(std::string_view suit);

// Parses docs/rules.md §1 notation into a hand. The tile count is not checked (each call checks its
// own). Throws std::invalid_argument naming the problem: an unknown suit or character, a rank 0,
// digits without a suit, a malformed or chow meld, more than four melds, a fifth copy of a kind
// (melds included).
Hand parse_notation(std::string_view text, Quote quote = quote_plain);

// --- wild tiles (docs/rules.md §12.5) ---------------------------------------------------------
//
//   红中         "7z", "中" or "红中": kind 27, the only z tile, always a wild
//   soft melds   natural tiles first, then the wilds, each group digits + suit (or 中 / 红中):
//                "(55m1s)" a peng of 5万 with one 幺鸡, "[555m7z]" a concealed kong with one 红中
//
// A physical hand keeps every tile at its own kind (which of them are wild is the rules' business,
// and a record or a table needs the tiles themselves); physical_to_hand makes the Hand of a rule set.

constexpr int kHongzhong = 27;       // 红中's kind
constexpr int kPhysicalKinds = 28;   // the 27 suit kinds and 红中
constexpr int kMaxHongzhong = 12;    // extra_wilds at most

struct PhysicalMeld {
  MeldType type = MeldType::Peng;
  uint8_t kind = 0;          // the natural kind
  uint8_t n_wilds = 0;       // the wild tiles that follow it, by kind (0..27), ascending
  uint8_t wild_tiles[3] = {};
};

struct PhysicalHand {
  std::array<uint8_t, kPhysicalKinds> counts{};
  std::array<PhysicalMeld, kMaxMelds> melds{};
  uint8_t n_melds = 0;
};

// Parses §1 notation with §12's additions into a physical hand; throws std::invalid_argument naming
// the problem: besides parse_notation's, a z tile other than 7z, a meld whose first group is a
// wild or 红中, two natural kinds in a meld, a wild group of the meld's own kind, a meld of the
// wrong size, more than four physical copies of a kind (meld tiles included), more than 12 红中.
PhysicalHand parse_physical(std::string_view text, Quote quote = quote_plain);

// The canonical text of a physical hand: 万 筒 条 ascending, then 7z, then the melds in order,
// each as its natural tiles then its wilds ("123m77z(55m1s)[5p11s7z]").
std::string format_physical(const PhysicalHand& hand);

// The Hand a physical hand is under a wild set: every tile of a wild kind (and every 红中) a
// wild, counted in hand.wilds, or in its meld's wilds. Throws std::invalid_argument for a 红中
// or a soft meld's wild that the rules do not make wild, and for a meld of a wild kind.
Hand physical_to_hand(const PhysicalHand& hand, const WildRules& wild);

}  // namespace xueliu
