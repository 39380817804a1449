// Tile names and hand notation (docs/rules.md §1). The messages match python/xueliu/tiles.py's, which
// tests and users already know.
#include "notation.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace xueliu {
namespace {

// One code point of the input and the bytes it came from, so that messages can quote the input.
struct Char {
  char32_t code;
  size_t begin, end;  // byte offsets into the text
};

bool is_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

int suit_of_code(char32_t c) {
  switch (c) {
    case U'm': case U'万': case U'萬':
      return 0;
    case U'p': case U'筒': case U'饼': case U'餅': case U'铜': case U'銅':
      return 1;
    case U's': case U'条': case U'條': case U'索':
      return 2;
    default:
      return -1;
  }
}

bool is_digit(char32_t c) { return c >= U'0' && c <= U'9'; }

// Decodes UTF-8 leniently (a byte that does not start a valid sequence becomes U+FFFD on its
// own), dropping whitespace.
std::vector<Char> decode(std::string_view text) {
  std::vector<Char> out;
  out.reserve(text.size());
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    char32_t c = 0xFFFD;
    size_t len = 1;
    auto cont = [&](size_t k) {
      return i + k < n && (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    };
    auto byte = [&](size_t k) { return static_cast<unsigned char>(text[i + k]) & 0x3Fu; };
    if (b0 < 0x80) {
      c = b0;
    } else if (b0 >= 0xC2 && b0 < 0xE0 && cont(1)) {
      c = (b0 & 0x1Fu) << 6 | byte(1), len = 2;
    } else if (b0 >= 0xE0 && b0 < 0xF0 && cont(1) && cont(2)) {
      c = (b0 & 0x0Fu) << 12 | byte(1) << 6 | byte(2), len = 3;
    } else if (b0 >= 0xF0 && b0 < 0xF5 && cont(1) && cont(2) && cont(3)) {
      c = (b0 & 0x07u) << 18 | byte(1) << 12 | byte(2) << 6 | byte(3), len = 4;
    }
    if (!is_space(c)) out.push_back({c, i, i + len});
    i += len;
  }
  return out;
}

// The parser state: the text, its characters without whitespace, and how to quote them.
class Parser {
 public:
  Parser(std::string_view text, Quote quote) : text_(text), s_(decode(text)), quote_(quote) {}

  Hand parse() {
    int counts[kKinds] = {};
    std::vector<int> pending;  // ranks waiting for their suit
    size_t i = 0;
    const size_t n = s_.size();
    while (i < n) {
      const char32_t c = s_[i].code;
      if (is_digit(c)) {
        if (hand_.n_melds)
          fail("digit after a meld in " + whole() + " (melds come after the concealed tiles)");
        pending.push_back(static_cast<int>(c - U'0'));
        ++i;
      } else if (suit_of_code(c) >= 0) {
        if (pending.empty()) fail("suit " + piece(i, i + 1) + " with no digits before it in " + whole());
        const int base = kRanks * suit_of_code(c);
        for (int r : pending) {
          if (r == 0) fail("rank 0 in " + whole());
          ++counts[base + r - 1];
        }
        pending.clear();
        ++i;
      } else if (c == U'(' || c == U'[') {
        if (!pending.empty()) fail("digits " + digits(pending) + " with no suit in " + whole());
        i = parse_meld(i);
      } else if (c == U')' || c == U']') {
        fail("unmatched " + piece(i, i + 1) + " in " + whole());
      } else if (!pending.empty()) {
        fail("unknown suit " + piece(i, i + 1) + " in " + whole());
      } else {
        fail("unexpected character " + piece(i, i + 1) + " in " + whole());
      }
    }
    if (!pending.empty()) fail("digits " + digits(pending) + " with no suit in " + whole());
    int held[kKinds];
    for (int k = 0; k < kKinds; ++k) held[k] = counts[k];
    for (int m = 0; m < hand_.n_melds; ++m) held[hand_.melds[m].kind] += hand_.melds[m].size();
    for (int k = 0; k < kKinds; ++k)
      if (held[k] > 4) fail("fifth copy of " + tile_name(k) + " in " + whole());
    for (int k = 0; k < kKinds; ++k) hand_.counts[k] = static_cast<uint8_t>(counts[k]);
    return hand_;
  }

