#include "mcp/line_channel.h"

#include "mcp/control_lines.h"
#include "mcp/fd_write.h"
#include "mcp/line_reader.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <unistd.h>

namespace nd_mcp {

LineChannel::LineChannel(int in_fd, int out_fd, Handler handle, Closed closed, LineChannelOptions options)
    : m_in_fd(in_fd)
    , m_out_fd(out_fd)
    , m_handle(std::move(handle))
    , m_closed(std::move(closed))
    , m_options(std::move(options))
{
}

LineChannel::~LineChannel()
{
    stop();
    for (int fd : m_wake_pipe)
        if (fd >= 0)
            ::close(fd);
}

nd_core::Result<void> LineChannel::start(const std::function<void()>& before_reading)
{
    if (::pipe2(m_wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return nd_core::make_error(nd_core::ErrorCode::internal_error, std::string("cannot create the wake pipe: ") + std::strerror(errno));
    // A host that closed its reading end gives EPIPE, not a signal that ends the program.
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, nullptr);
    // A host that stops reading must not block a writer: writes wait at most the write timeout.
    if (int flags = ::fcntl(m_out_fd, F_GETFL); flags >= 0)
        ::fcntl(m_out_fd, F_SETFL, flags | O_NONBLOCK);
    if (before_reading)
        before_reading();
    m_reader = std::thread([this] { read_loop(); });
    return nd_core::Ok{};
}

void LineChannel::stop()
{
    if (m_wake_pipe[1] >= 0) {
        char byte = 1;
        [[maybe_unused]] auto n = ::write(m_wake_pipe[1], &byte, 1);
    }
    if (m_reader.joinable())
        m_reader.join();
}

void LineChannel::read_loop()
{
    LineReader reader(m_in_fd, m_wake_pipe[0], m_options.max_line_bytes);
    std::string line;
    for (;;) {
        switch (reader.next(line)) {
        case LineReader::Status::Line: {
            // Blank lines are keep-alives at most; they get no answer.
            if (line.find_first_not_of(" \t\r") == std::string::npos)
                continue;
            // A request runs even when its reply can no longer be written: a stop must stop
            // everything whatever became of the host's reading end.
            auto reply = m_handle(line);
            if (!reply.empty())
                send(reply);
            continue;
        }
        case LineReader::Status::TooLong: send(control_line_too_long(m_options.max_line_bytes)); continue;
        case LineReader::Status::Failed:
            log("reading the input failed");
            closed();
            return;
        case LineReader::Status::End:
        case LineReader::Status::Stopped:
            closed();
            return;
        }
    }
}

bool LineChannel::send(std::string_view body)
{
    if (write_line(body))
        return true;
    closed();
    return false;
}

bool LineChannel::output_alive() const
{
    // A pipe or socket whose reader went away reports an error or a hang-up without a write.
    pollfd pfd{m_out_fd, POLLOUT, 0};
    if (::poll(&pfd, 1, 0) < 0)
        return true;
    return (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) == 0;
}

bool LineChannel::write_line(std::string_view body)
{
    std::string line(body);
    line.push_back('\n');
    std::lock_guard lock(m_write_mutex);
    if (m_output_closed)
        return false;
    const int error = write_all(m_out_fd, line, std::chrono::steady_clock::now() + m_options.write_timeout);
    if (error == 0)
        return true;
    if (error == ETIMEDOUT)
        log("the host stopped reading; no more control output");
    else if (error != EPIPE)
        log(std::string("writing the output failed: ") + std::strerror(error));
    m_output_closed = true;
    return false;
}

void LineChannel::closed()
{
    if (m_closed)
        m_closed();
}

void LineChannel::log(std::string_view what) const { std::cerr << m_options.log_prefix << what << "\n"; }

} // namespace nd_mcp
