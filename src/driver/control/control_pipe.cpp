#include "driver/control/control_pipe.h"

#include "mcp/fd_write.h"
#include "mcp/line_reader.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <string>
#include <unistd.h>

namespace nd_driver {

using nd_mcp::LineReader;
using nd_mcp::write_all;

namespace {

void log_line(std::string_view what) { std::cerr << "nish-driver: control pipe: " << what << "\n"; }

} // namespace

ControlPipe::ControlPipe(nd_core::Engine& engine, int in_fd, int out_fd, ControlPipeOptions options)
    : m_engine(engine)
    , m_approvals([this](std::string_view line) { return send(line); }, [this] { return output_alive(); }, options.approvals)
    , m_commands(engine, &m_approvals)
    , m_in_fd(in_fd)
    , m_out_fd(out_fd)
    , m_options(options)
{
}

ControlPipe::~ControlPipe()
{
    stop();
    for (int fd : m_wake_pipe)
        if (fd >= 0)
            ::close(fd);
}

nd_core::Result<void> ControlPipe::start()
{
    if (::pipe2(m_wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return nd_core::make_error(nd_core::ErrorCode::internal_error, std::string("cannot create the wake pipe: ") + std::strerror(errno));
    // A host that closed its reading end gives EPIPE, not a signal that ends the driver.
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, nullptr);
    // A host that stops reading must not block the engine: writes wait at most the write timeout.
    if (int flags = ::fcntl(m_out_fd, F_GETFL); flags >= 0)
        ::fcntl(m_out_fd, F_SETFL, flags | O_NONBLOCK);
    {
        std::lock_guard lock(m_engine.mutex());
        m_engine.set_events(this);
        m_hooked = true;
    }
    m_reader = std::thread([this] { read_loop(); });
    return nd_core::Ok{};
}

void ControlPipe::stop()
{
    m_approvals.close();
    if (m_hooked) {
        std::lock_guard lock(m_engine.mutex());
        m_engine.set_events(nullptr);
        m_hooked = false;
    }
    if (m_wake_pipe[1] >= 0) {
        char byte = 1;
        [[maybe_unused]] auto n = ::write(m_wake_pipe[1], &byte, 1);
    }
    if (m_reader.joinable())
        m_reader.join();
}

void ControlPipe::read_loop()
{
    LineReader reader(m_in_fd, m_wake_pipe[0], m_options.max_line_bytes);
    std::string line;
    for (;;) {
        switch (reader.next(line)) {
        case LineReader::Status::Line:
            // Blank lines are keep-alives at most; they get no answer.
            if (line.find_first_not_of(" \t\r") == std::string::npos)
                continue;
            // A command runs even when its ack can no longer be written: a kill switch must stop
            // everything whatever became of the host's reading end.
            send(m_commands.handle(line));
            continue;
        case LineReader::Status::TooLong: send(ControlCommands::line_too_long(m_options.max_line_bytes)); continue;
        case LineReader::Status::Failed:
            log_line("reading the input failed");
            m_approvals.close();
            return;
        case LineReader::Status::End:
        case LineReader::Status::Stopped:
            // Nobody can answer an approval any more: pending and later asks fail at once.
            m_approvals.close();
            return;
        }
    }
}

void ControlPipe::takeover_paused(std::string_view session, std::string_view paused_reason, std::int64_t at_ms)
{
    send(paused_event_line(session, paused_reason, at_ms));
}

void ControlPipe::takeover_resumed(std::string_view session, nd_core::ResumeBy by, std::int64_t at_ms)
{
    send(resumed_event_line(session, by, at_ms));
}

bool ControlPipe::send(std::string_view body)
{
    if (write_line(body))
        return true;
    m_approvals.close();
    return false;
}

bool ControlPipe::output_alive() const
{
    // A pipe or socket whose reader went away reports an error or a hang-up without a write.
    pollfd pfd{m_out_fd, POLLOUT, 0};
    if (::poll(&pfd, 1, 0) < 0)
        return true;
    return (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) == 0;
}

bool ControlPipe::write_line(std::string_view body)
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
        log_line("the host stopped reading; no more control output");
    else if (error != EPIPE)
        log_line(std::string("writing the output failed: ") + std::strerror(error));
    m_output_closed = true;
    return false;
}

} // namespace nd_driver
