// Bit scans and the 27 counts as machine words: the few bit tricks the hot paths share.
//
// The counts are read as words so that "is any count odd", "is any count above 4" and "how many
// tiles" are a handful of word operations instead of 27 byte loops. Plain values only: every
// function here is pure and safe to call from any thread.
#pragma once

#include <cstdint>
#include <cstring>
#if defined(_MSC_VER)
#include <intrin.h>
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the counts-as-words loads below assume a little-endian target"
#endif

// XUELIU_HOT_DISPATCH: runtime dispatch of a hot function. Put before a function definition, it
// compiles the function three times — for baseline x86-64 (what a portable wheel may assume),
// with POPCNT (x86-64-v2's) and for x86-64-v3 (AVX2, BMI1/2, LZCNT, MOVBE) — and lets the
// loader pick the best one the CPU has when the module is loaded (GCC's target_clones, an ifunc
// resolved once; no per-call check). Helpers inlined into the function are compiled with it.
// Only where that works: x86-64 GCC >= 12 on glibc (ifuncs; musl has none) with the CMake option
// XUELIU_DISPATCH on (the default); elsewhere, and in a -march=native build (XUELIU_NATIVE), it
// is empty and the function is compiled once for the build's target. Which clone runs:
// _core.dispatch_info(); how much it gains: docs/performance.md.
#if defined(XUELIU_DISPATCH) && defined(__x86_64__) && defined(__GLIBC__) && \
    defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#define XUELIU_HOT_DISPATCH __attribute__((target_clones("default", "popcnt", "arch=x86-64-v3")))
#define XUELIU_HOT_DISPATCH_CLONES "default,popcnt,arch=x86-64-v3"
#else
#define XUELIU_HOT_DISPATCH
#define XUELIU_HOT_DISPATCH_CLONES ""
#endif

namespace xueliu {

constexpr uint64_t kLowBitOfEachByte = 0x0101010101010101ULL;

// lowest_bit: index of the lowest set bit; x must not be 0. A 32-bit overload as well as the
// 64-bit one, because the fan loops over 16-bit signatures measurably slow down with the wider
// scan (about 5% of best_discards).
#if defined(_MSC_VER)
inline int lowest_bit(uint32_t x) {
  unsigned long i;
  _BitScanForward(&i, x);
  return static_cast<int>(i);
}
inline int lowest_bit(uint64_t x) {
  unsigned long i;
  _BitScanForward64(&i, x);
  return static_cast<int>(i);
}
#else
inline int lowest_bit(uint32_t x) { return __builtin_ctz(x); }
inline int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }
#endif

// Byte-wise min of two words whose bytes are all <= 0x7F (SWAR; no borrow crosses a byte).
inline uint64_t min_bytes(uint64_t a, uint64_t b) {
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  const uint64_t ge = (((a | kHighBits) - b) & kHighBits) >> 7;  // 1 in each byte where a >= b
  const uint64_t take_b = ge * 0xFF;
  return (b & take_b) | (a & ~take_b);
}

inline uint64_t byte_swap(uint64_t x) {
#if defined(_MSC_VER)
  return _byteswap_uint64(x);
#else
  return __builtin_bswap64(x);
#endif
}

// The 27 counts at `counts27` as four little-endian words, byte i of word j = count 8j + i; the
// last word holds counts 24..26 and zeros. It is loaded at byte offset 19 and shifted, not at 24,
// so that no load reads past the 27th byte; and the loads sit at the offsets (0, 8, 16, 19) that
// bind_batch.cpp stores a row at, so they forward from those stores.
inline void load_count_words(const uint8_t* counts27, uint64_t w[4]) {
  std::memcpy(&w[0], counts27, 8);
  std::memcpy(&w[1], counts27 + 8, 8);
  std::memcpy(&w[2], counts27 + 16, 8);
  std::memcpy(&w[3], counts27 + 19, 8);
  w[3] >>= 40;  // drop counts 19..23, already in w[2]
}

}  // namespace xueliu
