#include "driver/control/approval_broker.h"

#include <algorithm>

namespace nd_driver {

ApprovalBroker::ApprovalBroker(Send send, Alive output_alive, ApprovalBrokerOptions options)
    : m_send(std::move(send))
    , m_output_alive(std::move(output_alive))
    , m_options(options)
{
}

ApprovalOutcome ApprovalBroker::ask(const ApprovalAsk& a)
{
    std::int64_t id = 0;
    {
        // The stop check and the registration share one lock hold with cancel(), so a kill switch
        // raised before this point is seen here and one raised after finds the entry.
        std::lock_guard lock(m_mutex);
        if (m_closed)
            return ApprovalOutcome::no_host;
        if (a.stopped && a.stopped())
            return ApprovalOutcome::stopped;
        id = m_next++;
        m_pending[id] = Pending{a.session, State::waiting};
    }
    if (!m_send(approval_request_line(id, a.session, a.tool, a.description)))
        close();
    const auto deadline = std::chrono::steady_clock::now() + m_options.timeout;
    std::unique_lock lock(m_mutex);
    auto it = m_pending.find(id);
    for (;;) {
        if (it->second.state != State::waiting)
            break;
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline)
            break;
        m_changed.wait_until(lock, std::min(deadline, now + m_options.liveness_interval));
        if (it->second.state == State::waiting && m_output_alive) {
            lock.unlock();
            const bool alive = m_output_alive();
            lock.lock();
            if (!alive) {
                lock.unlock();
                close();
                lock.lock();
            }
        }
    }
    const State state = it->second.state;
    m_pending.erase(it);
    switch (state) {
    case State::approved: return ApprovalOutcome::approved;
    case State::denied: return ApprovalOutcome::denied;
    case State::stopped: return ApprovalOutcome::stopped;
    case State::closed: return ApprovalOutcome::no_host;
    case State::waiting: break;
    }
    return ApprovalOutcome::timed_out;
}

bool ApprovalBroker::answer(std::int64_t request, bool approve)
{
    std::lock_guard lock(m_mutex);
    auto it = m_pending.find(request);
    if (it == m_pending.end() || it->second.state != State::waiting)
        return false;
    it->second.state = approve ? State::approved : State::denied;
    m_changed.notify_all();
    return true;
}

void ApprovalBroker::cancel(std::string_view session)
{
    std::lock_guard lock(m_mutex);
    for (auto& [id, p] : m_pending)
        if (p.state == State::waiting && (session.empty() || p.session == session))
            p.state = State::stopped;
    m_changed.notify_all();
}

void ApprovalBroker::close()
{
    std::lock_guard lock(m_mutex);
    m_closed = true;
    for (auto& [id, p] : m_pending)
        if (p.state == State::waiting)
            p.state = State::closed;
    m_changed.notify_all();
}

std::string approval_request_line(std::int64_t request, std::string_view session, std::string_view tool,
    const nlohmann::json& description)
{
    // Ordered, so the line starts with its event as every other line on the pipe does.
    nlohmann::ordered_json line = {{"event", "approval.request"}, {"request", request},
        {"session", session.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(std::string(session))},
        {"tool", std::string(tool)}, {"description", nlohmann::ordered_json(description)}};
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace nd_driver
