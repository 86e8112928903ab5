#pragma once

// Notices a client going away while its call runs: one thread waits in epoll for the peer's hang-up
// (EPOLLRDHUP) on every connection with a call in flight, sets that call's `gone` flag and wakes the
// safety stop's sleepers, so a long wait or still ends at once and the daemon cancels the call.

#include "desk/safety_stop.h"

#include <atomic>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace nd_desk {

class CallWatcher {
public:
    explicit CallWatcher(SafetyStop& stop);
    ~CallWatcher();
    CallWatcher(const CallWatcher&) = delete;
    CallWatcher& operator=(const CallWatcher&) = delete;

    bool ok() const { return m_epoll >= 0 && m_wake >= 0; }
    // Watches `fd` until unwatch(); `gone` must outlive the watch.
    void watch(int fd, std::atomic<bool>* gone);
    void unwatch(int fd);

private:
    void run();

    SafetyStop& m_safety_stop;
    int m_epoll = -1;
    int m_wake = -1;
    std::mutex m_mutex;
    std::unordered_map<int, std::atomic<bool>*> m_watched;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace nd_desk
