#include "mcp/control_lines.h"

#include "core/engine/act_result.h"

namespace nd_mcp {

using nd_core::Error;
using nd_core::ErrorCode;
using nd_core::JsonWriter;

namespace {

// What the host sent that a reply repeats: bounded, so a reply line stays small whatever came in.
constexpr std::size_t MAX_ECHO_CHARS = 128;

void write_id(JsonWriter& w, const nlohmann::json& id)
{
    if (id.is_string())
        w.field("id", id.get_ref<const std::string&>().substr(0, MAX_ECHO_CHARS));
    else if (id.is_number_integer())
        w.field("id", id.get<std::int64_t>());
}

} // namespace

std::optional<std::string> parse_control_request(std::string_view line, ControlRequest& r)
{
    r = ControlRequest{};
    auto doc = nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return control_error_line(Error(ErrorCode::invalid_arguments, "a control line must be one JSON object"), nullptr);
    if (auto id = doc.find("id"); id != doc.end() && (id->is_string() || id->is_number_integer()))
        r.id = *id;
    auto method = doc.find("method");
    if (method == doc.end() || !method->is_string())
        return control_error_line(Error(ErrorCode::invalid_arguments, "a control line needs a method string"), &r);
    r.method = method->get<std::string>();
    if (auto params = doc.find("params"); params != doc.end() && !params->is_null()) {
        if (!params->is_object())
            return control_error_line(Error(ErrorCode::invalid_arguments, "params must be an object"), &r);
        r.params = *params;
    }
    return std::nullopt;
}

std::string control_error_line(const Error& e, const ControlRequest* request)
{
    std::string out;
    JsonWriter w(out);
    w.begin_object().field("event", "error");
    if (request && !request->method.empty())
        w.field("method", std::string_view(request->method).substr(0, MAX_ECHO_CHARS));
    else
        w.key("method").null();
    if (request)
        write_id(w, request->id);
    w.key("error");
    nd_core::write_error_object(w, e);
    w.end_object();
    return out;
}

void begin_control_ack(JsonWriter& w, const ControlRequest& r)
{
    w.begin_object().field("event", "ack").field("method", r.method);
    write_id(w, r.id);
}

std::string control_line_too_long(std::size_t max_line_bytes)
{
    return control_error_line(Error(ErrorCode::invalid_arguments,
                                  "the line is longer than " + std::to_string(max_line_bytes) + " bytes and was skipped"),
        nullptr);
}

} // namespace nd_mcp
