#include "desk/mcp/call_pulse.h"

#include "desk/models/models_config.h"
#include "desk/script/script_run.h"

#include <algorithm>
#include <system_error>

namespace nd_desk {

namespace {

// The verbs' own caps (verbs/wait.cpp, verbs/still.cpp; script_run's in script/script_run.h).
constexpr std::int64_t WAIT_CAP_MS = 5000;
constexpr std::int64_t STILL_DEFAULT_MS = 600;

std::int64_t int_arg(const nlohmann::json& arguments, const char* name, std::int64_t fallback)
{
    if (!arguments.is_object())
        return fallback;
    auto it = arguments.find(name);
    return it != arguments.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
}

} // namespace

CallPulse::CallPulse(const nd_mcp::CallContext& call, std::int64_t expected_ms, std::string message)
    : m_call(call)
    , m_expected_ms(expected_ms)
    , m_message(std::move(message))
{
    if (!call.wants_progress())
        return;
    try {
        m_thread = std::thread([this] { run(); });
    } catch (const std::system_error&) {
        // No thread, no pulse: the call itself goes on.
    }
}

CallPulse::~CallPulse()
{
    {
        std::lock_guard lock(m_mutex);
        m_done = true;
    }
    m_done_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void CallPulse::run()
{
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock lock(m_mutex);
    while (!m_done_changed.wait_for(lock, CALL_PULSE_EVERY, [this] { return m_done; })) {
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        // Past its bound (the daemon's answer on its way) the total no longer holds.
        const double total = elapsed < m_expected_ms ? static_cast<double>(m_expected_ms) : 0.0;
        m_call.report_progress(static_cast<double>(elapsed), total, m_message);
    }
}

std::int64_t expected_call_ms(std::string_view tool, const nlohmann::json& arguments)
{
    if (tool == "desk_wait")
        return std::clamp<std::int64_t>(int_arg(arguments, "timeout_ms", 0), 0, WAIT_CAP_MS);
    if (tool == "desk_still")
        return std::clamp<std::int64_t>(int_arg(arguments, "timeout_ms", STILL_DEFAULT_MS), 0, WAIT_CAP_MS);
    if (tool == "script_run") {
        const auto it = arguments.is_object() ? arguments.find("timeout_s") : arguments.end();
        const double seconds =
            it != arguments.end() && it->is_number() ? it->get<double>() : static_cast<double>(RUN_TIMEOUT_DEFAULT_S);
        return static_cast<std::int64_t>(std::clamp(seconds, 0.0, static_cast<double>(RUN_TIMEOUT_MAX_S)) * 1000);
    }
    // A model call may take its timeout_ms, or the configured one (this front knows only the default).
    if (tool.starts_with("model_"))
        return std::clamp<std::int64_t>(int_arg(arguments, "timeout_ms", ModelsConfig::DEFAULT_TIMEOUT_MS), 0,
            ModelsConfig::MAX_TIMEOUT_MS);
    return 0;
}

} // namespace nd_desk
