#pragma once

// Progress for a desk call relayed to the daemon. The wire answers a call with one frame and
// nothing before it, so `shuttle mcp` cannot hear how far the daemon has got; what it can tell the
// client is how long the call has run against how long it may run. A CallPulse reports the
// elapsed milliseconds every 250 ms while it lives, with the call's own bound as the total when
// there is one (desk_wait's and desk_still's timeout_ms), so a client that resets its request
// timeout on progress does not give up on a call that is still within its bound.

#include "mcp/tool_output.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace nd_desk {

inline constexpr std::chrono::milliseconds CALL_PULSE_EVERY{250};

class CallPulse {
public:
    // Does nothing when the client asked for no progress. expected_ms 0: no known bound.
    CallPulse(const nd_mcp::CallContext&, std::int64_t expected_ms, std::string message);
    ~CallPulse();
    CallPulse(const CallPulse&) = delete;
    CallPulse& operator=(const CallPulse&) = delete;

private:
    void run();

    const nd_mcp::CallContext& m_call;
    std::int64_t m_expected_ms;
    std::string m_message;
    std::mutex m_mutex;
    std::condition_variable m_done_changed;
    bool m_done = false;
    std::thread m_thread;
};

// How long a desk tool may run by its own arguments (desk_wait's and desk_still's timeout_ms), or
// 0 when it names no bound.
std::int64_t expected_call_ms(std::string_view tool, const nlohmann::json& arguments);

} // namespace nd_desk
