#include "backend/linux/x11/x11_input_lease.h"

namespace nd_linux {

nd_core::Result<std::unique_ptr<nd_core::InputLease>> X11InputLease::take(const std::string& display_name)
{
    auto lock = TRY(DisplayLock::take(display_name));
    return std::unique_ptr<nd_core::InputLease>(new X11InputLease(std::move(lock)));
}

} // namespace nd_linux
