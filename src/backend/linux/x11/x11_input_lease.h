#pragma once

// An input lease on X11 (core/backend/input_lease.h): the per-display takeover lock, held for one
// act of the desk. A nish-driver takeover holds the same lock for as long as its indicator shows,
// so the desk never sends XTEST input into a takeover, nor a driver takes over in the middle of a
// desk act; the kernel lets go of the lock if this process dies.

#include "backend/linux/x11/x11_display_lock.h"
#include "core/backend/input_lease.h"

#include <memory>
#include <string>

namespace nd_linux {

class X11InputLease final : public nd_core::InputLease {
public:
    // backend_unavailable "another driver holds the takeover on this display" while one does.
    static nd_core::Result<std::unique_ptr<nd_core::InputLease>> take(const std::string& display_name);

private:
    explicit X11InputLease(DisplayLock lock) : m_lock(std::move(lock)) {}
    DisplayLock m_lock;
};

} // namespace nd_linux
