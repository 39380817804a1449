// xueliu._core: the private native module. Each area registers itself; see register.hpp.
#include "register.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "xueliu native core (private; use the public names in xueliu)";
  // Order matters: later areas use types registered by earlier ones (Hand, ScoringRules).
  xueliu::bindings::register_hand(m);
  xueliu::bindings::register_fan(m);
  xueliu::bindings::register_analysis(m);
  xueliu::bindings::register_batch(m);
  xueliu::bindings::register_encode(m);
  xueliu::bindings::register_engine(m);
  xueliu::bindings::register_wall(m);
  xueliu::bindings::register_neural(m);
}
