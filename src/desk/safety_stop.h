#pragma once

// The safety stop: safety_stop and safety_resume (docs/desk.md; seed 003 says they "halt every
// call" and "lift the halt") stop every call in flight and refuse new ones until resumed. One name
// for the concept in code: SafetyStop, and the SafetyStopToken each call takes when it starts,
// which reports stopped once a stop began after that moment or the call's own client went away
// (its connection closed). The contract's error code for it stays stopped_by_kill_switch. Long
// waits sleep on the stop's condition variable, so a stop ends them at once rather than at their
// next poll.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace nd_desk {

// What a call refused during a stop answers: the daemon's verbs and tools, and service calls.
inline constexpr const char* STOPPED_REFUSAL = "stopped by the user: nothing runs until `shuttle resume`";

class SafetyStop {
public:
    void stop();
    void resume();
    bool stopped() const { return m_stopped.load(); }
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
    std::atomic<bool> m_stopped{false};
    std::atomic<std::uint64_t> m_epoch{0};
    std::mutex m_mutex;
    std::condition_variable m_wake;
};

class SafetyStopToken {
public:
    SafetyStopToken() = default;
    // `client_gone` is set by the connection's watcher when the client closes during the call.
    SafetyStopToken(SafetyStop& stop, const std::atomic<bool>* client_gone)
        : m_safety_stop(&stop), m_epoch(stop.epoch()), m_gone(client_gone)
    {
    }

    bool stopped() const
    {
        return (m_safety_stop && (m_safety_stop->stopped() || m_safety_stop->epoch() != m_epoch)) ||
               (m_gone && m_gone->load());
    }
    // Sleeps for `d` unless stopped first; false when stopped.
    bool sleep_for(std::chrono::milliseconds d) const
    {
        if (stopped())
            return false;
        if (!m_safety_stop)
            return true;
        return m_safety_stop->sleep_until(std::chrono::steady_clock::now() + d, [this] { return stopped(); }) && !stopped();
    }

private:
    SafetyStop* m_safety_stop = nullptr;
    std::uint64_t m_epoch = 0;
    const std::atomic<bool>* m_gone = nullptr;
};

} // namespace nd_desk
