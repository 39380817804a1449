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

}  // namespace xueliu
