#pragma once

// The host's control channel of `shuttle daemon --control-fd IN,OUT` (docs/desk-control.md): two
// descriptors a host app passes down. On it the host answers confirm mode's questions (this is the
// desk's ConfirmProvider "host") and may raise or lift the safety stop. The line IO and the waiting
// are the ones nish-driver's control pipe uses (nd_mcp::LineChannel, nd_mcp::RequestBroker), and so
// are the line shapes: one JSON request per line in, one ack or error line out.
//
//   confirm.answer {request, allow}  -> {"event":"ack","method":"confirm.answer","request":n}
//   safety_stop                      -> {"event":"ack","method":"safety_stop"}
//   safety_resume                    -> {"event":"ack","method":"safety_resume"}
//   anything else                    -> {"event":"error","method":m|null,"error":{code,...}}
//
// and, without being asked, one confirm.request line per question (confirm_request_line).

#include "core/backend/confirm.h"
#include "mcp/line_channel.h"
#include "mcp/request_broker.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace nd_desk {

struct HostControlOptions {
    std::size_t max_line_bytes = 64 * 1024; // requests are a few hundred bytes
    std::chrono::milliseconds write_timeout{2000};
    // How often a wait checks that the host can still be reached and whether its call was stopped.
    std::chrono::milliseconds liveness_interval{250};
    std::string log_prefix = "shuttle daemon: control pipe: ";
};

class HostControl final : public nd_core::ConfirmProvider {
public:
    // Raises (true) or lifts (false) the safety stop; empty: safety_stop and safety_resume are
    // unknown methods on this channel.
    using SafetyHook = std::function<void(bool stop)>;

    HostControl(int in_fd, int out_fd, SafetyHook safety = {}, HostControlOptions = {});
    // Stops the reader and joins it.
    ~HostControl() override;
    HostControl(const HostControl&) = delete;
    HostControl& operator=(const HostControl&) = delete;

    // Starts the reader thread. Fails when the wake pipe cannot be made.
    nd_core::Result<void> start();
    // Ends every wait (asks fail from then on) and joins the reader.
    void stop();

    std::string name() const override { return "host"; }
    // Writes a confirm.request line and waits for its confirm.answer: allowed or refused, timed_out
    // after wait.timeout, stopped once wait.stopped() says so (checked at the liveness interval) or
    // a safety_stop came on this channel. An error (backend_unavailable) when the host is gone: end
    // of file on IN, or an OUT that cannot be written or whose reader went away.
    nd_core::Result<nd_core::ConfirmOutcome> ask(const nd_core::ConfirmRequest&, const nd_core::ConfirmWait&) override;

    // One request line (without its newline) to its reply line (without one); the reader calls it.
    std::string handle(std::string_view line);
    // Writes one line and its newline; false once the output is closed or timed out.
    bool send(std::string_view line) { return m_channel.send(line); }

private:
    SafetyHook m_safety;
    nd_mcp::RequestBroker m_requests;
    nd_mcp::LineChannel m_channel;
};

// {"event":"confirm.request","request":n,"verb":..,"app":..,"window":..,"target":..,
//  "text_chars":n (typing only),"text_start":".." (when not empty),"secure":b}
std::string confirm_request_line(std::int64_t request, const nd_core::ConfirmRequest&);

} // namespace nd_desk
