#pragma once

// The takeover indicator (§4.2, §4.3). The engine shows it before granting a takeover and hides it
// on every end of one; if the backend reports it gone, the takeover ends at once.

#include "core/result.h"

#include <functional>

namespace nd_core {

class Overlay {
public:
    virtual ~Overlay() = default;
    virtual Result<void> show_indicator() = 0;
    virtual void set_paused(bool) = 0;
    virtual void hide_indicator() = 0;
    // False when another client unmapped or destroyed it, or its display connection failed.
    virtual bool indicator_alive() = 0;
    // The person clicked Continue on the paused indicator: §4.3's rule (not a SendEvent, no driver
    // button press in the last 1.5 s) and, on X11, the person's own device with no program's
    // synthetic press either (docs/linux-x11.md, "Who may answer"). Called from the overlay's own thread;
    // the driver wires it to Engine::resume. Backends without a Continue button never call it.
    virtual void set_continue_handler(std::function<void()>) {}
};

} // namespace nd_core
