#pragma once

// Test helpers for the pipes between a test and the driver: a pipe pair that closes its ends, and
// a line reader on one end whose every wait has a deadline.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <unistd.h>

namespace nd_test {

// One end of a pipe read line by line, every wait with a deadline.
class LineIn {
public:
    explicit LineIn(int fd) : m_fd(fd) {}
    // The next line, or "" (and a test failure) when none came within the deadline.
    std::string next(std::chrono::milliseconds deadline = std::chrono::milliseconds(5000))
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

} // namespace nd_test
