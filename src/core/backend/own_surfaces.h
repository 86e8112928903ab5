#pragma once

// The windows nish programs show that only the person may answer: the consent dialog, the takeover
// indicator (its frame and label, which stand for the person's control) and its Continue button.
// Synthetic input from any nish process must never land on one, whichever process showed it (a
// shuttle daemon must not click nish-driver's consent dialog, nor nish-driver its own). Every input
// path asks here before it sends (core/engine/own_surface_guard.h); the guard refuses with
// reserved_for_person and never falls back to the window underneath.
//
// Owner: the backend; null where a backend shows no such windows. Not thread-safe: callers hold the
// same lock as for the backend's other parts. Answers come from the display server as it is now
// (on X11, a mark on the windows, docs/linux-x11.md); an error (timed_out, backend_unavailable)
// means the question could not be answered, and the guard then refuses the input.

#include "core/backend/synthetic_input.h"
#include "core/model/element.h"
#include "core/result.h"

#include <optional>
#include <string>

namespace nd_core {

struct OwnSurface {
    std::string kind; // consent_dialog, takeover_indicator, continue_button: a bounded identifier
    Frame frame;      // screen coordinates
};

class OwnSurfaces {
public:
    virtual ~OwnSurfaces() = default;
    // The surface that is topmost at the screen point: the first shown window there, topmost first,
    // decides (ours: that surface; another program's: nullopt).
    virtual Result<std::optional<OwnSurface>> at(Point) = 0;
    // The surface that holds the keyboard focus, if one does.
    virtual Result<std::optional<OwnSurface>> focused() = 0;
};

} // namespace nd_core
