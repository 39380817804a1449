// The wall's shuffle (docs/rules.md §2): our own portable generator and an exact Fisher–Yates, so the same
// seed gives the same wall on every platform. python/xueliu/game/wall.py holds the generator; the
// shuffle is here because it is most of the cost of a new hand, and tests/game/test_wall.py holds
// it to a plain Python reference, bit for bit.
#pragma once

#include <array>
#include <cstdint>

#include "tiles.hpp"

namespace xueliu {

constexpr int kWallTiles = 108;

// The splitmix64 finaliser: a bijective 64-bit mix.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// splitmix64 (Steele, Lea, Flood 2014): wall.py's SplitMix64, the same stream.
struct SplitMix64 {
  uint64_t state = 0;
  uint64_t next() {
    state += 0x9E3779B97F4A7C15ull;
    return mix64(state);
  }
  // A uniform value in [0, n), n >= 1, by rejection sampling (exact): draws until one falls
  // below the largest multiple of n up to 2**64.
  uint64_t below(uint64_t n) {
    const uint64_t rem = (UINT64_MAX % n + 1) % n;  // 2**64 mod n
    for (;;) {
      const uint64_t r = next();
      if (rem == 0 || r < 0 - rem) return r % n;  // 0 - rem: 2**64 - rem, modulo 2**64
    }
  }
  int die() { return static_cast<int>(below(6)) + 1; }
};

// The 108 kinds in draw order: Fisher–Yates over the sorted tiles (four of each kind 0..26)
// whose choice for position i = 107 .. 1 is digit i of one 640-bit number read in mixed radix
// (j = number mod (i + 1), then number /= i + 1); the number is ten draws of `rng`, the first
// the most significant. log2(108!) ≈ 570 bits, so the bias is below 2**-70.
std::array<uint8_t, kWallTiles> shuffled_wall(SplitMix64& rng);

// What a hand's seed decides, read from the generator in this one order whatever the rules
// (docs/rules.md §2, §3.1; python/xueliu/game/deal.py's roll): the wall (only when `shuffle`; a given wall
// is not drawn), the two dice, the die of exchange_direction "dice", the pick of "random".
struct Roll {
  std::array<uint8_t, kWallTiles> wall{};
  int dice[2] = {0, 0};
  int exchange_die = 0;
  int exchange_pick = 0;
};
Roll roll(SplitMix64& rng, bool shuffle);

// The deal (docs/rules.md §2): wall[0..48) in twelve takes of four from the dealer on, wall[48..50) to
// the dealer (跳牌), wall[50..53) one each to the others. Each kind in `wall` must be 0..26.
std::array<Counts, 4> deal(const std::array<uint8_t, kWallTiles>& wall, int dealer);

}  // namespace xueliu
