// PLACEHOLDER until the fan evaluator lands: only lets the project build.
#include "fan.hpp"

namespace xueliu {
const std::array<int, kPatternCount> kDefaultFanTable = {1, 2, 3, 3, 3, 3, 4, 4, 5, 5,
                                                         5, 5, 6, 6, 6, 7, 8, 9, 9};
FanResult evaluate(const Hand&, int, const WinContext&, const ScoringRules&) {
  throw std::invalid_argument("evaluate is not built yet");
}
FanResult evaluate_unchecked(const Hand&, const WinContext&, const ScoringRules&) {
  throw std::invalid_argument("evaluate is not built yet");
}
}  // namespace xueliu
