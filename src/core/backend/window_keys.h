#pragma once

// Background keys (docs/desk-background.md): a key combination delivered to one window as key
// events sent to it, without raising it, focusing it or touching the person's keyboard. Only the
// toolkits that read such events take them (core/model/background_routes.h); the caller asks
// Backend::background_routes first. The keys land wherever the window's own focus is.

#include "core/model/element.h"
#include "core/result.h"

#include <string>
#include <vector>

namespace nd_core {

class WindowKeys {
public:
    virtual ~WindowKeys() = default;
    // Keysym names as parse_key_combination gives them ("Control_L", "s"): the modifiers held
    // (Shift, Control, Alt, Super) go into each key's state, the other keys are pressed and
    // released in order. Errors: invalid_arguments for a keysym no key of the keyboard produces,
    // window_target_not_found when the window is gone.
    virtual Result<void> send_keys(const WindowInfo&, const std::vector<std::string>& keysyms) = 0;
};

} // namespace nd_core