 private:
  std::string_view text_;
  std::vector<Char> s_;
  Quote quote_;
  Hand hand_;

  [[noreturn]] static void fail(const std::string& message) {
    throw std::invalid_argument(message);
  }
  std::string whole() const { return quote_(text_); }
  // The characters s_[a, b) as they were written (whitespace between them dropped).
  std::string piece(size_t a, size_t b) const {
    std::string out;
    for (size_t k = a; k < b; ++k) out.append(text_.substr(s_[k].begin, s_[k].end - s_[k].begin));
    return quote_(out);
  }
  std::string digits(const std::vector<int>& ranks) const {
    std::string out;
    for (int r : ranks) out += static_cast<char>('0' + r);
    return quote_(out);
  }

  // Parses the meld opening at s_[i], adds it, returns the index after it.
  size_t parse_meld(size_t i) {
    const size_t n = s_.size();
    const char32_t opening = s_[i].code;
    const char32_t closing = opening == U'(' ? U')' : U']';
    auto bracket = [](char32_t c) { return c == U'(' || c == U')' || c == U'[' || c == U']'; };
    size_t j = i + 1;
    while (j < n && !bracket(s_[j].code)) ++j;
    if (j == n || s_[j].code == U'(' || s_[j].code == U'[')
      fail("unclosed bracket " + piece(i, i + 1) + " in " + whole());
    const std::string shown = piece(i, j + 1);
    if (s_[j].code != closing)
      fail("meld " + shown + " opens with " + piece(i, i + 1) + " but closes with " +
           piece(j, j + 1) + " in " + whole());
    if (j == i + 1) fail("empty meld " + shown + " in " + whole());
    const char32_t suit_code = s_[j - 1].code;
    const int suit = suit_of_code(suit_code);
    if (suit < 0) {
      if (is_digit(suit_code)) fail("meld " + shown + " has no suit in " + whole());
      fail("unknown suit " + piece(j - 1, j) + " in meld " + shown + " in " + whole());
    }
    const size_t first = i + 1, last = j - 1;  // the digits are s_[first, last)
    bool all_digits = first < last;
    for (size_t k = first; k < last; ++k) all_digits = all_digits && is_digit(s_[k].code);
    if (!all_digits) fail("meld " + shown + " must be digits and one suit in " + whole());
    for (size_t k = first; k < last; ++k)
      if (s_[k].code == U'0') fail("rank 0 in meld " + shown + " in " + whole());
    for (size_t k = first; k < last; ++k)
      if (s_[k].code != s_[first].code)
        fail("meld " + shown + " is not a peng or kong (no chow melds) in " + whole());
    const size_t size = last - first;
    MeldType type;
    if (opening == U'[') {
      if (size != 4)
        fail("concealed kong " + shown + " needs 4 tiles, has " + std::to_string(size) + " in " +
             whole());
      type = MeldType::ConcealedKong;
    } else if (size == 3) {
      type = MeldType::Peng;
    } else if (size == 4) {
      type = MeldType::Kong;
    } else {
      fail("meld " + shown + " has " + std::to_string(size) + (size > 1 ? " tiles" : " tile") +
           " (a peng has 3, a kong 4) in " + whole());
    }
    if (hand_.n_melds == kMaxMelds) fail("more than 4 melds in " + whole());
    Meld& meld = hand_.melds[hand_.n_melds++];
    meld.type = type;
    meld.kind = static_cast<uint8_t>(kRanks * suit + static_cast<int>(s_[first].code - U'1'));
    return j + 1;
  }
};

// The §12 parser: the same characters, read as groups of tiles (digits and a suit, "7z", 中 or
// 红中), with melds made of a natural group and wild groups.
class PhysicalParser {
 public:
  PhysicalParser(std::string_view text, Quote quote) : text_(text), s_(decode(text)), quote_(quote) {}

  PhysicalHand parse() {
    size_t i = 0;
    while (i < s_.size()) {
      const char32_t c = s_[i].code;
      if (c == U'(' || c == U'[') {
        i = parse_meld(i);
      } else if (c == U')' || c == U']') {
        fail("unmatched bracket in " + whole());
      } else {
        std::vector<int> group;
        i = parse_group(i, s_.size(), group);
        if (hand_.n_melds) fail("concealed tile after a meld in " + whole());
        for (int k : group) ++hand_.counts[k];
      }
    }
    check_copies();
    return hand_;
  }

