// obs_v2's analysis channels from an obs_v1 tensor (cpp/analysis_planes.hpp).
#include "analysis_planes.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "bits.hpp"
#include "encode.hpp"
#include "hand.hpp"

namespace xueliu {

const char* const kAnalysisNames[kAnalysisPlanes] = {
    "discard_ready", "discard_shanten_1", "discard_shanten_2", "discard_min_shanten",
    "discard_live_4", "discard_live_8", "discard_live_12", "discard_live_20", "discard_best",
    "discard_ready_fan_2", "discard_ready_fan_3", "discard_ready_fan_4",
    "jinzhang_now", "shanten_bar", "live_bar", "peng_shanten_bar", "kong_shanten_bar",
    "kong_keeps_shanten", "ready_fan_bar",
};

namespace {

// The obs_v1 planes read, by name (looked up once in kObsV1Names: no second copy of the order).
struct Offsets {
  int hand[4], visible[4], claim_tile, pengs, kongs, concealed, void_self, phase_claim, robbing;
  Offsets() {
    for (int i = 0; i < 4; ++i) {
      hand[i] = find("hand_" + std::to_string(i + 1));
      visible[i] = find("visible_" + std::to_string(i + 1));
    }
    claim_tile = find("claim_tile");
    pengs = find("pengs_self");
    kongs = find("kongs_self");
    concealed = find("concealed_kongs_self");
    void_self = find("void_self");
    phase_claim = find("phase_claim");
    robbing = find("claim_is_rob");
  }
  static int find(const std::string& name) {
    for (int c = 0; c < kObsV1Channels; ++c)
      if (name == kObsV1Names[c]) return c * kKinds;
    throw std::logic_error("obs_v1 has no channel " + name);  // a fixed table: never at run time
  }
};

const Offsets& offsets() {
  static const Offsets o;
  return o;
}

class Planes {
 public:
  explicit Planes(float* out) : out_(out) {
    std::memset(out, 0, sizeof(float) * kAnalysisPlanes * kKinds);
  }
  void set(int plane, int kind) { out_[plane * kKinds + kind] = 1.0f; }
  void bar(int plane, int n) {
    n = std::clamp(n, 0, kKinds);
    for (int k = 0; k < n; ++k) out_[plane * kKinds + k] = 1.0f;
  }
  void mask(int plane, uint32_t m) {
    for (; m; m &= m - 1) set(plane, lowest_bit(m));
  }

