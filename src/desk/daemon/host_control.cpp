#include "desk/daemon/host_control.h"

#include "core/encode/json_writer.h"
#include "mcp/control_lines.h"

namespace nd_desk {

using nd_core::ConfirmOutcome;
using nd_core::Error;
using nd_core::ErrorCode;
using nd_core::JsonWriter;
using nd_mcp::RequestOutcome;

namespace {

nd_mcp::LineChannelOptions channel_options(const HostControlOptions& o)
{
    return {.max_line_bytes = o.max_line_bytes, .write_timeout = o.write_timeout, .log_prefix = o.log_prefix};
}

} // namespace

HostControl::HostControl(int in_fd, int out_fd, SafetyHook safety, HostControlOptions options)
    : m_safety(std::move(safety))
    , m_requests([this](std::string_view line) { return send(line); }, [this] { return m_channel.output_alive(); },
          options.liveness_interval)
    // Once IN ends or OUT closes nobody can answer: pending and later questions fail at once.
    , m_channel(
          in_fd, out_fd, [this](std::string_view line) { return handle(line); }, [this] { m_requests.close(); },
          channel_options(options))
{
}

HostControl::~HostControl() { stop(); }

nd_core::Result<void> HostControl::start() { return m_channel.start(); }

void HostControl::stop()
{
    m_requests.close();
    m_channel.stop();
}

nd_core::Result<ConfirmOutcome> HostControl::ask(const nd_core::ConfirmRequest& req, const nd_core::ConfirmWait& wait)
{
    const auto line = [&](std::int64_t request) { return confirm_request_line(request, req); };
    switch (m_requests.ask({}, line, wait.timeout, wait.stopped)) {
    case RequestOutcome::yes: return ConfirmOutcome::allowed;
    case RequestOutcome::no: return ConfirmOutcome::refused;
    case RequestOutcome::timed_out: return ConfirmOutcome::timed_out;
    case RequestOutcome::stopped: return ConfirmOutcome::stopped;
    case RequestOutcome::closed: break;
    }
    return nd_core::make_error(ErrorCode::backend_unavailable, "the host's control pipe is closed; nothing can answer confirm mode");
}

std::string HostControl::handle(std::string_view line)
{
    nd_mcp::ControlRequest r;
    if (auto bad = nd_mcp::parse_control_request(line, r))
        return std::move(*bad);
    std::string out;
    JsonWriter w(out);
    if (r.method == "confirm.answer") {
        auto request = r.params.find("request");
        auto allow = r.params.find("allow");
        if (request == r.params.end() || !request->is_number_integer() || allow == r.params.end() || !allow->is_boolean())
            return nd_mcp::control_error_line(
                Error(ErrorCode::invalid_arguments, "confirm.answer needs params.request and params.allow"), &r);
        const auto n = request->get<std::int64_t>();
        if (!m_requests.answer(n, allow->get<bool>()))
            return nd_mcp::control_error_line(
                Error(ErrorCode::invalid_arguments, "no confirm request of that number is waiting"), &r);
        nd_mcp::begin_control_ack(w, r);
        w.field("request", n).end_object();
        return out;
    }
    if (m_safety && (r.method == "safety_stop" || r.method == "safety_resume")) {
        const bool stop = r.method == "safety_stop";
        m_safety(stop);
        // Every call in flight is stopped, the ones waiting for a confirm answer too.
        if (stop)
            m_requests.cancel();
        nd_mcp::begin_control_ack(w, r);
        w.end_object();
        return out;
    }
    return nd_mcp::control_error_line(Error(ErrorCode::unknown_method, "the control pipe has no method of that name"), &r);
}

std::string confirm_request_line(std::int64_t request, const nd_core::ConfirmRequest& req)
{
    std::string out;
    JsonWriter w(out);
    w.begin_object()
        .field("event", "confirm.request")
        .field("request", request)
        .field("verb", req.verb)
        .field("app", req.app)
        .field("window", req.window)
        .field("target", req.target);
    if (req.text_chars)
        w.field("text_chars", *req.text_chars);
    // Never the text of a field that is, or may be, a password field, whatever the request holds.
    if (!req.text_start.empty() && !req.secure)
        w.field("text_start", req.text_start);
    w.field("secure", req.secure).end_object();
    return out;
}

} // namespace nd_desk
