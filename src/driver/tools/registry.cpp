#include "driver/tool_registry.h"

#include "driver/tools/tools.h"

namespace nd_driver {

namespace {

// What makes a declaration a contract tool: the contract's argument policy (§1) and hints that
// follow from the tool's class. Every hint is paid for in the model's context on every turn, so
// those that hold their protocol default (idempotentHint false; openWorldHint true for acts, which
// may reach the web through a browser) and destructiveHint where it means nothing (a tool that
// only reads) are left out.
ToolDef contract_tool(ToolDef def)
{
    def.decl.policy = nd_mcp::ArgPolicy::drop;
    const bool read_only = def.cls == ToolClass::read || def.cls == ToolClass::info;
    auto& hints = def.decl.annotations;
    hints.read_only = read_only;
    if (read_only) {
        hints.open_world = false;
        hints.destructive = std::nullopt;
    } else {
        hints.destructive = hints.destructive.value_or(false);
    }
    if (def.cls == ToolClass::read)
        hints.idempotent = true;
    return def;
}

} // namespace

const std::vector<ToolDef>& all_tools()
{
    static const std::vector<ToolDef> TOOLS = [] {
        std::vector<ToolDef> tools = {
            tools::list_windows(),
            tools::get_window_state(),
            tools::start_session(),
            tools::end_session(),
            tools::get_session_state(),
            tools::click(),
            tools::double_click(),
            tools::right_click(),
            tools::type_text(),
            tools::set_value(),
            tools::press_key(),
            tools::hotkey(),
            tools::scroll(),
            tools::drag(),
            tools::bring_to_front(),
            tools::move_cursor(),
            tools::health_report(),
            tools::clipboard_read(),
            tools::clipboard_write(),
            tools::list_notifications(),
            tools::dismiss_notification(),
            tools::invoke_notification_action(),
            tools::list_app_actions(),
            tools::app_action(),
        };
        for (auto& def : tools)
            def = contract_tool(std::move(def));
        return tools;
    }();
    return TOOLS;
}

const ToolDef* find_tool(std::string_view name)
{
    for (const auto& def : all_tools())
        if (def.decl.name == name)
            return &def;
    return nullptr;
}

nlohmann::json output_schema(std::string_view tool)
{
    const auto* def = find_tool(tool);
    if (!def || !def->decl.output_schema)
        return nullptr;
    auto schema = def->decl.output_schema();
    schema["$schema"] = "http://json-schema.org/draft-07/schema#";
    return schema;
}

} // namespace nd_driver
