#pragma once

// The per-display takeover lock (docs/architecture.md, "One engine per display"). The input watcher
// tells the person's input from the driver's by the XTEST device it came through, so two programs
// driving synthetic input on one X display would each read the other's as the person's. Whoever
// turns a takeover on first holds an exclusive flock on
// $XDG_RUNTIME_DIR/nish-driver/takeover-<display>.lock (else /tmp/nish-driver-<uid>/...), which
// the kernel releases when the process dies; a second one is refused until the first lets go.

#include "core/file_lock.h"
#include "core/result.h"

#include <string>

namespace nd_linux {

class DisplayLock {
public:
    // Takes the lock of `display_name` (empty: $DISPLAY) without waiting. Errors:
    // backend_unavailable "another driver holds the takeover on this display", or the lock file
    // could not be made (its path and errno in the message).
    static nd_core::Result<DisplayLock> take(const std::string& display_name);

    // The lock file of a display: the directory is made private (0700) on the way.
    static std::string path_for(const std::string& display_name);

    bool held() const { return m_lock.held(); }
    void release() { m_lock.release(); }

private:
    nd_core::FileLock m_lock; // nd_core's file lock: the kernel lets go when the process dies
};

} // namespace nd_linux
