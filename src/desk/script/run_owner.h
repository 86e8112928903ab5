#pragma once

// Who owns the desk while a script runs. One run at a time: while it runs, its own desk calls
// (those that carry its agent id) pass, reads from anyone pass, and other agents' verbs that change
// the desktop, and a second script_run, are refused with the running one's name and how long it may
// still run. A call that finds the desk held waits up to HANDOFF_WAIT for it first, so a call sent
// right after a run was cancelled or answered is not refused for the moments the run takes to end.
// Thread-safe.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>

namespace nd_desk {

inline constexpr std::chrono::milliseconds HANDOFF_WAIT{1000};

class RunOwner {
public:
    // Claims the desk for a run until release(); false (and `busy` says why) when a run holds it.
    bool claim(const std::string& agent, std::chrono::steady_clock::time_point deadline, std::string& busy);
    void release(const std::string& agent);
    // Whether `agent` may change the desktop now; when not, `busy` says why.
    bool may_act(const std::string& agent, std::string& busy) const;

private:
    std::string busy_text() const;

    // Waits (lock held) up to HANDOFF_WAIT for the desk to be free or held by `agent`.
    bool wait_free(std::unique_lock<std::mutex>&, const std::string& agent) const;

    mutable std::mutex m_mutex;
    mutable std::condition_variable m_released;
    std::optional<std::string> m_agent;
    std::chrono::steady_clock::time_point m_deadline{};
};

} // namespace nd_desk
