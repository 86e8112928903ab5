#include "mcp/json_rpc.h"

namespace nd_mcp {

namespace {

bool is_valid_id(const nlohmann::json& id)
{
    // MCP narrows JSON-RPC: an id is a string or an integer, never null or fractional.
    return id.is_string() || id.is_number_integer();
}

RpcFault fault(int code, std::string message, std::string id_json = "null")
{
    return RpcFault{code, std::move(message), std::move(id_json)};
}

} // namespace

bool json_nesting_exceeds(std::string_view json, std::size_t max_depth)
{
    std::size_t depth = 0;
    bool in_string = false;
    bool escaped = false;
    for (char c : json) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        switch (c) {
        case '"': in_string = true; break;
        case '[':
        case '{':
            if (++depth > max_depth)
                return true;
            break;
        case ']':
        case '}':
            if (depth > 0)
                --depth;
            break;
        default: break;
        }
    }
    return false;
}

RpcMessage parse_rpc_line(std::string_view line)
{
    if (json_nesting_exceeds(line, RPC_MAX_NESTING))
        return fault(RPC_INVALID_REQUEST,
            "Invalid Request: JSON nested deeper than " + std::to_string(RPC_MAX_NESTING) + " levels");

    nlohmann::json message;
    try {
        message = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
        // The library's own message quotes the offending token, which can be megabytes long.
        return fault(RPC_PARSE_ERROR, "Parse error at byte " + std::to_string(e.byte));
    } catch (const std::exception&) {
        return fault(RPC_PARSE_ERROR, "Parse error");
    }

    if (message.is_array())
        return fault(RPC_INVALID_REQUEST, "Invalid Request: batch arrays are not supported");
    if (!message.is_object())
        return fault(RPC_INVALID_REQUEST, "Invalid Request: a message must be a JSON object");

    RpcRequest request;
    auto id_it = message.find("id");
    if (id_it != message.end()) {
        if (!is_valid_id(*id_it))
            return fault(RPC_INVALID_REQUEST, "Invalid Request: id must be a string or an integer");
        request.has_id = true;
        request.id = *id_it;
        request.id_json = dump_json(*id_it);
    }

    auto method_it = message.find("method");
    if (method_it == message.end() && request.has_id
        && (message.contains("result") || message.contains("error")))
        return RpcIgnored{};

    const std::string& id_json = request.has_id ? request.id_json : std::string("null");
    auto version_it = message.find("jsonrpc");
    if (version_it == message.end() || !version_it->is_string() || *version_it != "2.0")
        return fault(RPC_INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"", id_json);
    if (method_it == message.end() || !method_it->is_string())
        return fault(RPC_INVALID_REQUEST, "Invalid Request: method must be a string", id_json);
    request.method = method_it->get<std::string>();

    auto params_it = message.find("params");
    if (params_it != message.end()) {
        if (!params_it->is_object()) {
            if (!request.has_id)
                return RpcIgnored{};
            return fault(RPC_INVALID_PARAMS, "Invalid params: params must be an object", id_json);
        }
        request.params = std::move(*params_it);
    }
    return request;
}

std::string rpc_error_line(std::string_view id_json, int code, std::string_view message)
{
    return rpc_error_line(id_json, code, message, {});
}

std::string rpc_error_line(std::string_view id_json, int code, std::string_view message, std::string_view data_json)
{
    std::string out;
    nd_core::JsonWriter writer(out);
    writer.begin_object().field("jsonrpc", "2.0").key("id").raw(id_json);
    writer.key("error").begin_object().field("code", code).field("message", message);
    if (!data_json.empty())
        writer.key("data").raw(data_json);
    writer.end_object();
    writer.end_object();
    out.push_back('\n');
    return out;
}

void begin_rpc_result(nd_core::JsonWriter& writer, std::string_view id_json)
{
    writer.begin_object().field("jsonrpc", "2.0").key("id").raw(id_json).key("result");
}

void end_rpc_result(nd_core::JsonWriter& writer, std::string& out)
{
    writer.end_object();
    out.push_back('\n');
}

std::string rpc_result_line(std::string_view id_json, std::string_view result_json)
{
    std::string out;
    out.reserve(result_json.size() + id_json.size() + 40);
    nd_core::JsonWriter writer(out);
    begin_rpc_result(writer, id_json);
    writer.raw(result_json);
    end_rpc_result(writer, out);
    return out;
}

std::string dump_json(const nlohmann::json& value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace nd_mcp
