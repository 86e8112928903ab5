#pragma once

// The host's side of approvals (docs/control-pipe.md): a tool call asks, the broker writes an
// approval.request line and waits; the control pipe's reader delivers the host's answer. The
// waiting is nd_mcp::RequestBroker's, which has its own lock and never takes Engine::mutex(), which
// the waiting call holds.
//
// Every wait has a deadline. A kill switch or revocation (cancel), end of file on the pipe's
// input or a closed output (close) ends pending waits at once; after close every ask fails.

#include "driver/approvals.h"
#include "mcp/request_broker.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace nd_driver {

struct ApprovalBrokerOptions {
    std::chrono::milliseconds timeout{60000};
    // How often a wait checks that the host can still be reached (output_alive).
    std::chrono::milliseconds liveness_interval{250};
};

class ApprovalBroker final : public ApprovalGate {
public:
    // send writes one line to the host and returns false once it cannot; output_alive is false
    // once the host closed its reading end. Both are called without the broker's lock.
    using Send = nd_mcp::RequestBroker::Send;
    using Alive = nd_mcp::RequestBroker::Alive;
    explicit ApprovalBroker(Send send, Alive output_alive = {}, ApprovalBrokerOptions = {});

    bool approve_reads() const override { return m_approve_reads.load(); }
    ApprovalOutcome ask(const ApprovalAsk&) override;

    // The host's answer; false when the request is unknown or already answered.
    bool answer(std::int64_t request, bool approve) { return m_requests.answer(request, approve); }
    void configure(bool approve_reads) { m_approve_reads.store(approve_reads); }
    // Ends the waits of one session (a revocation) or of every session (empty: the kill switch).
    void cancel(std::string_view session = {}) { m_requests.cancel(session); }
    // The host is gone: pending and future asks fail with no_host.
    void close() { m_requests.close(); }

private:
    nd_mcp::RequestBroker m_requests;
    ApprovalBrokerOptions m_options;
    std::atomic<bool> m_approve_reads{true};
};

// The approval.request event line (without its newline).
std::string approval_request_line(std::int64_t request, std::string_view session, std::string_view tool,
    const nlohmann::json& description);

} // namespace nd_driver
