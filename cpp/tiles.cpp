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
  int held[kKinds];
  for (int k = 0; k < kKinds; ++k) held[k] = hand.counts[k];
  for (int i = 0; i < hand.n_melds; ++i) {
    const Meld& meld = hand.melds[i];
    if (static_cast<int>(meld.type) > 2)
      throw std::invalid_argument("meld " + std::to_string(i) + " has type " +
                                  std::to_string(static_cast<int>(meld.type)) +
                                  " (0 peng, 1 kong, 2 concealed kong)");
    if (meld.kind >= kKinds)
      throw std::invalid_argument("meld " + std::to_string(i) + " has kind " +
                                  std::to_string(meld.kind) + " (outside 0..26)");
    held[meld.kind] += meld.size();
  }
  for (int k = 0; k < kKinds; ++k)
    if (held[k] > 4) throw std::invalid_argument("fifth copy of " + tile_name(k));
}

void validate_void(int void_suit) {
  if (void_suit != kNoVoid && (void_suit < 0 || void_suit >= kSuits))
    throw std::invalid_argument("void suit " + std::to_string(void_suit) +
                                " is not -1 (none) or 0..2 (m, p, s)");
}

}  // namespace xueliu
