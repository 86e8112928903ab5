#pragma once

// The host's side of a yes-or-no question on a control pipe (docs/control-pipe.md): a caller asks,
// the broker numbers the request, writes its line and waits; the pipe's reader delivers the host's
// answer. nish-driver's approvals and shuttle's confirm mode both ask through it. The broker has
// its own lock and never takes a caller's, which the waiting call may hold.
//
// Every wait has a deadline. A stop the caller watches (polled at the liveness interval), a cancel
// of the request's key, end of file on the pipe's input or a closed output (close) end pending
// waits; after close every ask fails at once.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace nd_mcp {

enum class RequestOutcome : std::uint8_t {
    yes,
    no,        // the host said no
    timed_out, // no answer within the deadline
    stopped,   // the caller's stop, or a cancel of its key, ended the wait
    closed,    // the host cannot be reached: its input ended or its output closed
};

class RequestBroker {
public:
    // send writes one line to the host and returns false once it cannot; output_alive is false
    // once the host closed its reading end. Both are called without the broker's lock.
    using Send = std::function<bool(std::string_view line)>;
    using Alive = std::function<bool()>;
    // The request line (without its newline) for the request's number.
    using RequestLine = std::function<std::string(std::int64_t request)>;

    // liveness_interval: how often a wait checks that the host can still be reached and whether
    // the caller's stop came.
    explicit RequestBroker(Send send, Alive output_alive = {},
        std::chrono::milliseconds liveness_interval = std::chrono::milliseconds(250));

    // Writes the request line and blocks until the host answers, the timeout passes or the wait is
    // ended. `key` groups requests for cancel (a session id; may be empty). `stopped` (may be
    // empty; thread-safe) is checked before the request goes out and at every liveness check.
    RequestOutcome ask(std::string_view key, const RequestLine& line, std::chrono::milliseconds timeout,
        const std::function<bool()>& stopped = {});

    // The host's answer; false when the request is unknown or already answered or given up.
    bool answer(std::int64_t request, bool yes);
    // Ends the waits of one key (a revocation) or of every key (empty: a kill switch).
    void cancel(std::string_view key = {});
    // The host is gone: pending and future asks end with closed.
    void close();

private:
    enum class State : std::uint8_t { waiting, yes, no, stopped, closed };
    struct Pending {
        std::string key;
        State state = State::waiting;
    };

    Send m_send;
    Alive m_output_alive;
    std::chrono::milliseconds m_liveness_interval;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<std::int64_t, Pending> m_pending; // guarded by m_mutex
    std::int64_t m_next = 1;                   // guarded by m_mutex
    bool m_closed = false;                     // guarded by m_mutex
};

} // namespace nd_mcp
