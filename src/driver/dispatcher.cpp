#include "driver/dispatcher.h"

#include "driver/common.h"
#include "driver/tool_registry.h"
#include "mcp/ignored_args.h"

#include <exception>

namespace nd_driver {

using nd_core::ErrorCode;

Dispatcher::Dispatcher(nd_core::Engine& engine)
    : m_engine(engine)
{
}

nlohmann::json Dispatcher::list_tools()
{
    nlohmann::json tools = nlohmann::json::array();
    for (const auto& def : all_tools())
        tools.push_back(nd_mcp::list_entry(def.decl));
    return tools;
}

bool Dispatcher::has_tool(std::string_view name) { return find_tool(name) != nullptr; }

void Dispatcher::set_client_name(std::string_view name)
{
    std::lock_guard lock(m_engine.mutex());
    m_engine.set_client_name(std::string(name));
}

void Dispatcher::connection_closed()
{
    std::lock_guard lock(m_engine.mutex());
    m_engine.connection_closed();
}

nd_core::Result<ToolOutput> Dispatcher::run(const ToolDef& def, const nlohmann::json& arguments, const CallContext& call)
{
    Args args(TRY(nd_mcp::check_arguments(def.decl, arguments)));
    ToolEnv env{m_engine, nullptr, call};
    if (def.needs_session) {
        env.session = TRY(m_engine.live_session());
        if (def.cls == ToolClass::act && env.session->takeover.paused) {
            nd_core::Error e(ErrorCode::user_took_over, "the takeover is paused until the person clicks Continue");
            e.effect = "refused";
            e.paused_reason = env.session->takeover.paused_reason;
            return e;
        }
    }
    TRY_VOID(approve(def, args, env.session));
    return def.handler(env, args);
}

nd_core::Result<void> Dispatcher::approve(const ToolDef& def, const Args& args, const nd_core::Session* session)
{
    // A clipboard_read the session was not allowed is refused by the tool; the host is not asked.
    if (always_needs_approval(def.decl.name) && session && !session->clipboard_read)
        return nd_core::Ok{};
    if (!m_approvals) {
        if (always_needs_approval(def.decl.name))
            return nd_core::make_error(ErrorCode::approval_denied,
                def.decl.name + " needs the host's approval per call on the control pipe (--control-fd)");
        return nd_core::Ok{};
    }
    auto description = approval_description(def, args, m_approvals->approve_reads());
    if (!description)
        return nd_core::Ok{};
    const std::string session_id = session ? session->id : std::string();
    const auto outcome = m_approvals->ask({.session = session_id,
        .tool = def.decl.name,
        .description = std::move(*description),
        .stopped = [this, session_id] { return m_engine.interrupted(session_id).has_value(); }});
    static constexpr nd_core::AuditName REASONS[] = {"approved", "denied", "timed_out", "stopped", "no_host"};
    m_engine.audit().record({.event = "approval",
        .session = session_id,
        .tool = def.decl.name,
        .outcome = outcome == ApprovalOutcome::approved ? nd_core::AuditOutcome::ok()
                                                        : nd_core::AuditOutcome::failed(ErrorCode::approval_denied),
        .reason = REASONS[static_cast<std::size_t>(outcome)]});
    switch (outcome) {
    case ApprovalOutcome::approved: return nd_core::Ok{};
    case ApprovalOutcome::denied: return nd_core::make_error(ErrorCode::approval_denied, "the host denied this call");
    case ApprovalOutcome::timed_out:
        return nd_core::make_error(ErrorCode::approval_denied, "the host did not answer the approval request in time");
    case ApprovalOutcome::stopped:
        return nd_core::make_error(ErrorCode::approval_denied, "the kill switch or a revocation ended the approval request");
    case ApprovalOutcome::no_host: break;
    }
    return nd_core::make_error(ErrorCode::approval_denied, "the host's control pipe is closed; nothing can approve this call");
}

namespace {

// Names what the call's arguments held that the declaration let go by (mcp/ignored_args.h): a
// field of the result object and the last line of its text, on success and on failure alike.
ToolOutput name_ignored(ToolOutput out, const std::vector<nd_mcp::IgnoredArgument>& ignored)
{
    if (ignored.empty())
        return out;
    auto& s = out.structured;
    const auto open = s.find('{');
    const auto close = s.rfind('}');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return out;
    const bool empty = s.find_first_not_of(" \t\n", open + 1) == close;
    s.insert(close, std::string(empty ? "" : ",") + "\"ignored_arguments\":" + nd_mcp::ignored_json(ignored));
    out.text += (out.text.empty() ? "" : "\n") + std::string("ignored arguments: ") + nd_mcp::ignored_text(ignored);
    return out;
}

} // namespace

ToolOutput Dispatcher::call_tool(std::string_view name, const nlohmann::json& arguments, const CallContext& call)
{
    const auto* def = find_tool(name);
    if (!def)
        return error_output(nd_core::Error(ErrorCode::invalid_arguments, "no tool is named so"));
    std::lock_guard lock(m_engine.mutex());
    nd_core::Result<ToolOutput> result = nd_core::Error(ErrorCode::internal_error, "the tool did not run");
    try {
        result = run(*def, arguments, call);
    } catch (const std::exception&) {
        // A throwing library at the edge; never a crash, never a leaked detail.
        result = nd_core::Error(ErrorCode::internal_error, "the tool failed unexpectedly");
    }
    const auto* session = m_engine.session();
    m_engine.audit().record({.event = "tool_call",
        .session = session ? session->id : std::string(),
        .tool = def->decl.name,
        .outcome = result.ok() ? nd_core::AuditOutcome::ok() : nd_core::AuditOutcome::failed(result.error().code)});
    const auto ignored = nd_mcp::ignored_arguments(def->decl, arguments);
    if (!result.ok())
        return name_ignored(error_output(result.error()), ignored);
    return name_ignored(std::move(result).value(), ignored);
}

} // namespace nd_driver
