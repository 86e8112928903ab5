#pragma once

// Host approvals (contract §5.2, §7.1): the question the dispatcher asks before a call runs, and
// which calls need it. The control pipe answers it (driver/control/approval_broker.h); without a
// control pipe there is no gate and only clipboard_read is refused.
//
// Which calls ask the host:
//   - clipboard_read, every call (cannot be pre-approved);
//   - while approve_reads is on (the default with a control pipe): every read tool, and every act
//     called with observe asking for a tree or a screenshot.
// Session and info tools never ask.

#include "driver/tool.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace nd_driver {

struct ApprovalAsk {
    std::string session;       // the live session's id; empty when there is none
    std::string_view tool;     // the registry's own name
    nlohmann::json description; // the tool and its target as given; never typed text or clipboard text
    // True once a kill switch or a revocation for this call is pending (thread-safe).
    std::function<bool()> stopped;
};

enum class ApprovalOutcome : std::uint8_t {
    approved,
    denied,    // the host said no
    timed_out, // no answer within the deadline
    stopped,   // a kill switch or a revocation ended the wait
    no_host,   // no control pipe, or its input ended or its output closed
};

class ApprovalGate {
public:
    virtual ~ApprovalGate() = default;
    virtual bool approve_reads() const = 0;
    // Blocks until the host answers, the deadline passes or the wait is ended. Thread-safe.
    virtual ApprovalOutcome ask(const ApprovalAsk&) = 0;
};

// The description of a call that needs the host's approval, or nothing when it may run unasked.
std::optional<nlohmann::json> approval_description(const ToolDef&, const Args&, bool approve_reads);

// Whether a tool needs a per-call approval whatever approve_reads says.
bool always_needs_approval(std::string_view tool);

std::string_view approval_outcome_name(ApprovalOutcome);

} // namespace nd_driver
