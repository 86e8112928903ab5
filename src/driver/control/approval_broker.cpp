#include "driver/control/approval_broker.h"

namespace nd_driver {

using nd_mcp::RequestOutcome;

ApprovalBroker::ApprovalBroker(Send send, Alive output_alive, ApprovalBrokerOptions options)
    : m_requests(std::move(send), std::move(output_alive), options.liveness_interval)
    , m_options(options)
{
}

ApprovalOutcome ApprovalBroker::ask(const ApprovalAsk& a)
{
    const auto line = [&](std::int64_t request) { return approval_request_line(request, a.session, a.tool, a.description); };
    switch (m_requests.ask(a.session, line, m_options.timeout, a.stopped)) {
    case RequestOutcome::yes: return ApprovalOutcome::approved;
    case RequestOutcome::no: return ApprovalOutcome::denied;
    case RequestOutcome::stopped: return ApprovalOutcome::stopped;
    case RequestOutcome::closed: return ApprovalOutcome::no_host;
    case RequestOutcome::timed_out: break;
    }
    return ApprovalOutcome::timed_out;
}

std::string approval_request_line(std::int64_t request, std::string_view session, std::string_view tool,
    const nlohmann::json& description)
{
    // Ordered, so the line starts with its event as every other line on the pipe does.
    nlohmann::ordered_json line = {{"event", "approval.request"}, {"request", request},
        {"session", session.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(std::string(session))},
        {"tool", std::string(tool)}, {"description", nlohmann::ordered_json(description)}};
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace nd_driver
