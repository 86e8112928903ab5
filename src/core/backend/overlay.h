#pragma once

// The takeover indicator (§4.2, §4.3). The engine shows it before granting a takeover and hides it
// on every end of one; if the backend reports it gone, the takeover ends at once.

#include "core/result.h"

namespace nd_core {

class Overlay {
public:
    virtual ~Overlay() = default;
    virtual Result<void> show_indicator() = 0;
    virtual void set_paused(bool) = 0;
    virtual void hide_indicator() = 0;
    // False when another client unmapped or destroyed it, or its display connection failed.
    virtual bool indicator_alive() = 0;
};

} // namespace nd_core
