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

void write_capabilities(nd_core::JsonWriter& writer, const McpServerInfo& info)
{
    writer.key("capabilities").begin_object();
    writer.key("tools").begin_object().field("listChanged", false).end_object();
    if (info.resources)
        writer.key("resources").begin_object().end_object();
    writer.end_object();
}

// What every modern-era result carries: it is complete (the server never asks the client for
// input mid-call).
void write_result_type(nd_core::JsonWriter& writer, Era era)
{
    if (era == Era::modern)
        writer.field("resultType", "complete");
}

// The cache hints of a modern-era list result: the list is not cached across calls, since the
// tools a desk offers follow its configuration.
void write_cache_hints(nd_core::JsonWriter& writer, Era era)
{
    if (era == Era::modern)
        writer.field("ttlMs", 0).field("cacheScope", "private");
}

// A list method's result: {<key>: items}, with the modern era's result type and cache hints.
std::string list_result(const RpcRequest& request, std::string_view key, const nlohmann::json& items, Era era)
{
    if (!items.is_array())
        return rpc_error_line(request.id_json, RPC_INTERNAL_ERROR, "Internal error: the " + std::string(key) + " list is not an array");
    std::string out;
    nd_core::JsonWriter writer(out);
    begin_rpc_result(writer, request.id_json);
    writer.begin_object().key(key).raw(dump_json(items));
    write_result_type(writer, era);
    write_cache_hints(writer, era);
    writer.end_object();
    end_rpc_result(writer, out);
    return out;
}

} // namespace

std::string handle_discover(const RpcRequest& request, const McpServerInfo& info)
{
    std::string out;
    nd_core::JsonWriter writer(out);
    begin_rpc_result(writer, request.id_json);
    writer.begin_object();
    writer.key("supportedVersions").begin_array();
    for (auto version : MCP_MODERN_VERSIONS)
        writer.string(version);
    writer.end_array();
    write_capabilities(writer, info);
    if (!info.instructions.empty())
        writer.field("instructions", info.instructions);
    write_result_type(writer, Era::modern);
    write_cache_hints(writer, Era::modern);
    writer.key("_meta").begin_object();
    writer.key(META_SERVER_INFO).begin_object().field("name", info.name).field("version", info.version).end_object();
    writer.end_object();
    writer.end_object();
    end_rpc_result(writer, out);
    return out;
}

std::optional<std::string> initialize_client_name(const RpcRequest& request)
{
    auto client_it = request.params.find("clientInfo");
    if (client_it == request.params.end() || !client_it->is_object())
        return std::nullopt;
    auto name_it = client_it->find("name");
    if (name_it == client_it->end() || !name_it->is_string())
        return std::nullopt;
    return name_it->get<std::string>();
}

std::string handle_initialize(const RpcRequest& request, const McpServerInfo& info)
{
    auto version_it = request.params.find("protocolVersion");
    auto version = negotiate_protocol_version(version_it != request.params.end() ? *version_it : nlohmann::json());

    std::string out;
    nd_core::JsonWriter writer(out);
    begin_rpc_result(writer, request.id_json);
    writer.begin_object().field("protocolVersion", version);
    write_capabilities(writer, info);
    writer.key("serverInfo").begin_object().field("name", info.name).field("version", info.version).end_object();
    if (!info.instructions.empty())
        writer.field("instructions", info.instructions);
    writer.end_object();
    end_rpc_result(writer, out);
    return out;
}

std::string handle_tools_list(const RpcRequest& request, ToolHost& host, Era era)
{
    return list_result(request, "tools", host.list_tools(), era);
}

std::string handle_tools_call(const RpcRequest& request, ToolHost& host, const CallContext& context, Era era)
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
    write_call_tool_result(writer, output, era);
    end_rpc_result(writer, out);
    return out;
}

std::string handle_resources_list(const RpcRequest& request, ToolHost& host, Era era)
{
    return list_result(request, "resources", host.list_resources(), era);
}

std::string handle_resources_read(const RpcRequest& request, ToolHost& host, Era era)
{
    auto uri_it = request.params.find("uri");
    if (uri_it == request.params.end() || !uri_it->is_string())
        return rpc_error_line(request.id_json, RPC_INVALID_PARAMS, "Invalid params: uri must be a string");
    const auto& uri = uri_it->get_ref<const std::string&>();
    const std::string data = dump_json(nlohmann::json{{"uri", echoable(uri)}});
    ResourceText resource = host.read_resource(uri);
    if (!resource.found)
        return rpc_error_line(request.id_json, RPC_RESOURCE_NOT_FOUND, "Resource not found", data);
    if (!resource.error.empty())
        return rpc_error_line(request.id_json, RPC_INTERNAL_ERROR, "Internal error: " + resource.error, data);
    std::string out;
    out.reserve(resource.text.size() + uri.size() + 160);
    nd_core::JsonWriter writer(out);
    begin_rpc_result(writer, request.id_json);
    writer.begin_object().key("contents").begin_array();
    writer.begin_object().field("uri", uri).field("mimeType", resource.mime_type).field("text", resource.text).end_object();
    writer.end_array();
    write_result_type(writer, era);
    writer.end_object();
    end_rpc_result(writer, out);
    return out;
}

void write_call_tool_result(nd_core::JsonWriter& writer, const ToolOutput& output, Era era)
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
    write_result_type(writer, era);
    writer.end_object();
}

} // namespace nd_mcp
