// libFuzzer target for the MCP server's reading side (docs/mcp.md): each input is one received
// line, routed exactly as the server's reader routes it (mcp_routing.h), and a request the reader
// queues is answered exactly as the worker answers it, against a host whose tools echo their
// arguments and report progress, and whose resources read back their uri. Both eras: the seed corpus holds 2025-11-25 and 2026-07-28
// requests. Nothing may crash, hang or read out of bounds, and everything the server would write
// must be one JSON-RPC line: a response with the request's id and exactly one of result or error
// (an error with an integer code and a message), or a progress notification.
//
//   scripts/fuzz-mcp [SECONDS]   builds this with clang and runs it

#include "fuzz_check.h"
#include "mcp/mcp_routing.h"
#include "mcp/progress.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>

namespace {

using nd_fuzz::check_response;
using nd_fuzz::require;
using nd_fuzz::written;

class EchoHost final : public nd_mcp::ToolHost {
public:
    nlohmann::json list_tools() override
    {
        return nlohmann::json::array({{{"name", "echo"}, {"inputSchema", {{"type", "object"}}}}});
    }
    bool has_tool(std::string_view name) override { return name == "echo" || name == "fail"; }
    nd_mcp::ToolOutput call_tool(std::string_view name, const nlohmann::json& arguments,
        const nd_mcp::CallContext& context) override
    {
        context.report_progress(1, 2, "half");
        context.report_progress(2, 2, "done");
        nd_mcp::ToolOutput out;
        out.is_error = name == "fail";
        out.structured = R"({"args":)" + nd_mcp::dump_json(arguments) + "}";
        out.text = "echoed";
        return out;
    }
    bool has_resources() override { return true; }
    nlohmann::json list_resources() override
    {
        return nlohmann::json::array({{{"uri", "fuzz://doc"}, {"name", "doc.md"}, {"mimeType", "text/markdown"}}});
    }
    nd_mcp::ResourceText read_resource(std::string_view uri) override
    {
        nd_mcp::ResourceText out;
        out.found = uri.starts_with("fuzz://");
        out.mime_type = "text/plain";
        if (uri == "fuzz://broken")
            out.error = "cannot be read";
        else
            out.text = std::string(uri);
        return out;
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    const nd_mcp::McpServerInfo info{"fuzz", "0.0.0", "instructions", true};
    auto action = nd_mcp::route_line(line, info);
    switch (action.kind) {
    case nd_mcp::LineAction::Kind::none: break;
    case nd_mcp::LineAction::Kind::reply: check_response(action.reply, nullptr); break;
    case nd_mcp::LineAction::Kind::cancel: require(action.cancel_id.is_string() || action.cancel_id.is_number_integer()); break;
    case nd_mcp::LineAction::Kind::enqueue: {
        require(action.request.has_id);
        EchoHost host;
        std::atomic<bool> cancelled{false};
        nd_mcp::CallContext context;
        context.cancelled = &cancelled;
        std::optional<nd_mcp::ProgressNotifier> progress;
        if (auto token = nd_mcp::progress_token_json(action.request.params); !token.empty()) {
            progress.emplace(std::move(token), [](std::string_view note) {
                auto message = written(std::string(note));
                require(message.value("method", "") == "notifications/progress" && !message.contains("id"));
            }, &cancelled);
            context.progress = &*progress;
        }
        (void)nd_mcp::request_client_name(action.request, action.era);
        check_response(nd_mcp::answer_request(action.request, action.era, host, info, context), &action.request.id);
        break;
    }
    }
    return 0;
}
