#pragma once

// The host control pipe (docs/control-pipe.md): two descriptors the host passes to
// `nish-driver mcp --control-fd IN,OUT`. A thread reads request lines from IN and answers each on
// OUT (ControlCommands); the engine's events (takeover.paused, takeover.resumed) go to OUT too, from
// whichever thread paused or resumed. Every line is written whole under one lock, so acks and
// events never interleave inside a line.
//
// The line IO (the reader thread, bounded non-blocking writes, end of file on IN) is
// nd_mcp::LineChannel's and the waiting for approvals nd_mcp::RequestBroker's: shuttle's host
// channel uses the same. Writes are bounded, so a stuck host never holds the engine. End of file on
// IN ends the reader quietly; events still go out. The pipe closes neither descriptor: the caller
// keeps them open while it runs.

#include "core/engine/engine.h"
#include "core/engine/engine_events.h"
#include "driver/control/approval_broker.h"
#include "driver/control/control_commands.h"
#include "mcp/line_channel.h"

#include <chrono>
#include <cstddef>
#include <string_view>

namespace nd_driver {

struct ControlPipeOptions {
    std::size_t max_line_bytes = 64 * 1024; // requests are a few hundred bytes
    std::chrono::milliseconds write_timeout{2000};
    ApprovalBrokerOptions approvals = {};
};

class ControlPipe final : public nd_core::EngineEvents {
public:
    ControlPipe(nd_core::Engine&, int in_fd, int out_fd, ControlPipeOptions = {});
    // Stops the reader, unhooks the engine's events and joins.
    ~ControlPipe() override;
    ControlPipe(const ControlPipe&) = delete;
    ControlPipe& operator=(const ControlPipe&) = delete;

    // Hooks the engine's events and starts the reader thread. Fails when the wake pipe cannot be made.
    nd_core::Result<void> start();
    void stop();

    void takeover_paused(std::string_view session, std::string_view paused_reason, std::int64_t at_ms) override;
    void takeover_resumed(std::string_view session, nd_core::ResumeBy, std::int64_t at_ms) override;

    // Writes one line and its newline; false once the output is closed or timed out.
    bool send(std::string_view line);

    // The host's approval channel, for Dispatcher::set_approvals. Ends its waits when IN ends or
    // OUT closes.
    ApprovalBroker& approvals() { return m_approvals; }

private:
    nd_core::Engine& m_engine;
    ApprovalBroker m_approvals; // before m_commands, which points at it
    ControlCommands m_commands;
    nd_mcp::LineChannel m_channel;
    bool m_hooked = false;
};

} // namespace nd_driver
