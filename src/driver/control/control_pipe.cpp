#include "driver/control/control_pipe.h"

namespace nd_driver {

namespace {

nd_mcp::LineChannelOptions channel_options(const ControlPipeOptions& o)
{
    return {.max_line_bytes = o.max_line_bytes, .write_timeout = o.write_timeout, .log_prefix = "nish-driver: control pipe: "};
}

} // namespace

ControlPipe::ControlPipe(nd_core::Engine& engine, int in_fd, int out_fd, ControlPipeOptions options)
    : m_engine(engine)
    , m_approvals([this](std::string_view line) { return send(line); }, [this] { return m_channel.output_alive(); },
          options.approvals)
    , m_commands(engine, &m_approvals)
    // A command runs even when its ack can no longer be written: a kill switch must stop everything
    // whatever became of the host's reading end. Once IN ends or OUT closes nobody can answer an
    // approval any more: pending and later asks fail at once.
    , m_channel(
          in_fd, out_fd, [this](std::string_view line) { return m_commands.handle(line); }, [this] { m_approvals.close(); },
          channel_options(options))
{
}

ControlPipe::~ControlPipe() { stop(); }

nd_core::Result<void> ControlPipe::start()
{
    return m_channel.start([this] {
        std::lock_guard lock(m_engine.mutex());
        m_engine.set_events(this);
        m_hooked = true;
    });
}

void ControlPipe::stop()
{
    m_approvals.close();
    if (m_hooked) {
        std::lock_guard lock(m_engine.mutex());
        m_engine.set_events(nullptr);
        m_hooked = false;
    }
    m_channel.stop();
}

void ControlPipe::takeover_paused(std::string_view session, std::string_view paused_reason, std::int64_t at_ms)
{
    send(paused_event_line(session, paused_reason, at_ms));
}

void ControlPipe::takeover_resumed(std::string_view session, nd_core::ResumeBy by, std::int64_t at_ms)
{
    send(resumed_event_line(session, by, at_ms));
}

bool ControlPipe::send(std::string_view line) { return m_channel.send(line); }

} // namespace nd_driver
