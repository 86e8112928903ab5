#pragma once

// The CLIPBOARD selection as text. Never logged; the engine records lengths only.

#include "core/result.h"

#include <string>
#include <string_view>

namespace nd_core {

class Clipboard {
public:
    virtual ~Clipboard() = default;
    virtual Result<std::string> read_text() = 0;
    virtual Result<void> write_text(std::string_view) = 0;
    // Gives up what write_text() holds (on X11 the selection and the thread serving it) and wipes
    // the text; called when the session that wrote ends.
    virtual void release() {}
};

} // namespace nd_core
