#pragma once

// Starts a real app for a test in its own process group and stops exactly that group when the
// test ends. Tests run inside scripts/test-desktop, which sets DISPLAY and the AT-SPI bus.

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

extern char** environ;

namespace nd_test {

// What a shell command prints on stdout (empty when it cannot start).
inline std::string command_output(const std::string& shell_command)
{
    std::string out;
    FILE* pipe = ::popen(shell_command.c_str(), "r");
    if (!pipe)
        return out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0)
        out.append(buf, n);
    ::pclose(pipe);
    return out;
}

inline bool have_desktop() { return std::getenv("DISPLAY") && std::getenv("AT_SPI_BUS_ADDRESS"); }

// Starts argv[0] (looked up in PATH) as the leader of a new process group, with `env` as its
// environment (this process's when null) and, when quiet, its output sent to /dev/null. Returns
// the pid, or -1 with `error` saying why.
inline pid_t spawn_in_own_group(std::vector<std::string> argv, const std::vector<std::string>* env, bool quiet,
    std::string* error = nullptr)
{
    std::vector<char*> args;
    for (auto& a : argv)
        args.push_back(a.data());
    args.push_back(nullptr);
    std::vector<std::string> env_copy = env ? *env : std::vector<std::string>{};
    std::vector<char*> envp;
    for (auto& s : env_copy)
        envp.push_back(s.data());
    envp.push_back(nullptr);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    if (quiet) {
        posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
    }
    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, args[0], &files, &attr, args.data(), env ? envp.data() : environ);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        if (error)
            *error = argv.front() + ": " + std::strerror(rc);
        return -1;
    }
    return pid;
}

#define NISH_REQUIRE_DESKTOP()                                                                       \
    do {                                                                                            \
        if (!nd_test::have_desktop())                                                               \
            GTEST_SKIP() << "needs the virtual test desktop (scripts/test-desktop run -- ...)";    \
    } while (0)

class AppProcess {
public:
    explicit AppProcess(std::vector<std::string> argv)
        : m_pid(spawn_in_own_group(std::move(argv), nullptr, false))
    {
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
