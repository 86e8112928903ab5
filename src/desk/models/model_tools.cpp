// The one registry of the model tools (model_tool.h).

#include "desk/models/model_tool.h"

#include "core/encode/base64.h"

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

const std::vector<ModelToolDef>& model_tools()
{
    static const std::vector<ModelToolDef> tools = {
        model_tool_list::decide(),
        model_tool_list::ask(),
        model_tool_list::ground(),
    };
    return tools;
}

const ModelToolDef* find_model_tool(std::string_view name)
{
    for (const auto& tool : model_tools())
        if (tool.decl.name == name)
            return &tool;
    return nullptr;
}

nd_core::Result<nlohmann::json> call_model_tool(ModelClient& client, const ModelToolDef& tool, const CallScope& scope,
                                                const nlohmann::json& args)
{
    auto checked = nd_mcp::check_arguments(tool.decl, args.is_null() ? nlohmann::json::object() : args);
    if (!checked)
        return make_error(checked.error().code, tool.decl.name + ": " + checked.error().message);
    nd_core::Result<nlohmann::json> out = make_error(ErrorCode::internal_error, "");
    try {
        out = tool.handler(client, scope, *checked);
    } catch (const std::exception& e) {
        return make_error(ErrorCode::internal_error, tool.decl.name + ": " + e.what());
    }
    if (!out)
        return make_error(out.error().code, tool.decl.name + ": " + out.error().message);
    return out;
}

nd_core::Result<void> check_png_b64(const std::string& b64, const std::string& name)
{
    static constexpr std::string_view signature = "\x89PNG\r\n\x1a\n";
    std::string bytes;
    if (!nd_core::base64_decode(b64, bytes))
        return make_error(ErrorCode::invalid_arguments, name + ": is not base64 (standard alphabet, with padding)");
    if (!std::string_view(bytes).starts_with(signature))
        return make_error(ErrorCode::invalid_arguments, name + ": is not a PNG (desk_shot's image_b64 is one)");
    return {};
}

nd_mcp::ArgSpec model_timeout_arg()
{
    return {.name = "timeout_ms",
        .type = nd_mcp::ArgType::integer,
        .description = "caps the configured timeout",
        .min = 100,
        .max = 600000};
}

std::optional<int> model_timeout(const nlohmann::json& args)
{
    if (auto t = arg_int(args, "timeout_ms"))
        return static_cast<int>(*t); // within the declared bounds: the check ran first
    return std::nullopt;
}

} // namespace nd_desk
