#pragma once

// The whole screen, for the desk's verbs (screen, shot, still, wait): its size, a capture of all of
// it (or a rectangle), and a cheap fingerprint of the windows it shows. Owner: the backend; null
// where a backend has no screen of its own (the contract tools never need it).

#include "core/backend/capture.h"
#include "core/result.h"

#include <cstdint>

namespace nd_core {

struct ScreenSize {
    std::int32_t width = 0;
    std::int32_t height = 0;
};

class Screen {
public:
    virtual ~Screen() = default;
    virtual Result<ScreenSize> size() = 0;
    // The screen's pixels in the rectangle (screen coordinates, clipped to the screen), as RGBA.
    virtual Result<Image> capture(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h) = 0;
    // Changes whenever the set, order, titles or geometry of the shown top-level windows change;
    // costs far less than listing them (one or two server round trips on X11).
    virtual Result<std::uint64_t> window_fingerprint() = 0;
    // Whether capture() runs on a connection of its own, so that one thread may capture while
    // another uses the backend's other parts (size() and window_fingerprint() do not; nor may two
    // captures run at once). The desk then captures under a lock of its own (desk.h).
    virtual bool captures_apart() const { return false; }
};

} // namespace nd_core
