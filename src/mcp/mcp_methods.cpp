#include "mcp/mcp_methods.h"

namespace nd_mcp {

namespace {

// Tool names are echoed in errors; a hostile name must not turn an error into megabytes.
constexpr std::size_t MAX_ECHOED_NAME = 128;

std::string echoable(std::string_view text)
{
    if (text.size() <= MAX_ECHOED_NAME)
        return std::string(text);
    return std::string(text.substr(0, MAX_ECHOED_NAME)) + "...";
}

} // namespace

std::string_view negotiate_protocol_version(const nlohmann::json& requested)
{
    if (requested.is_string()) {
        const auto& wanted = requested.get_ref<const std::string&>();
        for (auto version : MCP_PROTOCOL_VERSIONS) {
            if (wanted == version)
                return version;
        }
    }
    return MCP_PROTOCOL_VERSIONS.front();
}

std::string handle_initialize(const RpcRequest& request, const McpServerInfo& info, ToolHost& host)
{
    auto version_it = request.params.find("protocolVersion");
    auto version = negotiate_protocol_version(version_it != request.params.end() ? *version_it : nlohmann::json());

    auto client_it = request.params.find("clientInfo");
    if (client_it != request.params.end() && client_it->is_object()) {
        auto name_it = client_it->find("name");
        if (name_it != client_it->end() && name_it->is_string())
            host.set_client_name(name_it->get_ref<const std::string&>());
    }

    std::string out;
    nd_core::JsonWriter writer(out);
    begin_rpc_result(writer, request.id_json);
    writer.begin_object().field("protocolVersion", version);
    writer.key("capabilities").begin_object();
    writer.key("tools").begin_object().field("listChanged", false).end_object();
    writer.end_object();
    writer.key("serverInfo").begin_object().field("name", info.name).field("version", info.version).end_object();
    if (!info.instructions.empty())
        writer.field("instructions", info.instructions);
    writer.end_object();
    end_rpc_result(writer, out);
    return out;
}

std::string handle_tools_list(const RpcRequest& request, ToolHost& host)
{
    nlohmann::json tools = host.list_tools();
    if (!tools.is_array())
        return rpc_error_line(request.id_json, RPC_INTERNAL_ERROR, "Internal error: the tool list is not an array");
    std::string out;
    nd_core::JsonWriter writer(out);
    begin_rpc_result(writer, request.id_json);
    writer.begin_object().key("tools").raw(dump_json(tools)).end_object();
    end_rpc_result(writer, out);
    return out;
}

std::string handle_tools_call(const RpcRequest& request, ToolHost& host, const CallContext& context)
{
    auto name_it = request.params.find("name");
    if (name_it == request.params.end() || !name_it->is_string())
        return rpc_error_line(request.id_json, RPC_INVALID_PARAMS, "Invalid params: name must be a string");
    const auto& name = name_it->get_ref<const std::string&>();
    if (!host.has_tool(name))
        return rpc_error_line(request.id_json, RPC_INVALID_PARAMS, "Unknown tool: " + echoable(name));

    static const nlohmann::json empty_arguments = nlohmann::json::object();
    const nlohmann::json* arguments = &empty_arguments;
    auto arguments_it = request.params.find("arguments");
    if (arguments_it != request.params.end() && !arguments_it->is_null()) {
        if (!arguments_it->is_object())
            return rpc_error_line(request.id_json, RPC_INVALID_PARAMS, "Invalid params: arguments must be an object");
        arguments = &*arguments_it;
    }

    ToolOutput output = host.call_tool(name, *arguments, context);

    std::string out;
    out.reserve(output.structured.size() + output.text.size() + (output.image ? output.image->data_base64.size() : 0)
        + request.id_json.size() + 160);
    nd_core::JsonWriter writer(out);
    begin_rpc_result(writer, request.id_json);
    write_call_tool_result(writer, output);
    end_rpc_result(writer, out);
    return out;
}

void write_call_tool_result(nd_core::JsonWriter& writer, const ToolOutput& output)
{
    writer.begin_object();
    writer.key("content").begin_array();
    writer.begin_object().field("type", "text").field("text", output.text).end_object();
    if (output.image) {
        writer.begin_object()
            .field("type", "image")
            .field("data", output.image->data_base64)
            .field("mimeType", output.image->mime_type)
            .end_object();
    }
    writer.end_array();
    // structuredContent must be an object; an empty string means the tool produced none.
    if (!output.structured.empty())
        writer.key("structuredContent").raw(output.structured);
    writer.field("isError", output.is_error);
    writer.end_object();
}

} // namespace nd_mcp
