#include "mcp/progress.h"

#include "core/encode/json_writer.h"
#include "mcp/json_rpc.h"

#include <cmath>

namespace nd_mcp {

namespace {

// A progress message is a line for people; a runaway one is cut.
constexpr std::size_t MAX_MESSAGE_BYTES = 200;

} // namespace

ProgressNotifier::ProgressNotifier(std::string token_json, Send send, const std::atomic<bool>* cancelled)
    : m_token_json(std::move(token_json))
    , m_send(std::move(send))
    , m_cancelled(cancelled)
{
}

void ProgressNotifier::report(double progress, double total, std::string_view message)
{
    if (!std::isfinite(progress) || !std::isfinite(total))
        return;
    // Sent under the lock, so two reporting threads cannot put their notifications out of order.
    std::lock_guard lock(m_mutex);
    std::string line;
    {
        if (m_cancelled && m_cancelled->load())
            return;
        auto now = std::chrono::steady_clock::now();
        if ((m_sent > 0 && progress <= m_last) || (m_sent > 0 && now - m_last_at < PROGRESS_MIN_INTERVAL))
            return;
        m_last = progress;
        m_last_at = now;
        ++m_sent;
        nd_core::JsonWriter writer(line);
        writer.begin_object().field("jsonrpc", "2.0").field("method", "notifications/progress");
        writer.key("params").begin_object().key("progressToken").raw(m_token_json);
        writer.key("progress").number(progress);
        if (total > 0)
            writer.key("total").number(total);
        if (!message.empty())
            writer.field("message", message.substr(0, MAX_MESSAGE_BYTES));
        writer.end_object().end_object();
        line.push_back('\n');
    }
    m_send(line);
}

std::string progress_token_json(const nlohmann::json& params)
{
    auto meta_it = params.find("_meta");
    if (meta_it == params.end() || !meta_it->is_object())
        return {};
    auto token_it = meta_it->find("progressToken");
    if (token_it == meta_it->end() || !(token_it->is_string() || token_it->is_number_integer()))
        return {};
    return dump_json(*token_it);
}

} // namespace nd_mcp
