#include "backend/linux/x11/x11_probe.h"

#include <exception>

namespace nd_linux {

X11Probe probe_x11(const std::string& name, std::chrono::milliseconds timeout)
{
    X11Probe probe;
    probe.display = name;
    if (probe.display.empty()) {
        const char* env = std::getenv("DISPLAY");
        probe.display = env ? env : "";
    }
    try {
        auto display = X11Display::open(probe.display, timeout);
        if (!display.ok()) {
            probe.error = display.error().message;
            return probe;
        }
        probe.reachable = true;
        probe.local = display.value()->is_local();
        probe.extensions = display.value()->extensions();
    } catch (const std::exception& e) {
        // Only allocation or thread creation can throw here; the doctor still gets an answer.
        probe.reachable = false;
        probe.error = std::string("probing the X display failed: ") + e.what();
    }
    return probe;
}

} // namespace nd_linux
