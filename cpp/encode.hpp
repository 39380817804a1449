// The obs_v1 tensor of one seat's view (python/xueliu/learn/channels.py, docs/learning.md): 92
// channels of 27 values, each 0 or 1, in the channel order of OBS_V1.
//
// An ObsView holds what docs/rules.md §7 lets the seat see, already counted: the binding walks the
// engine's seat view (xueliu.game.view.public_pieces) once and feeds it through the add_*
// calls, which keep the derived counts (the copies on view, the others' hidden kongs) in one
// place; encode_obs_v1 then writes every channel. Seats are absolute 0..3 in the view and turned
// to the relative order (self, next, across, prev) by the encoder.
#pragma once

#include <cstdint>

#include "tiles.hpp"

namespace xueliu {

constexpr int kObsV1Channels = 92;

// The channel names of obs_v1, in order; the Python channel table must match them exactly (the
// binding exports them and xueliu.learn checks at import).
extern const char* const kObsV1Names[kObsV1Channels];

struct ObsView {
  int seat = 0;
  int phase = 0;   // index in PHASE_NAMES: exchange, void, multiplier, turn, claim, (5) over
  int dealer = 0;
  int turn = -1;   // the seat on turn or whose discard is claimed; -1 outside play
  bool pending = false;
  bool xuezhan = false;
  Counts hand{};       // this seat's concealed tiles
  int drawn = -1;      // the kind it just drew, -1 none
  int claim_tile = -1; // the kind on offer in a claim window, -1 none
  bool robbing = false;
  Counts given{}, received{}, picks{};  // its exchange (换三张) and the picks made so far
  Counts river[4]{};                    // discards still in each seat's river
  int last_discard[4] = {-1, -1, -1, -1};
  Counts pengs[4]{}, kongs[4]{};        // kinds of each seat's pengs and exposed kongs (0/1)
  Counts own_concealed{};               // this seat's concealed kongs
  int hidden_kongs[4] = {0, 0, 0, 0};   // others' concealed kongs (kind unseen)
  Counts won[4]{};                      // kinds each seat won on
  int wins[4] = {0, 0, 0, 0};
  Counts visible{};                     // copies on view outside the own hand
  int voids[4] = {-1, -1, -1, -1};      // voids[seat]: its own (its choice before the reveal)
  int multipliers[4] = {0, 0, 0, 0};    // 0: not revealed
  bool in_play[4] = {false, false, false, false};
  bool frozen[4] = {false, false, false, false};
  bool auto_play[4] = {false, false, false, false};
  int hand_size[4] = {0, 0, 0, 0};
  int wall_remaining = 0;

  // Each kind must be 0..26 (the binding checks before calling). A discard still in seat q's
  // river is on view; the latest one added is its last discard.
  void add_discard(int q, int kind) {
    ++river[q][kind];
    ++visible[kind];
    last_discard[q] = kind;
  }
  // A meld of seat q: code 0 peng, 1 exposed kong, 2 concealed kong (kind -1 when another seat's:
  // only its existence is public).
  void add_meld(int q, int code, int kind);
  void add_win(int q, int kind) {
    won[q][kind] = 1;
    ++wins[q];
  }
  void add_set_aside(int kind) { ++visible[kind]; }  // a winning tile set aside face up
};

// Writes the 92 channels of `view` into out[0 .. 92 * 27) (every value, zeros included).
void encode_obs_v1(const ObsView& view, float* out);

}  // namespace xueliu
