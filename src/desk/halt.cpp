#include "desk/halt.h"

namespace nd_desk {

void Halt::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_halted = true;
        ++m_epoch;
    }
    m_wake.notify_all();
}

void Halt::resume()
{
    std::lock_guard lock(m_mutex);
    m_halted = false;
}

void Halt::wake_all()
{
    {
        // Taking the lock orders the waker's flag store before a sleeper's predicate check.
        std::lock_guard lock(m_mutex);
    }
    m_wake.notify_all();
}

} // namespace nd_desk
