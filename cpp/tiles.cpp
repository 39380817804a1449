// Tile names and hand validation (docs/rules.md §1).
#include "tiles.hpp"

namespace xueliu {

namespace {

std::string suits_in_play(const HandShape& shape) {
  std::string out;
  for (int s = 0; s < kSuits; ++s)
    if (!(shape.absent >> s & 1)) out += std::string(out.empty() ? "" : ", ") + "mps"[s];
  return out;
}

}  // namespace

void throw_bad_shape_code(int code) {
  throw std::invalid_argument("shape code " + std::to_string(code) +
                              " is not a table shape (bit 0 seven pairs, bits 1..3 suits not "
                              "in play, bits 4..5 hand size 13 / 10 / 7)");
}

void check_shape_slow(const Hand& hand, int void_suit, const HandShape& shape) {
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
  for (int i = 0; i < hand.n_melds; ++i)
    if (hand.melds[i].wilds >= hand.melds[i].size())  // at least one natural: docs/rules.md §12.3
      throw std::invalid_argument("meld " + std::to_string(i) + " holds " +
                                  std::to_string(hand.melds[i].wilds) + " wilds (at most " +
                                  std::to_string(hand.melds[i].size() - 1) + ")");
  if (hand.wilds > 14)
    throw std::invalid_argument(std::to_string(hand.wilds) + " concealed wilds (at most 14)");
  // Physical copies: a soft meld's wilds are not copies of its kind (docs/rules.md §12.5). No
  // overflow: at most 4 concealed plus 4 melds of 4 copies fit a uint8_t.
  const Counts naturals = hand.naturals();
  for (int k = 0; k < kKinds; ++k)
    if (naturals[k] > 4) throw std::invalid_argument("fifth copy of " + tile_name(k));
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
