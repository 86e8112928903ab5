#pragma once

// The ProgressSink of one request: each report that advances becomes a notifications/progress line
// for the request's progress token, written through the server's serialized output. Reports that
// do not advance, come within 100 ms of the last one sent, or arrive once the request is cancelled
// are dropped: the client needs a pulse, not a flood.

#include "mcp/tool_output.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>

namespace nd_mcp {

inline constexpr std::chrono::milliseconds PROGRESS_MIN_INTERVAL{100};

class ProgressNotifier final : public ProgressSink {
public:
    using Send = std::function<void(std::string_view line)>;
    ProgressNotifier(std::string token_json, Send send, const std::atomic<bool>* cancelled);
    void report(double progress, double total, std::string_view message) override;
    int sent() const { return m_sent; }

private:
    std::mutex m_mutex;
    std::string m_token_json;
    Send m_send;
    const std::atomic<bool>* m_cancelled;
    double m_last = 0;
    int m_sent = 0;
    std::chrono::steady_clock::time_point m_last_at{};
};

// The progress token of a request (params._meta.progressToken, a string or an integer), serialized;
// empty when the request asked for none.
std::string progress_token_json(const nlohmann::json& params);

} // namespace nd_mcp
