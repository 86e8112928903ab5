#include "desk/mcp/cancel_wake.h"

#include <cstdint>
#include <sys/eventfd.h>
#include <system_error>
#include <unistd.h>

namespace nd_desk {

CancelWake::CancelWake(const std::atomic<bool>* flag) : m_flag(flag)
{
    if (!m_flag)
        return;
    m_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m_fd < 0)
        return;
    try {
        m_thread = std::thread([this] { watch(); });
    } catch (const std::system_error&) {
        ::close(m_fd);
        m_fd = -1;
    }
}

CancelWake::~CancelWake()
{
    {
        std::lock_guard lock(m_mutex);
        m_done = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    if (m_fd >= 0)
        ::close(m_fd);
}

void CancelWake::watch()
{
    std::unique_lock lock(m_mutex);
    while (!m_done) {
        if (m_flag->load(std::memory_order_relaxed)) {
            const std::uint64_t one = 1;
            [[maybe_unused]] auto n = ::write(m_fd, &one, sizeof one);
            return;
        }
        m_changed.wait_for(lock, POLL_INTERVAL);
    }
}

} // namespace nd_desk