 private:
  float* out_;
};

// The copies of the kinds of `mask` not in sight.
int live_of(uint32_t mask, const Counts& live) {
  int n = 0;
  for (; mask; mask &= mask - 1) n += live[lowest_bit(mask)];
  return n;
}

// The best discard-win fan over the waits `mask` of a ready hand (those with a copy left when any
// has one; 0 for no wait).
int ready_fan(const Hand& hand, uint32_t mask, const Counts& live, const ScoringRules& rules) {
  uint32_t alive = 0;
  for (uint32_t m = mask; m; m &= m - 1)
    if (live[lowest_bit(m)]) alive |= m & (~m + 1);
  if (alive) mask = alive;
  int best = 0;
  for (; mask; mask &= mask - 1) {
    const int w = lowest_bit(mask);
    Hand h = hand;
    ++h.counts[w];
    WinContext ctx;
    ctx.win_tile = w;
    best = std::max(best, evaluate_unchecked(h, ctx, rules).fan);
  }
  return best;
}

bool add_meld(Hand& h, MeldType type, int kind) {
  if (h.n_melds >= kMaxMelds) return false;
  h.melds[h.n_melds++] = Meld{type, static_cast<uint8_t>(kind)};
  return true;
}

}  // namespace

void analysis_planes(const float* obs, const ScoringRules& rules, float* out) {
  Planes p(out);
  const Offsets& o = offsets();
  const HandShape& shape = rules.shape;
  Hand hand;
  Counts visible{};
  for (int k = 0; k < kKinds; ++k) {
    int c = 0, v = 0;
    for (int i = 0; i < 4; ++i) {
      c += obs[o.hand[i] + k] == 1.0f;
      v += obs[o.visible[i] + k] == 1.0f;
    }
    hand.counts[k] = static_cast<uint8_t>(c);
    visible[k] = static_cast<uint8_t>(v);
  }
  Counts meld_copies{};  // own meld tiles, which obs_v1's visible counts include
  for (int k = 0; k < kKinds; ++k) {
    const MeldType types[3] = {MeldType::Peng, MeldType::Kong, MeldType::ConcealedKong};
    const int planes[3] = {o.pengs, o.kongs, o.concealed};
    for (int t = 0; t < 3; ++t) {
      if (obs[planes[t] + k] != 1.0f) continue;
      if (!add_meld(hand, types[t], k)) return;
      meld_copies[k] = static_cast<uint8_t>(meld_copies[k] + (t == 0 ? 3 : 4));
    }
  }
  int void_suit = kNoVoid;
  for (int s = 0; s < kSuits; ++s)
    if (obs[o.void_self + 9 * s] == 1.0f) void_suit = s;
  const Counts held = hand.held();
  Counts live{};
  for (int k = 0; k < kKinds; ++k) {
    const int seen = std::max(0, visible[k] - meld_copies[k]);
    live[k] = static_cast<uint8_t>(std::max(0, 4 - held[k] - seen));
  }
  const int tiles = hand.concealed() + 3 * hand.n_melds;
  int now;
  try {
    now = shanten(hand, void_suit, shape);  // validates the hand; the calls below need not
  } catch (const std::invalid_argument&) {
    return;  // not a hand with a complete hand in reach (or not a seat's hand at all)
  }
  p.bar(13, now + 1);
  if (tiles == shape.tiles + 1) {
    // A discard to choose: each kind held, as 查听 sees it.
    int s[kKinds], lv[kKinds];
    uint32_t jz[kKinds];
    int best_s = 99;
    for (int t = 0; t < kKinds; ++t) {
      if (!hand.counts[t]) continue;
      Hand h = hand;
      --h.counts[t];
      s[t] = shanten_unchecked(h, void_suit, shape);
      if (s[t] < 0) continue;
      jz[t] = jinzhang_unchecked(h, void_suit, shape);
      lv[t] = live_of(jz[t], live);
      best_s = std::min(best_s, s[t]);
    }
    int best_live = -1;
    for (int t = 0; t < kKinds; ++t)
      if (hand.counts[t] && s[t] >= 0 && s[t] == best_s) best_live = std::max(best_live, lv[t]);
    for (int t = 0; t < kKinds; ++t) {
      if (!hand.counts[t] || s[t] < 0) continue;
      if (s[t] == 0) p.set(0, t);
      if (s[t] <= 1) p.set(1, t);
      if (s[t] <= 2) p.set(2, t);
      if (s[t] == best_s) p.set(3, t);
      const int limits[4] = {4, 8, 12, 20};
      for (int i = 0; i < 4; ++i)
        if (lv[t] >= limits[i]) p.set(4 + i, t);
      if (s[t] == best_s && lv[t] == best_live) p.set(8, t);
      if (s[t] == 0) {
        Hand h = hand;
        --h.counts[t];
        const int fan = ready_fan(h, jz[t], live, rules);
        for (int i = 0; i < 3; ++i)
          if (fan >= 2 + i) p.set(9 + i, t);
      }
    }
    p.bar(14, best_live);
    // Kongs of the turn: does the hand after the kong keep the best discard's shanten?
    for (int t = 0; t < kKinds; ++t) {
      Hand h = hand;
      bool ok = false;
      if (hand.counts[t] == 4) {
        h.counts[t] = 0;
        ok = add_meld(h, MeldType::ConcealedKong, t);
      } else if (hand.counts[t] >= 1) {
        for (int i = 0; i < h.n_melds; ++i)
          if (h.melds[i].kind == t && h.melds[i].type == MeldType::Peng) {
            h.melds[i].type = MeldType::Kong;
            --h.counts[t];
            ok = true;
          }
      }
      if (ok) {
        const int sk = shanten_unchecked(h, void_suit, shape);
        if (sk >= 0 && sk <= best_s) p.set(17, t);
      }
    }
  } else if (tiles == shape.tiles) {
    const uint32_t jz = jinzhang_unchecked(hand, void_suit, shape);
    p.mask(12, jz);
    p.bar(14, live_of(jz, live));
    if (now == 0) p.bar(18, ready_fan(hand, jz, live, rules));
    int claim = -1;
    for (int k = 0; k < kKinds; ++k)
      if (obs[o.claim_tile + k] == 1.0f) claim = k;
    if (claim >= 0 && obs[o.phase_claim] == 1.0f && obs[o.robbing] != 1.0f) {
      if (hand.counts[claim] >= 2) {
        Hand h = hand;
        h.counts[claim] = static_cast<uint8_t>(h.counts[claim] - 2);
        if (add_meld(h, MeldType::Peng, claim)) {
          const int sp = shanten_unchecked(h, void_suit, shape);
          if (sp >= -1) p.bar(15, sp + 1);
        }
      }
      if (hand.counts[claim] == 3) {
        Hand h = hand;
        h.counts[claim] = 0;
        if (add_meld(h, MeldType::Kong, claim)) {
          const int sk = shanten_unchecked(h, void_suit, shape);
          if (sk >= 0) p.bar(16, sk + 1);
        }
      }
    }
  }
}

}  // namespace xueliu
