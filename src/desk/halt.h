#pragma once

// safety_stop and safety_resume (docs/desk.md): a halt stops every call in flight and refuses new
// ones until resumed. Calls do not poll a global flag blindly: each takes a StopToken when it
// starts, which reports stopped once a halt began after that moment or the call's own client went
// away (its connection closed). Long waits sleep on the halt's condition variable, so a stop ends
// them at once rather than at their next poll.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace nd_desk {

class Halt {
public:
    void stop();
    void resume();
    bool halted() const { return m_halted.load(); }
    // Bumped by every stop: a token remembers the value it started with.
    std::uint64_t epoch() const { return m_epoch.load(); }

    // Wakes every sleeper (a stop, or a client that went away).
    void wake_all();

    // Sleeps until `until`, or until woken and `stopped()` says so. True when it slept the whole way.
    template<typename Pred>
    bool sleep_until(std::chrono::steady_clock::time_point until, Pred stopped)
    {
        std::unique_lock lock(m_mutex);
        return !m_wake.wait_until(lock, until, [&] { return stopped(); });
    }

private:
    std::atomic<bool> m_halted{false};
    std::atomic<std::uint64_t> m_epoch{0};
    std::mutex m_mutex;
    std::condition_variable m_wake;
};

class StopToken {
public:
    StopToken() = default;
    // `client_gone` is set by the connection's watcher when the client closes during the call.
    StopToken(Halt& halt, const std::atomic<bool>* client_gone) : m_halt(&halt), m_epoch(halt.epoch()), m_gone(client_gone) {}

    bool stopped() const
    {
        return (m_halt && (m_halt->halted() || m_halt->epoch() != m_epoch)) || (m_gone && m_gone->load());
    }
    // Sleeps for `d` unless stopped first; false when stopped.
    bool sleep_for(std::chrono::milliseconds d) const
    {
        if (stopped())
            return false;
        if (!m_halt)
            return true;
        return m_halt->sleep_until(std::chrono::steady_clock::now() + d, [this] { return stopped(); }) && !stopped();
    }

private:
    Halt* m_halt = nullptr;
    std::uint64_t m_epoch = 0;
    const std::atomic<bool>* m_gone = nullptr;
};

} // namespace nd_desk
