#include "mcp/request_broker.h"

#include <algorithm>

namespace nd_mcp {

RequestBroker::RequestBroker(Send send, Alive output_alive, std::chrono::milliseconds liveness_interval)
    : m_send(std::move(send))
    , m_output_alive(std::move(output_alive))
    , m_liveness_interval(liveness_interval)
{
}

RequestOutcome RequestBroker::ask(std::string_view key, const RequestLine& line, std::chrono::milliseconds timeout,
    const std::function<bool()>& stopped)
{
    std::int64_t id = 0;
    {
        // The stop check and the registration share one lock hold with cancel(), so a stop raised
        // before this point is seen here and one raised after finds the entry.
        std::lock_guard lock(m_mutex);
        if (m_closed)
            return RequestOutcome::closed;
        if (stopped && stopped())
            return RequestOutcome::stopped;
        id = m_next++;
        m_pending[id] = Pending{std::string(key), State::waiting};
    }
    if (!m_send(line(id)))
        close();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::unique_lock lock(m_mutex);
    auto it = m_pending.find(id);
    for (;;) {
        if (it->second.state != State::waiting)
            break;
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline)
            break;
        m_changed.wait_until(lock, std::min(deadline, now + m_liveness_interval));
        if (it->second.state != State::waiting)
            continue;
        // Outside the lock: the checks may take the caller's own locks or poll a descriptor.
        lock.unlock();
        const bool alive = !m_output_alive || m_output_alive();
        const bool stop = stopped && stopped();
        if (!alive)
            close();
        lock.lock();
        if (stop && it->second.state == State::waiting)
            it->second.state = State::stopped;
    }
    const State state = it->second.state;
    m_pending.erase(it);
    switch (state) {
    case State::yes: return RequestOutcome::yes;
    case State::no: return RequestOutcome::no;
    case State::stopped: return RequestOutcome::stopped;
    case State::closed: return RequestOutcome::closed;
    case State::waiting: break;
    }
    return RequestOutcome::timed_out;
}

bool RequestBroker::answer(std::int64_t request, bool yes)
{
    std::lock_guard lock(m_mutex);
    auto it = m_pending.find(request);
    if (it == m_pending.end() || it->second.state != State::waiting)
        return false;
    it->second.state = yes ? State::yes : State::no;
    m_changed.notify_all();
    return true;
}

void RequestBroker::cancel(std::string_view key)
{
    std::lock_guard lock(m_mutex);
    for (auto& [id, p] : m_pending)
        if (p.state == State::waiting && (key.empty() || p.key == key))
            p.state = State::stopped;
    m_changed.notify_all();
}

void RequestBroker::close()
{
    std::lock_guard lock(m_mutex);
    m_closed = true;
    for (auto& [id, p] : m_pending)
        if (p.state == State::waiting)
            p.state = State::closed;
    m_changed.notify_all();
}

} // namespace nd_mcp
