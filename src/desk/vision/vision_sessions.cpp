#include "desk/vision/vision_sessions.h"

#include <algorithm>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

std::string VisionSessions::default_name(const std::string& agent_id) const
{
    std::string name = agent_id.empty() ? std::string("default") : "agent:" + agent_id;
    if (auto it = m_default_generation.find(agent_id); it != m_default_generation.end())
        name += "#" + std::to_string(it->second + 1);
    return name;
}

nd_core::Result<std::string> VisionSessions::name_for(const std::optional<std::string>& session, const std::string& agent_id)
{
    std::lock_guard lock(m_mutex);
    if (!session) {
        // A default whose name was also ended as a named session moves on past it.
        for (;;) {
            auto name = default_name(agent_id);
            if (!m_ended.contains(name))
                return name;
            ++m_default_generation[agent_id];
        }
    }
    if (session->empty() || session->size() > MAX_NAME_BYTES)
        return make_error(ErrorCode::invalid_arguments,
            "session: must be 1 to " + std::to_string(MAX_NAME_BYTES) + " bytes, or left out for your default session");
    if (m_ended.contains(*session))
        return make_error(ErrorCode::invalid_arguments,
            "session: \"" + *session + "\" was ended with computer_end and cannot be used again; name a new session, or "
            "leave session out");
    return *session;
}

VisionSession VisionSessions::get(const std::string& name)
{
    std::lock_guard lock(m_mutex);
    m_used[name] = ++m_clock;
    if (auto it = m_sessions.find(name); it != m_sessions.end())
        return it->second;
    return VisionSession{name, {}, std::nullopt};
}

void VisionSessions::put(VisionSession session)
{
    std::lock_guard lock(m_mutex);
    if (m_ended.contains(session.name))
        return; // ended while the call ran: the end wins
    if (session.shot)
        m_latest_shot = session.shot;
    m_used[session.name] = ++m_clock;
    m_sessions[session.name] = std::move(session);
    while (m_sessions.size() > MAX_SESSIONS) {
        auto oldest = std::min_element(m_sessions.begin(), m_sessions.end(),
            [&](const auto& a, const auto& b) { return m_used[a.first] < m_used[b.first]; });
        m_used.erase(oldest->first);
        m_sessions.erase(oldest);
    }
}

void VisionSessions::put_shot(const std::string& name, const VisionShot& shot)
{
    std::unique_lock lock(m_mutex);
    if (m_ended.contains(name))
        return;
    auto it = m_sessions.find(name);
    if (it == m_sessions.end()) {
        lock.unlock();
        put(VisionSession{name, {}, shot});
        return;
    }
    it->second.shot = shot;
    m_latest_shot = shot;
    m_used[name] = ++m_clock;
}

bool VisionSessions::end(const std::string& name)
{
    std::lock_guard lock(m_mutex);
    const bool had = m_sessions.erase(name) > 0;
    m_used.erase(name);
    m_ended.insert(name);
    return had;
}

std::optional<VisionShot> VisionSessions::any_shot()
{
    std::lock_guard lock(m_mutex);
    return m_latest_shot;
}

} // namespace nd_desk
