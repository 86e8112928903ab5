#pragma once

// Semantic (headless) actions on one element: the element's own actions, text and value interfaces
// and selection. Never moves the pointer, sends synthetic input, takes focus or raises a window.
// Elements are named by the values of a snapshot; the backend maps `key` back to its live handle
// and fails with element_not_found when it is gone.

#include "core/model/element.h"
#include "core/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

class Actuator {
public:
    virtual ~Actuator() = default;
    // Runs the element's own action by name (one of Element::actions).
    virtual Result<void> do_action(const WindowInfo&, const Element&, std::string_view action) = 0;
    // Replaces the element's text (EditableText) or value (Value).
    virtual Result<void> set_value(const WindowInfo&, const Element&, std::string_view value) = 0;
    // Inserts text at the caret, or appends when there is none (headless type_text).
    virtual Result<void> insert_text(const WindowInfo&, const Element&, std::string_view text) = 0;
    // Selects a tab, row or item through its parent's Selection.
    virtual Result<void> select(const WindowInfo&, const Element&) = 0;
    // Reads the element's current value live, for set_value readback.
    virtual Result<std::string> read_value(const WindowInfo&, const Element&) = 0;
    // Re-checks live whether the element is secure now.
    virtual Result<bool> is_secure_now(const WindowInfo&, const Element&) = 0;
    // The element's action names read live, asking for each name a bulk read left empty
    // (Chromium names its actions only when asked one by one).
    virtual Result<std::vector<std::string>> action_names(const WindowInfo&, const Element&) = 0;
    // Whether the element has the keyboard focus now, read live (a foreground type_text waits for
    // its click to have moved the focus before the first key).
    virtual Result<bool> is_focused_now(const WindowInfo&, const Element&) = 0;
    // Gives the element the keyboard focus inside its window (AT-SPI Component.GrabFocus). Unlike the
    // calls above it changes focus, so only a front that acts in the foreground (the desk's act
    // focus) calls it. A backend without it answers unsupported.
    virtual Result<void> grab_focus(const WindowInfo&, const Element&)
    {
        return make_error(ErrorCode::unsupported, "this backend cannot move the keyboard focus to an element");
    }
};

} // namespace nd_core
