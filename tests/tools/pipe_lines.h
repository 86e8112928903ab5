#pragma once

// Test helpers for the pipes between a test and the driver: a pipe pair that closes its ends, a
// line reader on one end whose every wait has a deadline, and the spawn of a program on them.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <sys/wait.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <string_view>
#include <unistd.h>
#include <utility>
#include <vector>

extern char** environ;

namespace nd_test {

// One end of a pipe read line by line, every wait with a deadline.
class LineIn {
public:
    explicit LineIn(int fd) : m_fd(fd) {}
    // The next line, or "" (and a test failure) when none came within the deadline. The deadline
    // only ends a test that fails: it is long enough for a sanitizer build started on a loaded host.
    std::string next(std::chrono::milliseconds deadline = std::chrono::milliseconds(20000))
    {
        const auto end = std::chrono::steady_clock::now() + deadline;
        for (;;) {
            if (auto nl = m_buffer.find('\n'); nl != std::string::npos) {
                auto line = m_buffer.substr(0, nl);
                m_buffer.erase(0, nl + 1);
                return line;
            }
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now()).count();
            pollfd pfd{m_fd, POLLIN, 0};
            if (left <= 0 || ::poll(&pfd, 1, static_cast<int>(left)) <= 0) {
                ADD_FAILURE() << "no line within the deadline; have: " << m_buffer;
                return "";
            }
            char buf[65536];
            auto n = ::read(m_fd, buf, sizeof buf);
            if (n <= 0) {
                ADD_FAILURE() << "end of output; have: " << m_buffer;
                return "";
            }
            m_buffer.append(buf, static_cast<std::size_t>(n));
        }
    }
    nlohmann::json next_json() { return nlohmann::json::parse(next(), nullptr, false); }
    // True when nothing more arrives within `quiet`.
    bool quiet(std::chrono::milliseconds quiet)
    {
        pollfd pfd{m_fd, POLLIN, 0};
        return m_buffer.empty() && ::poll(&pfd, 1, static_cast<int>(quiet.count())) == 0;
    }

private:
    int m_fd;
    std::string m_buffer;
};

inline void write_line(int fd, const std::string& line)
{
    std::string l = line + "\n";
    ASSERT_EQ(::write(fd, l.data(), l.size()), static_cast<ssize_t>(l.size()));
}

struct Pipe {
    int fd[2] = {-1, -1};
    Pipe() { EXPECT_EQ(::pipe2(fd, O_CLOEXEC), 0); }
    ~Pipe() { close_all(); }
    void close_read() { close_one(0); }
    void close_write() { close_one(1); }
    void close_all() { close_one(0), close_one(1); }
    void close_one(int i)
    {
        if (fd[i] >= 0)
            ::close(fd[i]);
        fd[i] = -1;
    }
};

// Starts `args` (args[0] is the program's path) with this process's environment but an empty
// NISH_AUDIT_LOG (no audit file) and each NAME=value of `set_env`, each `from` descriptor of `fds`
// becoming `to` in the child. The child's pid, or -1 (and a test failure).
inline pid_t spawn_program(std::vector<std::string> args, const std::vector<std::pair<int, int>>& fds,
                           std::vector<std::string> set_env = {})
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (const auto& [from, to] : fds)
        posix_spawn_file_actions_adddup2(&actions, from, to);
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    set_env.push_back("NISH_AUDIT_LOG=");
    std::vector<std::string> env_strings = set_env;
    auto overridden = [&](std::string_view entry) {
        for (const auto& s : set_env)
            if (entry.rfind(s.substr(0, s.find('=') + 1), 0) == 0)
                return true;
        return false;
    };
    for (char** e = environ; *e; ++e)
        if (!overridden(*e))
            env_strings.emplace_back(*e);
    std::vector<char*> envp;
    for (auto& e : env_strings)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_t pid = -1;
    EXPECT_EQ(posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), envp.data()), 0) << args[0];
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

struct CommandRun {
    int status = -1; // the exit status, -1 when it did not exit
    std::string out; // stdout, with stderr when the command sends it there
};

// Runs a shell command line to its end and gathers its output.
inline CommandRun run_command(const std::string& command_line)
{
    CommandRun r;
    FILE* p = ::popen(command_line.c_str(), "r");
    if (!p)
        return r;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
        r.out.append(buf, n);
    const int status = ::pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

} // namespace nd_test
