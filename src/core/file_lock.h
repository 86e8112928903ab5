#pragma once

// An exclusive lock (flock) on a file of its own, held while its owner lives; the kernel lets go
// when the process dies, so a holder that crashed never blocks the next one. The file is made
// 0600 when missing, and a symbolic link at its path is refused, never followed. A file that is
// there but not ours to write (a socket's group shares its directory) is opened to read, which
// locks as well. Its owners: a display's takeover lock (backend/linux/x11/x11_display_lock.h) and
// the start lock beside a daemon's socket (mcp/unix_socket.h).

#include "core/result.h"

#include <chrono>
#include <string>
#include <string_view>

namespace nd_core {

class FileLock {
public:
    FileLock() = default;
    ~FileLock() { release(); }
    FileLock(FileLock&&) noexcept;
    FileLock& operator=(FileLock&&) noexcept;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

    // What a refusal says, all backend_unavailable: `busy` when another holder kept the lock past
    // the wait; else "cannot open <what> <path>: <reason><open_hint>" or "cannot lock <what>
    // <path>: <reason>".
    struct Texts {
        std::string_view what;
        std::string busy;
        std::string_view open_hint = {};
    };
    // Takes the lock of `path`, waiting up to `wait` (zero: not at all) for another holder to let go.
    static Result<FileLock> take(const std::string& path, const Texts&, std::chrono::milliseconds wait = {});

    bool held() const { return m_fd >= 0; }
    void release();

private:
    int m_fd = -1;
};

} // namespace nd_core
