// Tile names and hand validation (RULES.md §1).
#include "tiles.hpp"

namespace xueliu {

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
