#pragma once

// Background drag (docs/desk-background.md): left-button events delivered to one window, without
// raising it, focusing it or moving the person's pointer. Only the toolkits that read such events
// take them (core/model/background_routes.h, the "buttons" route); the caller asks
// Backend::background_routes first and drives the steps, so that a safety stop between two of them
// can still send the release.

#include "core/backend/synthetic_input.h"
#include "core/model/element.h"
#include "core/result.h"

namespace nd_core {

enum class WindowPointerEvent { press, motion, release };

class WindowPointer {
public:
    virtual ~WindowPointer() = default;
    // One event of the left button at `at`, a point of the desk inside the window's frame (the
    // backend makes it the window's own coordinates); motion and release carry the button as held.
    // A press and its release on a window that is not active must not make it active.
    // Errors: window_target_not_found when the window is gone.
    virtual Result<void> send_pointer(const WindowInfo&, WindowPointerEvent, Point at) = 0;
};

} // namespace nd_core
