#pragma once

// Captures a window's own contents (never the indicator or the consent dialog) as RGBA pixels.
// The engine blacks out secure fields and encodes PNG; the backend never does either.

#include "core/element.h"
#include "core/result.h"

#include <cstdint>
#include <vector>

namespace nd_core {

struct Image {
    std::int32_t width = 0;
    std::int32_t height = 0;
    std::vector<std::uint8_t> rgba; // width * height * 4, row-major
};

class Capture {
public:
    virtual ~Capture() = default;
    virtual Result<Image> capture_window(const WindowInfo&) = 0;
};

} // namespace nd_core
