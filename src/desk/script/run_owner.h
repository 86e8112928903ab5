#pragma once

// Who owns the desk while a script runs. One run at a time: while it runs, its own desk calls
// (those that carry its agent id) pass, reads from anyone pass, and other agents' verbs that change
// the desktop, and a second script_run, are refused with the running one's name and how long it may
// still run. Thread-safe.

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

namespace nd_desk {

class RunOwner {
public:
    // Claims the desk for a run until release(); false (and `busy` says why) when a run holds it.
    bool claim(const std::string& agent, std::chrono::steady_clock::time_point deadline, std::string& busy);
    void release(const std::string& agent);
    // Whether `agent` may change the desktop now; when not, `busy` says why.
    bool may_act(const std::string& agent, std::string& busy) const;

private:
    std::string busy_text() const;

    mutable std::mutex m_mutex;
    std::optional<std::string> m_agent;
    std::chrono::steady_clock::time_point m_deadline{};
};

} // namespace nd_desk
