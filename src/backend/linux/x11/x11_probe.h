#pragma once

// What the doctor learns about the X display: whether it answers, whether it is local and which
// extensions it offers. A short connection of its own, opened and closed here.

#include "backend/linux/x11/x11_display.h"

#include <string>

namespace nd_linux {

struct X11Probe {
    bool reachable = false;
    bool local = false;
    X11Extensions extensions;
    std::string display; // the name probed (empty when DISPLAY was unset)
    std::string error;   // why it is not reachable; empty when it is
};

// Never throws and never waits longer than `timeout` (a hung server gives reachable == false).
X11Probe probe_x11(const std::string& name = {}, std::chrono::milliseconds timeout = std::chrono::milliseconds(1000));

} // namespace nd_linux
