#include "driver/control/control_commands.h"

#include "core/encode/json_writer.h"
#include "mcp/control_lines.h"

#include <nlohmann/json.hpp>

#include <mutex>
#include <optional>
#include <vector>

namespace nd_driver {

using nd_core::Error;
using nd_core::ErrorCode;
using nd_core::JsonWriter;

namespace {

using Request = nd_mcp::ControlRequest;

std::string error_line(const Error& e, const Request* request) { return nd_mcp::control_error_line(e, request); }

void begin_ack(JsonWriter& w, const Request& r) { nd_mcp::begin_control_ack(w, r); }

void write_ids(JsonWriter& w, std::string_view key, const std::vector<std::string>& ids)
{
    w.key(key).begin_array();
    for (const auto& id : ids)
        w.string(id);
    w.end_array();
}

// The optional "session" parameter: absent is fine, anything but a non-empty string is not.
nd_core::Result<std::optional<std::string>> session_param(const Request& r)
{
    auto it = r.params.find("session");
    if (it == r.params.end() || it->is_null())
        return std::optional<std::string>{};
    if (!it->is_string() || it->get_ref<const std::string&>().empty())
        return nd_core::make_error(ErrorCode::invalid_arguments, "params.session must be a session id string");
    return std::optional<std::string>(it->get<std::string>());
}

} // namespace

std::string ControlCommands::line_too_long(std::size_t max_line_bytes)
{
    return nd_mcp::control_line_too_long(max_line_bytes);
}

std::string ControlCommands::handle(std::string_view line)
{
    Request r;
    if (auto bad = nd_mcp::parse_control_request(line, r))
        return std::move(*bad);

    std::string out;
    JsonWriter w(out);
    if (r.method == "takeover.resume") {
        auto session = session_param(r);
        if (!session.ok())
            return error_line(session.error(), &r);
        std::vector<std::string> resumed;
        {
            std::lock_guard lock(m_engine.mutex());
            if (auto id = m_engine.resume(nd_core::ResumeBy::host, session->value_or(std::string())))
                resumed.push_back(std::move(*id));
        }
        begin_ack(w, r);
        write_ids(w, "resumed", resumed);
        w.end_object();
        return out;
    }
    if (r.method == "session.revoke") {
        auto session = session_param(r);
        if (!session.ok())
            return error_line(session.error(), &r);
        if (!*session)
            return error_line(Error(ErrorCode::invalid_arguments, "session.revoke needs params.session"), &r);
        // Stop a tool call of this session that holds the engine now, at its next input check.
        m_engine.interrupt(**session);
        if (m_approvals)
            m_approvals->cancel(**session);
        nd_core::Result<void> revoked = nd_core::Ok{};
        std::int64_t at = 0;
        {
            std::lock_guard lock(m_engine.mutex());
            revoked = m_engine.revoke(**session);
            at = m_engine.now_ms();
            m_engine.clear_interrupt();
        }
        if (!revoked.ok())
            return error_line(revoked.error(), &r);
        begin_ack(w, r);
        w.field("session", **session).field("at_ms", at).end_object();
        return out;
    }
    if (r.method == "kill_switch") {
        // Stops a tool call in progress first (it releases what it holds), then every session. The
        // indicator goes at once: the call may take a moment to reach its next check.
        m_engine.interrupt();
        if (auto* overlay = m_engine.backend().overlay())
            overlay->hide_indicator();
        if (m_approvals)
            m_approvals->cancel();
        std::vector<std::string> stopped;
        std::int64_t at = 0;
        {
            std::lock_guard lock(m_engine.mutex());
            if (const auto* s = m_engine.session(); s && s->end == nd_core::SessionEnd::none)
                stopped.push_back(s->id);
            m_engine.kill_switch();
            at = m_engine.now_ms();
            m_engine.clear_interrupt();
        }
        begin_ack(w, r);
        write_ids(w, "stopped", stopped);
        w.field("at_ms", at).end_object();
        return out;
    }
    if (m_approvals && r.method == "approval.answer") {
        auto request = r.params.find("request");
        auto approve = r.params.find("approve");
        if (request == r.params.end() || !request->is_number_integer() || approve == r.params.end()
            || !approve->is_boolean())
            return error_line(Error(ErrorCode::invalid_arguments, "approval.answer needs params.request and params.approve"), &r);
        const auto n = request->get<std::int64_t>();
        if (!m_approvals->answer(n, approve->get<bool>()))
            return error_line(Error(ErrorCode::invalid_arguments, "no approval request of that number is waiting"), &r);
        begin_ack(w, r);
        w.field("request", n).end_object();
        return out;
    }
    if (m_approvals && r.method == "approvals.configure") {
        auto reads = r.params.find("approve_reads");
        if (reads == r.params.end() || !reads->is_boolean())
            return error_line(Error(ErrorCode::invalid_arguments, "approvals.configure needs params.approve_reads"), &r);
        m_approvals->configure(reads->get<bool>());
        begin_ack(w, r);
        w.field("approve_reads", reads->get<bool>()).end_object();
        return out;
    }
    return error_line(Error(ErrorCode::unknown_method, "the control pipe has no method of that name"), &r);
}

std::string paused_event_line(std::string_view session, std::string_view paused_reason, std::int64_t at_ms)
{
    std::string out;
    JsonWriter w(out);
    w.begin_object()
        .field("event", "takeover.paused")
        .field("session", session)
        .field("reason", paused_reason)
        .field("at_ms", at_ms)
        .end_object();
    return out;
}

std::string resumed_event_line(std::string_view session, nd_core::ResumeBy by, std::int64_t at_ms)
{
    std::string out;
    JsonWriter w(out);
    w.begin_object()
        .field("event", "takeover.resumed")
        .field("session", session)
        .field("by", nd_core::resume_by_name(by))
        .field("at_ms", at_ms)
        .end_object();
    return out;
}

} // namespace nd_driver
