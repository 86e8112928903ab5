#pragma once

// Whether AT-SPI is there, for doctor and backend selection. Never hangs: every step is bounded
// (about a second in all) and nothing is registered on the bus.

#include <string>

namespace nd_linux {

struct AtspiProbe {
    bool reachable = false;  // connected to the accessibility bus and its registry answered
    bool advertised = false; // the session bus names org.a11y.Bus, or AT_SPI_BUS_ADDRESS is set
    std::string address;     // the accessibility bus address, when known
    std::string error;       // why not reachable (one line, no app text)
};

AtspiProbe probe_atspi();

} // namespace nd_linux
