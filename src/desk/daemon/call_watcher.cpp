#include "desk/daemon/call_watcher.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace nd_desk {

CallWatcher::CallWatcher(SafetyStop& stop) : m_safety_stop(stop)
{
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    m_wake = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m_epoll >= 0 && m_wake >= 0) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = m_wake;
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &ev);
        m_thread = std::thread([this] { run(); });
    }
}

CallWatcher::~CallWatcher()
{
    m_stop = true;
    if (m_wake >= 0) {
        const std::uint64_t one = 1;
        [[maybe_unused]] auto n = ::write(m_wake, &one, sizeof one);
    }
    if (m_thread.joinable())
        m_thread.join();
    if (m_epoll >= 0)
        ::close(m_epoll);
    if (m_wake >= 0)
        ::close(m_wake);
}

void CallWatcher::watch(int fd, std::atomic<bool>* gone)
{
    {
        std::lock_guard lock(m_mutex);
        m_watched[fd] = gone;
    }
    epoll_event ev{};
    ev.events = EPOLLRDHUP | EPOLLHUP | EPOLLERR;
    ev.data.fd = fd;
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
}

void CallWatcher::unwatch(int fd)
{
    ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
    std::lock_guard lock(m_mutex);
    m_watched.erase(fd);
}

void CallWatcher::run()
{
    epoll_event events[32];
    while (!m_stop.load()) {
        const int n = ::epoll_wait(m_epoll, events, 32, 500);
        bool woke_any = false;
        for (int i = 0; i < n; ++i) {
            if (events[i].data.fd == m_wake)
                continue;
            std::lock_guard lock(m_mutex);
            auto it = m_watched.find(events[i].data.fd);
            if (it == m_watched.end())
                continue;
            if (it->second)
                it->second->store(true);
            woke_any = true;
            // Level-triggered: stop reporting this one; the call's thread unwatches it when done.
            ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, events[i].data.fd, nullptr);
            it->second = nullptr;
        }
        if (woke_any)
            m_safety_stop.wake_all();
    }
}

} // namespace nd_desk
