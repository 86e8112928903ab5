#pragma once

// The host control pipe's verbs (docs/control-pipe.md): one JSON request line in, one JSON reply
// line out, on the engine. No threads and no descriptors here (ControlPipe owns those), so the
// line handling is tested on its own.
//
//   takeover.resume {session?}  -> {"event":"ack","method":"takeover.resume","resumed":[ids]}
//   session.revoke  {session}   -> {"event":"ack","method":"session.revoke","session":id,"at_ms":N}
//   kill_switch                 -> {"event":"ack","method":"kill_switch","stopped":[ids],"at_ms":N}
//   approval.answer {request, approve}   -> {"event":"ack","method":"approval.answer","request":n}
//   approvals.configure {approve_reads}  -> {"event":"ack","method":"approvals.configure","approve_reads":b}
//   anything else               -> {"event":"error","method":m|null,"error":{code,...}}
//
// A request's "id" (a string or a number), when present, is echoed in its reply.

#include "core/engine/engine.h"
#include "driver/control/approval_broker.h"

#include <array>
#include <string>
#include <string_view>

namespace nd_driver {

// The methods above and the events the pipe sends unasked (the manifest lists both).
inline constexpr std::array<std::string_view, 5> CONTROL_METHODS = {
    "takeover.resume", "session.revoke", "kill_switch", "approval.answer", "approvals.configure"};
inline constexpr std::array<std::string_view, 3> CONTROL_EVENTS = {"takeover.paused", "takeover.resumed", "approval.request"};

class ControlCommands {
public:
    // Without a broker the approval verbs are unknown methods.
    explicit ControlCommands(nd_core::Engine& engine, ApprovalBroker* approvals = nullptr)
        : m_engine(engine)
        , m_approvals(approvals)
    {
    }

    // Handles one request line (without its newline) and returns the reply line (without one).
    // Never throws. Takes the engine's mutex for the verbs that change a session; the approval
    // verbs never take it (a call waiting for its approval holds it).
    std::string handle(std::string_view line);

    // The reply to a line longer than the pipe's cap (the line itself was never held).
    static std::string line_too_long(std::size_t max_line_bytes);

private:
    nd_core::Engine& m_engine;
    ApprovalBroker* m_approvals;
};

// The host events of §4.3, as lines (without the newline).
std::string paused_event_line(std::string_view session, std::string_view paused_reason, std::int64_t at_ms);
std::string resumed_event_line(std::string_view session, nd_core::ResumeBy, std::int64_t at_ms);

} // namespace nd_driver
