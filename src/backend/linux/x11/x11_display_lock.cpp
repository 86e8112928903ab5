#include "backend/linux/x11/x11_display_lock.h"

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

namespace {

std::string lock_dir()
{
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime && runtime[0] == '/')
        return std::string(runtime) + "/nish-driver";
    return "/tmp/nish-driver-" + std::to_string(::getuid());
}

// ":99.0" -> "99.0"; anything but letters, digits, '.', '-' and '_' becomes '_'.
std::string display_file_part(std::string name)
{
    if (name.empty()) {
        const char* env = std::getenv("DISPLAY");
        name = env ? env : "";
    }
    std::string out;
    for (char c : name) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
        out.push_back(plain ? c : '_');
    }
    while (!out.empty() && out.front() == '_')
        out.erase(out.begin());
    return out.empty() ? "default" : out;
}

} // namespace

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
    return lock_dir() + "/takeover-" + display_file_part(display_name) + ".lock";
}

nd_core::Result<DisplayLock> DisplayLock::take(const std::string& display_name)
{
    const std::string dir = lock_dir();
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return make_error(ErrorCode::backend_unavailable, "cannot make the lock directory " + dir + ": " + std::strerror(errno));
    struct stat st{};
    // A directory someone else made (in /tmp) could let them hold our lock forever: refuse it.
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid())
        return make_error(ErrorCode::backend_unavailable, "the lock directory " + dir + " is not a directory of this user's");
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
