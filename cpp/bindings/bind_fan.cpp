// PLACEHOLDER until the fan bindings land.
#include "register.hpp"

namespace xueliu::bindings {
void register_fan(pybind11::module_&) {}
}  // namespace xueliu::bindings
