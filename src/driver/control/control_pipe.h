#pragma once

// The host control pipe (docs/control-pipe.md): two descriptors the host passes to
// `nish-driver mcp --control-fd IN,OUT`. A thread reads request lines from IN and answers each on
// OUT (ControlCommands); the engine's events (takeover.paused, takeover.resumed) go to OUT too, from
// whichever thread paused or resumed. Every line is written whole under one lock, so acks and
// events never interleave inside a line.
//
// Writes are bounded: OUT is made non-blocking and a line that cannot be written within the write
// timeout (a host that stopped reading) closes the output for good, so a stuck host never holds
// the engine. End of file on IN ends the reader quietly; events still go out. The pipe does not
// own the descriptors' lifetime beyond closing nothing: the caller keeps them open while it runs.

#include "core/engine/engine.h"
#include "core/engine/engine_events.h"
#include "driver/control/approval_broker.h"
#include "driver/control/control_commands.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string_view>
#include <thread>

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
    void read_loop();
    bool write_line(std::string_view line);
    bool output_alive() const;

    nd_core::Engine& m_engine;
    ApprovalBroker m_approvals; // before m_commands, which points at it
    ControlCommands m_commands;
    int m_in_fd;
    int m_out_fd;
    ControlPipeOptions m_options;
    int m_wake_pipe[2] = {-1, -1};
    std::thread m_reader;
    std::mutex m_write_mutex;
    bool m_output_closed = false; // guarded by m_write_mutex
    bool m_hooked = false;
};

} // namespace nd_driver
