#pragma once

// Synthetic pointer and keyboard (XTEST on X11), used only in a takeover session. The engine logs
// every target before it calls these (input_log.h) and checks for the person's input between calls.

#include "core/model/element.h"
#include "core/result.h"

#include <string_view>

namespace nd_core {

struct Point {
    std::int32_t x = 0;
    std::int32_t y = 0;
    bool operator==(const Point&) const = default;
};

enum class MouseButton : std::uint8_t { left = 1, middle = 2, right = 3 };

class SyntheticInput {
public:
    virtual ~SyntheticInput() = default;
    virtual Result<void> move_pointer(Point) = 0;
    virtual Result<void> button(MouseButton, bool press) = 0;
    // A key by its keysym name (e.g. "Return", "a", "Control_L").
    virtual Result<void> key(std::string_view keysym, bool press) = 0;
    // Types one Unicode character (the backend picks the keys).
    virtual Result<void> type_char(char32_t) = 0;
    // Wheel notches: positive dy scrolls down, positive dx right.
    virtual Result<void> scroll(std::int32_t dx, std::int32_t dy) = 0;
    virtual Result<void> raise_window(const WindowInfo&) = 0;
    virtual Result<Point> pointer_position() = 0;
};

} // namespace nd_core