 private:
  std::string_view text_;
  std::vector<Char> s_;
  Quote quote_;
  PhysicalHand hand_;

  [[noreturn]] static void fail(const std::string& message) { throw std::invalid_argument(message); }
  std::string whole() const { return quote_(text_); }

  // One group starting at s_[i] (before `end`): digits and a suit, digits and z (only 7), or
  // 中 / 红中. Appends its kinds; returns the index after it.
  size_t parse_group(size_t i, size_t end, std::vector<int>& out) {
    if (s_[i].code == U'中') {
      out.push_back(kHongzhong);
      return i + 1;
    }
    if (s_[i].code == U'红') {
      if (i + 1 < end && s_[i + 1].code == U'中') {
        out.push_back(kHongzhong);
        return i + 2;
      }
      fail("红 without 中 in " + whole());
    }
    size_t j = i;
    while (j < end && is_digit(s_[j].code)) ++j;
    if (j == i) fail("unexpected character in " + whole());
    if (j == end) fail("digits with no suit in " + whole());
    const char32_t suit_code = s_[j].code;
    for (size_t k = i; k < j; ++k)
      if (s_[k].code == U'0') fail("rank 0 in " + whole());
    if (suit_code == U'z') {
      for (size_t k = i; k < j; ++k)
        if (s_[k].code != U'7') fail("only 7z (红中) is a z tile, in " + whole());
      out.insert(out.end(), j - i, kHongzhong);
      return j + 1;
    }
    const int suit = suit_of_code(suit_code);
    if (suit < 0) fail("digits with no suit in " + whole());
    for (size_t k = i; k < j; ++k) out.push_back(kRanks * suit + static_cast<int>(s_[k].code - U'1'));
    return j + 1;
  }

  size_t parse_meld(size_t i) {
    const char32_t opening = s_[i].code, closing = opening == U'(' ? U')' : U']';
    size_t j = i + 1;
    while (j < s_.size() && s_[j].code != U')' && s_[j].code != U']' && s_[j].code != U'(' &&
           s_[j].code != U'[')
      ++j;
    if (j == s_.size() || s_[j].code != closing) fail("unclosed or mismatched bracket in " + whole());
    if (hand_.n_melds == kMaxMelds) fail("more than 4 melds in " + whole());
    std::vector<int> natural, wilds;
    size_t k = parse_group(i + 1, j, natural);
    while (k < j) k = parse_group(k, j, wilds);
    if (natural.empty() || natural[0] == kHongzhong)
      fail("a meld starts with its natural tiles, not a wild, in " + whole());
    for (int t : natural)
      if (t != natural[0]) fail("a meld holds one natural kind (no chow melds) in " + whole());
    for (int t : wilds)
      if (t == natural[0]) fail("a meld's wild group repeats its natural kind in " + whole());
    const size_t size = natural.size() + wilds.size();
    PhysicalMeld& meld = hand_.melds[hand_.n_melds++];
    if (opening == U'[') {
      if (size != 4) fail("a concealed kong needs 4 tiles in " + whole());
      meld.type = MeldType::ConcealedKong;
    } else if (size == 3 || size == 4) {
      meld.type = size == 3 ? MeldType::Peng : MeldType::Kong;
    } else {
      fail("a meld has 3 tiles (peng) or 4 (kong) in " + whole());
    }
    meld.kind = static_cast<uint8_t>(natural[0]);
    std::sort(wilds.begin(), wilds.end());
    meld.n_wilds = static_cast<uint8_t>(wilds.size());
    for (size_t w = 0; w < wilds.size(); ++w) meld.wild_tiles[w] = static_cast<uint8_t>(wilds[w]);
    return j + 1;
  }

