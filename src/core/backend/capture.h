#pragma once

// Captures a window's own contents (never the indicator or the consent dialog) as RGBA pixels.
// The engine blacks out secure fields and encodes PNG; the backend never does either.

#include "core/encode/image.h"
#include "core/model/element.h"
#include "core/result.h"

namespace nd_core {

class Capture {
public:
    virtual ~Capture() = default;
    virtual Result<Image> capture_window(const WindowInfo&) = 0;
};

} // namespace nd_core
