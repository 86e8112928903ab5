#pragma once

// Turns the MCP server's per-call cancel flag (CallContext::cancelled, an atomic the reader thread
// sets on notifications/cancelled or when the client goes away) into a descriptor that a wire call
// can wait on: an eventfd that becomes readable once the flag is set.
//
// The flag offers no callback, so a small watcher thread looks at it every POLL_INTERVAL until the
// call ends; a cancel therefore reaches the daemon within that interval. The watcher lives exactly
// as long as this object: the destructor stops and joins it, then closes the eventfd.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace nd_desk {

class CancelWake {
public:
    static constexpr std::chrono::milliseconds POLL_INTERVAL{10};

    // `flag` may be null: nothing can cancel the call, and fd() is -1.
    explicit CancelWake(const std::atomic<bool>* flag);
    ~CancelWake();
    CancelWake(const CancelWake&) = delete;
    CancelWake& operator=(const CancelWake&) = delete;

    // The eventfd to pass as a wire call's wake_fd, or -1 (no flag, or no eventfd could be made:
    // then the call cannot be cancelled, which ok() reports).
    int fd() const { return m_fd; }
    bool ok() const { return m_flag == nullptr || m_fd >= 0; }

private:
    void watch();

    const std::atomic<bool>* m_flag;
    int m_fd = -1;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_done = false;
    std::thread m_thread;
};

} // namespace nd_desk
