// Tile names and hand validation (RULES.md §1).
#include "tiles.hpp"

namespace xueliu {

namespace {

constexpr int kHandSizes[3] = {13, 10, 7};
constexpr int kShapeCodes = 1 << 6;

struct ShapeTable {
  HandShape shapes[kShapeCodes];
  bool valid[kShapeCodes] = {};
  ShapeTable() {
    for (int code = 0; code < kShapeCodes; ++code) {
      const int size_index = code >> 4, absent = (code >> 1) & 7;
      if (size_index > 2 || absent == 7) continue;  // no fourth size; at least one suit
      HandShape& s = shapes[code];
      s.tiles = kHandSizes[size_index];
      s.sets = (s.tiles - 1) / 3;
      // The pairs family needs an even complete hand: 14 or 8 tiles, never 11 (RULES §11.1).
      s.pairs = (code & 1) && (s.tiles + 1) % 2 == 0 ? (s.tiles + 1) / 2 : 0;
      s.absent = static_cast<uint8_t>(absent);
      s.code = code;
      s.kinds = 0;
      for (int suit = 0; suit < kSuits; ++suit)
        if (!(absent >> suit & 1)) s.kinds |= 0x1FFu << (kRanks * suit);
      valid[code] = true;
    }
  }
};

const ShapeTable& shape_table() {
  static const ShapeTable table;  // built once; read-only afterwards (any thread)
  return table;
}

std::string suits_in_play(const HandShape& shape) {
  std::string out;
  for (int s = 0; s < kSuits; ++s)
    if (!(shape.absent >> s & 1)) out += std::string(out.empty() ? "" : ", ") + "mps"[s];
  return out;
}

}  // namespace

const HandShape& hand_shape(int code) {
  const ShapeTable& t = shape_table();
  if (code < 0 || code >= kShapeCodes || !t.valid[code])
    throw std::invalid_argument("shape code " + std::to_string(code) +
                                " is not a table shape (bit 0 seven pairs, bits 1..3 suits not "
                                "in play, bits 4..5 hand size 13 / 10 / 7)");
  return t.shapes[code];
}

void check_shape(const Hand& hand, int void_suit, const HandShape& shape) {
  if (hand.n_melds > shape.sets)
    throw std::invalid_argument("hand_size " + std::to_string(shape.tiles) + " allows at most " +
                                std::to_string(shape.sets) + " melds, got " +
                                std::to_string(hand.n_melds));
  if (!shape.absent) return;
  if (void_suit != kNoVoid)
    throw std::invalid_argument(std::string("void ") + "mps"[void_suit % kSuits] +
                                " with only " + suits_in_play(shape) +
                                " in play: there is no 定缺 with fewer than three suits");
  for (int k = 0; k < kKinds; ++k)
    if (hand.counts[k] && !(shape.kinds >> k & 1))
      throw std::invalid_argument("tile " + tile_name(k) + " is not in play (suits in play: " +
                                  suits_in_play(shape) + ")");
  for (int i = 0; i < hand.n_melds; ++i)
    if (!(shape.kinds >> hand.melds[i].kind & 1))
      throw std::invalid_argument("meld of " + tile_name(hand.melds[i].kind) +
                                  " is not in play (suits in play: " + suits_in_play(shape) + ")");
}

std::string tile_name(int kind) {
  if (kind < 0 || kind >= kKinds)
    throw std::invalid_argument("tile kind " + std::to_string(kind) + " is outside 0..26");
  std::string name(1, static_cast<char>('1' + rank_of(kind)));
  name += "mps"[suit_of(kind)];
  return name;
}

void validate_hand(const Hand& hand) {
  for (int k = 0; k < kKinds; ++k)
    if (hand.counts[k] > 4)
      throw std::invalid_argument("count of " + tile_name(k) + " is " +
                                  std::to_string(hand.counts[k]) + " (at most 4)");
  if (hand.n_melds > kMaxMelds)
    throw std::invalid_argument(std::to_string(hand.n_melds) + " melds (at most 4)");
  for (int i = 0; i < hand.n_melds; ++i) {
    const Meld& meld = hand.melds[i];
    if (static_cast<int>(meld.type) > 2)
      throw std::invalid_argument("meld " + std::to_string(i) + " has type " +
                                  std::to_string(static_cast<int>(meld.type)) +
                                  " (0 peng, 1 kong, 2 concealed kong)");
    if (meld.kind >= kKinds)
      throw std::invalid_argument("meld " + std::to_string(i) + " has kind " +
                                  std::to_string(meld.kind) + " (outside 0..26)");
  }
  // No overflow: at most 4 concealed plus 4 melds of 4 copies fit a uint8_t.
  const Counts held = hand.held();
  for (int k = 0; k < kKinds; ++k)
    if (held[k] > 4) throw std::invalid_argument("fifth copy of " + tile_name(k));
}

void validate_void(int void_suit) {
  if (void_suit != kNoVoid && (void_suit < 0 || void_suit >= kSuits))
    throw std::invalid_argument("void suit " + std::to_string(void_suit) +
                                " is not -1 (none) or 0..2 (m, p, s)");
}

void throw_tile_count(const char* call, const Hand& hand, int base, bool or_one_more) {
  const int k = hand.n_melds, want = base - 3 * k, got = hand.concealed();
  std::string needs = std::to_string(base) + " - 3k";
  std::string value = std::to_string(want);
  if (or_one_more) {
    needs += " or " + std::to_string(base + 1) + " - 3k";
    value += " or " + std::to_string(want + 1);
  }
  throw std::invalid_argument(std::string(call) + " needs " + needs + " = " + value +
                              " concealed tiles (k = " + std::to_string(k) + " melds), got " +
                              std::to_string(got));
}

}  // namespace xueliu
