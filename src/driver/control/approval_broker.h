#pragma once

// The host's side of approvals (docs/control-pipe.md): a tool call asks, the broker writes an
// approval.request line and waits; the control pipe's reader delivers the host's answer. The
// broker has its own lock and never takes Engine::mutex(), which the waiting call holds.
//
// Every wait has a deadline. A kill switch or revocation (cancel), end of file on the pipe's
// input or a closed output (close) ends pending waits at once; after close every ask fails.

#include "driver/approvals.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
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
    using Send = std::function<bool(std::string_view line)>;
    using Alive = std::function<bool()>;
    explicit ApprovalBroker(Send send, Alive output_alive = {}, ApprovalBrokerOptions = {});

    bool approve_reads() const override { return m_approve_reads.load(); }
    ApprovalOutcome ask(const ApprovalAsk&) override;

    // The host's answer; false when the request is unknown or already answered.
    bool answer(std::int64_t request, bool approve);
    void configure(bool approve_reads) { m_approve_reads.store(approve_reads); }
    // Ends the waits of one session (a revocation) or of every session (empty: the kill switch).
    void cancel(std::string_view session = {});
    // The host is gone: pending and future asks fail with no_host.
    void close();

private:
    enum class State : std::uint8_t { waiting, approved, denied, stopped, closed };
    struct Pending {
        std::string session;
        State state = State::waiting;
    };

    Send m_send;
    Alive m_output_alive;
    ApprovalBrokerOptions m_options;
    std::atomic<bool> m_approve_reads{true};
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<std::int64_t, Pending> m_pending; // guarded by m_mutex
    std::int64_t m_next = 1;                   // guarded by m_mutex
    bool m_closed = false;                     // guarded by m_mutex
};

// The approval.request event line (without its newline).
std::string approval_request_line(std::int64_t request, std::string_view session, std::string_view tool,
    const nlohmann::json& description);

} // namespace nd_driver
