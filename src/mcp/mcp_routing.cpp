#include "mcp/mcp_routing.h"

#include <algorithm>

namespace nd_mcp {

namespace {

bool is_blank(std::string_view line)
{
    return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

LineAction reply(std::string line)
{
    LineAction action;
    action.kind = LineAction::Kind::reply;
    action.reply = std::move(line);
    return action;
}

LineAction notification_action(const RpcRequest& notification)
{
    // notifications/initialized and every other notification need nothing from this server.
    LineAction action;
    if (notification.method != "notifications/cancelled")
        return action;
    auto it = notification.params.find("requestId");
    if (it == notification.params.end() || !(it->is_string() || it->is_number_integer()))
        return action;
    action.kind = LineAction::Kind::cancel;
    action.cancel_id = *it;
    return action;
}

} // namespace

LineAction route_line(std::string_view line, const McpServerInfo& info)
{
    if (is_blank(line))
        return {};
    RpcMessage message = parse_rpc_line(line);
    if (auto* fault = std::get_if<RpcFault>(&message))
        return reply(rpc_error_line(fault->id_json, fault->code, fault->message));
    auto* request = std::get_if<RpcRequest>(&message);
    if (!request)
        return {};
    if (!request->has_id)
        return notification_action(*request);
    auto era = classify_era(*request);
    if (auto* fault = std::get_if<EraFault>(&era))
        return reply(rpc_error_line(request->id_json, fault->code, fault->message, fault->data_json));
    auto& claim = std::get<EraClaim>(era);
    // A liveness check (legacy) and the modern era's discovery never wait behind a tool call.
    if (claim.era == Era::legacy && request->method == "ping")
        return reply(rpc_result_line(request->id_json, "{}"));
    if (claim.era == Era::modern && request->method == "server/discover")
        return reply(handle_discover(*request, info));
    LineAction action;
    action.kind = LineAction::Kind::enqueue;
    action.request = std::move(*request);
    action.era = std::move(claim);
    return action;
}

std::optional<std::string> request_client_name(const RpcRequest& request, const EraClaim& era)
{
    if (era.era == Era::modern)
        return era.client_name;
    if (request.method == "initialize")
        return initialize_client_name(request);
    return std::nullopt;
}

std::string answer_request(const RpcRequest& request, const EraClaim& claim, ToolHost& host, const McpServerInfo& info,
    const CallContext& context)
{
    const Era era = claim.era;
    if (request.method == "tools/call")
        return handle_tools_call(request, host, context, era);
    if (request.method == "tools/list")
        return handle_tools_list(request, host, era);
    if (info.resources && request.method == "resources/list")
        return handle_resources_list(request, host, era);
    if (info.resources && request.method == "resources/read")
        return handle_resources_read(request, host, era);
    if (era == Era::legacy && request.method == "initialize")
        return handle_initialize(request, info);
    if (info.extra_method) {
        if (auto result = info.extra_method(request))
            return rpc_result_line(request.id_json, dump_json(*result));
    }
    std::string message = "Method not found: " + request.method.substr(0, 128);
    if (era == Era::modern && (request.method == "initialize" || request.method == "ping"))
        message += " (protocol revision " + claim.revision + " has no " + request.method
            + "; call server/discover, tools/list or tools/call with the _meta envelope)";
    else if (era == Era::legacy && request.method == "server/discover")
        message += " (server/discover is protocol revision " + std::string(MCP_MODERN_VERSIONS.front()) +
                   "'s: send it with the _meta envelope naming that revision, or open with initialize)";
    if (info.not_found_data)
        return rpc_error_line(request.id_json, RPC_METHOD_NOT_FOUND, message, dump_json(info.not_found_data(request)));
    return rpc_error_line(request.id_json, RPC_METHOD_NOT_FOUND, message);
}

} // namespace nd_mcp
