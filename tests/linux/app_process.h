#pragma once

// Starts a real app for a test in its own process group and stops exactly that group when the
// test ends. Tests run inside scripts/test-desktop, which sets DISPLAY and the AT-SPI bus.

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

extern char** environ;

namespace nd_test {

inline bool have_desktop() { return std::getenv("DISPLAY") && std::getenv("AT_SPI_BUS_ADDRESS"); }

#define NISH_REQUIRE_DESKTOP()                                                                       \
    do {                                                                                            \
        if (!nd_test::have_desktop())                                                               \
            GTEST_SKIP() << "needs the virtual test desktop (scripts/test-desktop run -- ...)";    \
    } while (0)

class AppProcess {
public:
    explicit AppProcess(std::vector<std::string> argv)
    {
        std::vector<char*> args;
        for (auto& a : argv)
            args.push_back(a.data());
        args.push_back(nullptr);
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attr, 0);
        if (posix_spawnp(&m_pid, args[0], nullptr, &attr, args.data(), environ) != 0)
            m_pid = -1;
        posix_spawnattr_destroy(&attr);
    }
    ~AppProcess() { stop(); }
    AppProcess(const AppProcess&) = delete;
    AppProcess& operator=(const AppProcess&) = delete;

    pid_t pid() const { return m_pid; }

    void stop()
    {
        if (m_pid <= 0)
            return;
        ::kill(-m_pid, SIGCONT);
        ::kill(-m_pid, SIGTERM);
        for (int i = 0; i < 100; ++i) {
            if (waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
                m_pid = -1;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        ::kill(-m_pid, SIGKILL);
        waitpid(m_pid, nullptr, 0);
        m_pid = -1;
    }

private:
    pid_t m_pid = -1;
};

// Polls `ready` every 50 ms until it holds or `timeout` passes.
inline bool wait_until(const std::function<bool()>& ready, std::chrono::milliseconds timeout)
{
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
        if (ready())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return ready();
}

} // namespace nd_test
