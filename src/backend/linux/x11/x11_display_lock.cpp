#include "backend/linux/x11/x11_display_lock.h"

#include "core/runtime_dir.h"

namespace nd_linux {

std::string DisplayLock::path_for(const std::string& display_name)
{
    return nd_core::private_runtime_dir() + "/takeover-" + nd_core::display_file_part(display_name) + ".lock";
}

nd_core::Result<DisplayLock> DisplayLock::take(const std::string& display_name)
{
    // A directory someone else made (in /tmp) could let them hold our lock forever: refused.
    TRY_VOID(nd_core::ensure_private_runtime_dir());
    DisplayLock lock;
    lock.m_lock = TRY(nd_core::FileLock::take(path_for(display_name),
        {.what = "the lock file", .busy = "another driver holds the takeover on this display"}));
    return lock;
}

} // namespace nd_linux
