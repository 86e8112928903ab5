#include "desk/script/run_owner.h"

#include "desk/script/script_run.h"

namespace nd_desk {

bool RunOwner::wait_free(std::unique_lock<std::mutex>& lock, const std::string& agent) const
{
    return m_released.wait_for(lock, HANDOFF_WAIT, [&] { return !m_agent || *m_agent == agent; });
}

bool RunOwner::claim(const std::string& agent, std::chrono::steady_clock::time_point deadline, std::string& busy)
{
    std::unique_lock lock(m_mutex);
    if (!wait_free(lock, agent)) {
        busy = busy_text();
        return false;
    }
    m_agent = agent;
    m_deadline = deadline;
    return true;
}

void RunOwner::release(const std::string& agent)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_agent != agent)
            return;
        m_agent.reset();
    }
    m_released.notify_all();
}

bool RunOwner::may_act(const std::string& agent, std::string& busy) const
{
    std::unique_lock lock(m_mutex);
    if (wait_free(lock, agent))
        return true;
    busy = busy_text();
    return false;
}

std::string RunOwner::busy_text() const
{
    using namespace std::chrono;
    // The deadline plus the kill grace and the pipes' half second: when the desk is free at the latest.
    const auto left = duration_cast<seconds>(m_deadline - steady_clock::now()).count() + 3;
    return "the desk is running a script (" + *m_agent + ") for at most " + std::to_string(std::max<long long>(left, 1)) +
           " s more; reads pass meanwhile, and input waits for it: retry when it has answered";
}

} // namespace nd_desk
