// The wall's shuffle (RULES §2): our own portable generator and an exact Fisher–Yates, so the same
// seed gives the same wall on every platform. python/xueliu/game/wall.py holds the generator; the
// shuffle is here because it is most of the cost of a new hand, and tests/game/test_wall.py holds
// it to a plain Python reference, bit for bit.
#pragma once

#include <array>
#include <cstdint>

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
};

// The 108 kinds in draw order: Fisher–Yates over the sorted tiles (four of each kind 0..26)
// whose choice for position i = 107 .. 1 is digit i of one 640-bit number read in mixed radix
// (j = number mod (i + 1), then number /= i + 1); the number is ten draws of `rng`, the first
// the most significant. log2(108!) ≈ 570 bits, so the bias is below 2**-70.
std::array<uint8_t, kWallTiles> shuffled_wall(SplitMix64& rng);

}  // namespace xueliu
