#pragma once

// Window-manager requests for the desk's focus and close verbs: activate a window, close it as its
// close button would, and read which window is active. No synthetic input is involved (on X11 these
// are EWMH client messages to the root), so they work where XTEST does not. Requests do not wait:
// the caller polls active_window() or the window list, sleeping without holding the backend, so a
// stop ends the wait at once. Owner: the backend; not thread-safe (the desk serialises calls).
//
// A backend offers these through DeskParts, an interface it may implement next to Backend; the desk
// finds it with dynamic_cast, so backends without it (the mock) need no change.

#include "core/model/element.h"
#include "core/result.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace nd_core {

class WindowControl {
public:
    virtual ~WindowControl() = default;
    // Asks the window manager to raise and focus the window. Errors: window_target_not_found (no
    // such window), action_failed (the server refused), backend_unavailable, timed_out.
    virtual Result<void> request_activate(const WindowInfo&) = 0;
    // Asks the window manager to close the window (the app may still ask to confirm).
    virtual Result<void> request_close(const WindowInfo&) = 0;
    // The window the window manager names active now; 0 when none.
    virtual Result<std::int64_t> active_window() = 0;
};

class DeskParts {
public:
    virtual ~DeskParts() = default;
    // Null when the backend cannot ask its window manager.
    virtual WindowControl* window_control() = 0;
    // The raw key binding of each of `elements` (as a read of `window` returned them, keys intact)
    // that has actions, "" for the others and where the app names none: one string per element, in
    // one batch under `deadline`. On Linux the AT-SPI binding of the first action, such as
    // "<Alt>o;<Alt>f:o;<Control>o" (mnemonic; full path; accelerator), never parsed here.
    virtual Result<std::vector<std::string>> key_bindings(const WindowInfo& window, const std::vector<Element>& elements,
        std::chrono::milliseconds deadline) = 0;
};

} // namespace nd_core
