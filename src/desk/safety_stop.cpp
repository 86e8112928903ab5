#include "desk/safety_stop.h"

namespace nd_desk {

void SafetyStop::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        ++m_epoch;
    }
    m_wake.notify_all();
}

void SafetyStop::resume()
{
    std::lock_guard lock(m_mutex);
    m_stopped = false;
}

void SafetyStop::wake_all()
{
    {
        // Taking the lock orders the waker's flag store before a sleeper's predicate check.
        std::lock_guard lock(m_mutex);
    }
    m_wake.notify_all();
}

} // namespace nd_desk
