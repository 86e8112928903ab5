#include "driver/tool_registry.h"

#include "driver/tools/tools.h"

namespace nd_driver {

const std::vector<ToolDef>& all_tools()
{
    static const std::vector<ToolDef> TOOLS = {
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
    return TOOLS;
}

const ToolDef* find_tool(std::string_view name)
{
    for (const auto& def : all_tools())
        if (def.name == name)
            return &def;
    return nullptr;
}

nlohmann::json output_schema(std::string_view tool)
{
    const auto* def = find_tool(tool);
    if (!def || !def->output_schema)
        return nullptr;
    auto schema = def->output_schema();
    schema["$schema"] = "http://json-schema.org/draft-07/schema#";
    return schema;
}

} // namespace nd_driver
