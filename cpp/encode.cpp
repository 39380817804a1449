#include "encode.hpp"

#include <algorithm>
#include <cstring>

namespace xueliu {

const char* const kObsV1Names[kObsV1Channels] = {
    "hand_1", "hand_2", "hand_3", "hand_4", "drawn", "claim_tile",
    "exchange_given_1", "exchange_given_2", "exchange_given_3",
    "exchange_received_1", "exchange_received_2", "exchange_received_3",
    "exchange_picks_1", "exchange_picks_2",
    "discards_self", "discards_self_2", "last_discard_self", "pengs_self", "kongs_self",
    "concealed_kongs_self", "won_tiles_self",
    "discards_next", "discards_next_2", "last_discard_next", "pengs_next", "kongs_next",
    "won_tiles_next",
    "discards_across", "discards_across_2", "last_discard_across", "pengs_across",
    "kongs_across", "won_tiles_across",
    "discards_prev", "discards_prev_2", "last_discard_prev", "pengs_prev", "kongs_prev",
    "won_tiles_prev",
    "visible_1", "visible_2", "visible_3", "visible_4",
    "void_self", "void_next", "void_across", "void_prev",
    "phase_exchange", "phase_void", "phase_multiplier", "phase_turn", "phase_claim",
    "claim_is_rob", "pending", "mode_xuezhan",
    "dealer_self", "dealer_next", "dealer_across", "dealer_prev",
    "turn_self", "turn_next", "turn_across", "turn_prev",
    "in_play_self", "in_play_next", "in_play_across", "in_play_prev",
    "frozen_self", "frozen_next", "frozen_across", "frozen_prev",
    "auto_play_self", "auto_play_next", "auto_play_across", "auto_play_prev",
    "hand_size_self", "hand_size_next", "hand_size_across", "hand_size_prev",
    "wins_self", "wins_next", "wins_across", "wins_prev",
    "multiplier_self", "multiplier_next", "multiplier_across", "multiplier_prev",
    "hidden_kongs_next", "hidden_kongs_across", "hidden_kongs_prev",
    "wall_0_27", "wall_28_54",
};

void ObsView::add_meld(int q, int code, int kind) {
  if (code == 0) {
    pengs[q][kind] = 1;
    visible[kind] += 3;
  } else if (code == 1) {
    kongs[q][kind] = 1;
    visible[kind] += 4;
  } else if (q == seat) {
    own_concealed[kind] = 1;
    visible[kind] += 4;  // its own concealed kong: it sees all four copies
  } else {
    ++hidden_kongs[q];
  }
}

namespace {

// Rows of 27 float32 values that recur (zeros, ones, bars, one-hots, suits), built once.
struct Rows {
  float zero[kKinds]{}, one[kKinds]{};
  float bar[kKinds + 1][kKinds]{};  // bar[n]: n ones, then zeros
  float hot[kKinds][kKinds]{};
  float suit[kSuits][kKinds]{};
  Rows() {
    for (int k = 0; k < kKinds; ++k) {
      one[k] = 1.0f;
      hot[k][k] = 1.0f;
      suit[suit_of(k)][k] = 1.0f;
      for (int n = k + 1; n <= kKinds; ++n) bar[n][k] = 1.0f;
    }
  }
};
const Rows kRows;

// A channel being written: p advances by 27 per channel, in the order of kObsV1Names.
struct Writer {
  float* p;

  void row(const float* r) {
    std::memcpy(p, r, sizeof(float) * kKinds);
    p += kKinds;
  }
  // Kinds whose count is at least `at`.
  void at_least(const Counts& c, int at) {
    for (int k = 0; k < kKinds; ++k) p[k] = static_cast<float>(c[k] >= at);
    p += kKinds;
  }
  void one_hot(int kind) { row(kind >= 0 ? kRows.hot[kind] : kRows.zero); }  // -1: none
  void fill(bool on) { row(on ? kRows.one : kRows.zero); }
  void bar(int n) { row(kRows.bar[std::clamp(n, 0, kKinds)]); }  // n clipped to 0..27
  void suit(int s) { row(s >= 0 ? kRows.suit[s] : kRows.zero); }  // -1: none
};

}  // namespace

void encode_obs_v1(const ObsView& v, float* out) {
  Writer w{out};
  int abs[4];  // the absolute seat of each relative seat (self, next, across, prev)
  for (int r = 0; r < 4; ++r) abs[r] = (v.seat + r) & 3;

  for (int i = 1; i <= 4; ++i) w.at_least(v.hand, i);
  w.one_hot(v.drawn);
  w.one_hot(v.claim_tile);
  for (int i = 1; i <= 3; ++i) w.at_least(v.given, i);
  for (int i = 1; i <= 3; ++i) w.at_least(v.received, i);
  for (int i = 1; i <= 2; ++i) w.at_least(v.picks, i);
  for (int r = 0; r < 4; ++r) {
    const int q = abs[r];
    w.at_least(v.river[q], 1);
    w.at_least(v.river[q], 2);
    w.one_hot(v.last_discard[q]);
    w.at_least(v.pengs[q], 1);
    w.at_least(v.kongs[q], 1);
    if (r == 0) w.at_least(v.own_concealed, 1);
    w.at_least(v.won[q], 1);
  }
  Counts visible = v.visible;
  if (v.robbing && v.claim_tile >= 0) ++visible[v.claim_tile];  // left the konger's hand
  for (int i = 1; i <= 4; ++i) w.at_least(visible, i);
  for (int r = 0; r < 4; ++r) w.suit(v.voids[abs[r]]);
  for (int ph = 0; ph < 5; ++ph) w.fill(v.phase == ph);
  w.fill(v.robbing);
  w.fill(v.pending);
  w.fill(v.xuezhan);
  for (int r = 0; r < 4; ++r) w.fill(v.dealer == abs[r]);
  for (int r = 0; r < 4; ++r) w.fill(v.turn == abs[r]);
  for (int r = 0; r < 4; ++r) w.fill(v.in_play[abs[r]]);
  for (int r = 0; r < 4; ++r) w.fill(v.frozen[abs[r]]);
  for (int r = 0; r < 4; ++r) w.fill(v.auto_play[abs[r]]);
  for (int r = 0; r < 4; ++r) w.bar(v.hand_size[abs[r]]);
  for (int r = 0; r < 4; ++r) w.bar(v.wins[abs[r]]);
  for (int r = 0; r < 4; ++r) {
    const int m = v.multipliers[abs[r]];
    w.one_hot(m > 0 ? std::min(m, kKinds) - 1 : -1);
  }
  for (int r = 1; r < 4; ++r) w.bar(v.hidden_kongs[abs[r]]);
  w.bar(v.wall_remaining);
  w.bar(v.wall_remaining - kKinds);
}

}  // namespace xueliu