  void check_copies() const {
    int total[kPhysicalKinds] = {};
    for (int k = 0; k < kPhysicalKinds; ++k) total[k] = hand_.counts[k];
    for (int m = 0; m < hand_.n_melds; ++m) {
      const PhysicalMeld& meld = hand_.melds[m];
      total[meld.kind] += (meld.type == MeldType::Peng ? 3 : 4) - meld.n_wilds;
      for (int w = 0; w < meld.n_wilds; ++w) ++total[meld.wild_tiles[w]];
    }
    for (int k = 0; k < kKinds; ++k)
      if (total[k] > 4) fail("fifth copy of " + tile_name(k) + " in " + whole());
    if (total[kHongzhong] > kMaxHongzhong) fail("more than 12 红中 in " + whole());
  }
};

std::string group_text(const std::vector<int>& kinds) {  // ascending kinds, one suit letter a run
  std::string out;
  for (size_t a = 0; a < kinds.size();) {
    const int suit = kinds[a] == kHongzhong ? 3 : suit_of(kinds[a]);
    size_t b = a;
    for (; b < kinds.size() && (kinds[b] == kHongzhong ? 3 : suit_of(kinds[b])) == suit; ++b)
      out += kinds[b] == kHongzhong ? '7' : static_cast<char>('1' + rank_of(kinds[b]));
    out += "mpsz"[suit];
    a = b;
  }
  return out;
}

}  // namespace

PhysicalHand parse_physical(std::string_view text, Quote quote) {
  return PhysicalParser(text, quote).parse();
}

std::string format_physical(const PhysicalHand& hand) {
  std::vector<int> concealed;
  for (int k = 0; k < kPhysicalKinds; ++k) concealed.insert(concealed.end(), hand.counts[k], k);
  std::string out = group_text(concealed);
  for (int m = 0; m < hand.n_melds; ++m) {
    const PhysicalMeld& meld = hand.melds[m];
    const int size = meld.type == MeldType::Peng ? 3 : 4;
    std::string body = group_text(std::vector<int>(size - meld.n_wilds, meld.kind));
    body += group_text(std::vector<int>(meld.wild_tiles, meld.wild_tiles + meld.n_wilds));
    out += meld.type == MeldType::ConcealedKong ? "[" + body + "]" : "(" + body + ")";
  }
  return out;
}

Hand physical_to_hand(const PhysicalHand& physical, const WildRules& wild) {
  auto is_wild = [&](int k) { return (wild.kinds >> k & 1) != 0; };
  Hand hand;
  int wilds = 0;
  for (int k = 0; k < kPhysicalKinds; ++k) {
    if (!physical.counts[k]) continue;
    if (k == kHongzhong && !is_wild(k))
      throw std::invalid_argument("7z (红中) is in play only when the rules add red dragons "
                                  "(extra_wilds)");
    if (is_wild(k)) wilds += physical.counts[k];
    else hand.counts[k] = physical.counts[k];
  }
  hand.wilds = static_cast<uint8_t>(std::min(wilds, 255));
  hand.n_melds = physical.n_melds;
  for (int m = 0; m < physical.n_melds; ++m) {
    const PhysicalMeld& p = physical.melds[m];
    if (is_wild(p.kind))
      throw std::invalid_argument("a meld of " + tile_name(p.kind) + ", a wild kind");
    for (int w = 0; w < p.n_wilds; ++w)
      if (!is_wild(p.wild_tiles[w]))
        throw std::invalid_argument(std::string(p.wild_tiles[w] == kHongzhong ? "7z" : tile_name(p.wild_tiles[w])) +
                                    " in a soft meld is not a wild under these rules");
    hand.melds[m] = Meld{p.type, p.kind, p.n_wilds};
  }
  return hand;
}

std::string quote_plain(std::string_view text) {
  std::string out = "'";
  out.append(text);
  return out + "'";
}

int suit_of_name(std::string_view suit) {
  const auto s = decode(suit);
  return s.size() == 1 ? suit_of_code(s[0].code) : -1;
}

int tile_kind_of_name(std::string_view name) {
  if (name.size() == 2) {  // the usual "5m": no decoding
    const char r = name[0], s = name[1];
    const int suit = s == 'm' ? 0 : s == 'p' ? 1 : s == 's' ? 2 : -1;
    if (r >= '1' && r <= '9' && suit >= 0) return kRanks * suit + (r - '1');
  }
  const auto s = decode(name);
  if (s.size() != 2 || s[0].code < U'1' || s[0].code > U'9') return -1;
  const int suit = suit_of_code(s[1].code);
  return suit < 0 ? -1 : kRanks * suit + static_cast<int>(s[0].code - U'1');
}

Hand parse_notation(std::string_view text, Quote quote) { return Parser(text, quote).parse(); }

}  // namespace xueliu
