#include "backend/linux/x11/x11_display_lock.h"

#include "core/runtime_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

DisplayLock::DisplayLock(DisplayLock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }

DisplayLock& DisplayLock::operator=(DisplayLock&& other) noexcept
{
    if (this != &other) {
        release();
        m_fd = other.m_fd;
        other.m_fd = -1;
    }
    return *this;
}

std::string DisplayLock::path_for(const std::string& display_name)
{
    return nd_core::private_runtime_dir() + "/takeover-" + nd_core::display_file_part(display_name) + ".lock";
}

nd_core::Result<DisplayLock> DisplayLock::take(const std::string& display_name)
{
    // A directory someone else made (in /tmp) could let them hold our lock forever: refused.
    TRY_VOID(nd_core::ensure_private_runtime_dir());
    const std::string path = path_for(display_name);
    DisplayLock lock;
    lock.m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (lock.m_fd < 0)
        return make_error(ErrorCode::backend_unavailable, "cannot open the lock file " + path + ": " + std::strerror(errno));
    if (::flock(lock.m_fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            return make_error(ErrorCode::backend_unavailable, "another driver holds the takeover on this display");
        return make_error(ErrorCode::backend_unavailable, "cannot lock " + path + ": " + std::strerror(errno));
    }
    return lock;
}

void DisplayLock::release()
{
    if (m_fd >= 0) {
        ::close(m_fd); // closing the only descriptor of the open file releases the flock
        m_fd = -1;
    }
}

} // namespace nd_linux
