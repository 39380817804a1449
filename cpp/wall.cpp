#include "wall.hpp"

#include <utility>

namespace xueliu {

std::array<uint8_t, kWallTiles> shuffled_wall(SplitMix64& rng) {
  // The 640-bit number as 20 limbs of 32 bits, most significant first: dividing it by a number
  // below 2**32 is then plain 64-bit arithmetic on every platform.
  constexpr int kLimbs = 20;
  uint32_t big[kLimbs];
  for (int i = 0; i < kLimbs; i += 2) {
    const uint64_t w = rng.next();
    big[i] = static_cast<uint32_t>(w >> 32);
    big[i + 1] = static_cast<uint32_t>(w);
  }
  std::array<uint8_t, kWallTiles> wall;
  for (int i = 0; i < kWallTiles; ++i) wall[i] = static_cast<uint8_t>(i / 4);

  // The digits are read a group of radices at a time: one long division of the number by the
  // group's product (below 2**32), then the group's digits from that remainder — the same digits
  // as one division per radix (the product is a multiple of each radix), with fewer divisions.
  int top = 0;  // big[0 .. top) are zero
  int i = kWallTiles - 1;
  while (i >= 1) {
    uint64_t product = 1;
    int last = i;  // the group is radices i + 1 down to last + 1
    while (last >= 1 && product * static_cast<uint64_t>(last + 1) < (uint64_t{1} << 32)) {
      product *= static_cast<uint64_t>(last + 1);
      --last;
    }
    uint64_t rest = 0;
    for (int l = top; l < kLimbs; ++l) {
      const uint64_t cur = (rest << 32) | big[l];
      big[l] = static_cast<uint32_t>(cur / product);
      rest = cur % product;
    }
    while (top < kLimbs && big[top] == 0) ++top;
    for (; i > last; --i) {
      const uint64_t n = static_cast<uint64_t>(i + 1);
      const int j = static_cast<int>(rest % n);
      rest /= n;
      std::swap(wall[i], wall[j]);
    }
  }
  return wall;
}

Roll roll(SplitMix64& rng, bool shuffle) {
  Roll r;
  if (shuffle) r.wall = shuffled_wall(rng);
  r.dice[0] = rng.die();
  r.dice[1] = rng.die();
  r.exchange_die = rng.die();
  r.exchange_pick = static_cast<int>(rng.below(3));
  return r;
}

std::array<Counts, 4> deal(const std::array<uint8_t, kWallTiles>& wall, int dealer) {
  std::array<Counts, 4> hands{};
  for (int take = 0; take < 12; ++take) {
    Counts& held = hands[static_cast<size_t>((dealer + take) & 3)];
    for (int i = 4 * take; i < 4 * take + 4; ++i) ++held[wall[static_cast<size_t>(i)]];
  }
  ++hands[static_cast<size_t>(dealer)][wall[48]];
  ++hands[static_cast<size_t>(dealer)][wall[49]];
  for (int i = 0; i < 3; ++i) ++hands[static_cast<size_t>((dealer + 1 + i) & 3)][wall[50 + i]];
  return hands;
}

}  // namespace xueliu
