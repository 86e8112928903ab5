#include "mcp/line_reader.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <unistd.h>

namespace nd_mcp {

namespace {

// Large enough that a multi-megabyte request takes few system calls, small enough to stay cheap.
constexpr std::size_t READ_CHUNK = 64 * 1024;

} // namespace

LineReader::LineReader(int fd, int wake_fd, std::size_t max_line_bytes)
    : m_fd(fd)
    , m_wake_fd(wake_fd)
    , m_max_line_bytes(max_line_bytes)
    , m_buffer(READ_CHUNK)
{
}

LineReader::Status LineReader::next(std::string& line)
{
    line.clear();
    bool overlong = false;
    for (;;) {
        if (m_begin < m_end) {
            const char* start = m_buffer.data() + m_begin;
            std::size_t available = m_end - m_begin;
            const auto* newline = static_cast<const char*>(std::memchr(start, '\n', available));
            std::size_t n = newline ? static_cast<std::size_t>(newline - start) : available;
            if (!overlong) {
                if (line.size() + n > m_max_line_bytes) {
                    // Release what was gathered: the rest of this line is only counted past.
                    overlong = true;
                    std::string().swap(line);
                } else {
                    line.append(start, n);
                }
            }
            m_begin += n;
            if (newline) {
                ++m_begin;
                if (overlong)
                    return Status::TooLong;
                if (!line.empty() && line.back() == '\r')
                    line.pop_back();
                return Status::Line;
            }
        }
        if (m_eof) {
            if (overlong)
                return Status::TooLong;
            if (!line.empty()) {
                if (line.back() == '\r')
                    line.pop_back();
                return Status::Line;
            }
            return Status::End;
        }
        switch (fill()) {
        case FillResult::Data: break;
        case FillResult::Eof: m_eof = true; break;
        case FillResult::Stopped: return Status::Stopped;
        case FillResult::Failed: return Status::Failed;
        }
    }
}

LineReader::FillResult LineReader::fill()
{
    m_begin = 0;
    m_end = 0;
    for (;;) {
        pollfd fds[2] = {{m_fd, POLLIN, 0}, {m_wake_fd, POLLIN, 0}};
        int count = m_wake_fd >= 0 ? 2 : 1;
        int ready = ::poll(fds, static_cast<nfds_t>(count), -1);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            return FillResult::Failed;
        }
        // A stop request wins over pending input: the caller wants out now.
        if (count == 2 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            return FillResult::Stopped;
        if (fds[0].revents & POLLNVAL)
            return FillResult::Failed;
        if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        ssize_t n = ::read(m_fd, m_buffer.data(), m_buffer.size());
        if (n > 0) {
            m_end = static_cast<std::size_t>(n);
            return FillResult::Data;
        }
        if (n == 0)
            return FillResult::Eof;
        if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
            continue;
        return FillResult::Failed;
    }
}

} // namespace nd_mcp
