#include "core/file_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace nd_core {

FileLock::FileLock(FileLock&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept
{
    if (this != &other) {
        release();
        m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
}

Result<FileLock> FileLock::take(const std::string& path, const Texts& texts, std::chrono::milliseconds wait)
{
    auto failed = [&](std::string_view verb, int err, std::string_view hint = {}) {
        return make_error(ErrorCode::backend_unavailable, std::string(verb) + " " + std::string(texts.what) + " " +
            path + ": " + std::strerror(err) + std::string(hint));
    };
    FileLock lock;
    lock.m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (lock.m_fd < 0 && errno == EACCES)
        lock.m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (lock.m_fd < 0)
        return failed("cannot open", errno, texts.open_hint);
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (::flock(lock.m_fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        if (err == EINTR)
            continue;
        if (err != EWOULDBLOCK)
            return failed("cannot lock", err);
        if (std::chrono::steady_clock::now() >= deadline)
            return make_error(ErrorCode::backend_unavailable, texts.busy);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return lock;
}

void FileLock::release()
{
    if (m_fd >= 0)
        ::close(std::exchange(m_fd, -1)); // the only descriptor of the open file: the flock goes with it
}

} // namespace nd_core
