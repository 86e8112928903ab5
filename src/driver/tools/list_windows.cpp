#include "core/model/schemas.h"
#include "driver/common.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    auto windows = TRY(env.engine.windows_in_scope(*env.session));
    auto filter = args.string("app");
    nlohmann::json list = nlohmann::json::array();
    std::string text;
    for (const auto& w : windows) {
        if (filter) {
            auto hay = nd_core::to_lower_ascii(w.app + "\n" + w.executable + "\n" + w.process + "\n" + w.title);
            if (hay.find(nd_core::to_lower_ascii(*filter)) == std::string::npos)
                continue;
        }
        list.push_back(window_json(w));
        text += "window_id=" + std::to_string(w.window_id) + " pid=" + std::to_string(w.pid) + " app=\"" + w.app
            + "\" title=\"" + w.title + "\"" + (w.active ? " (active)" : "") + "\n";
    }
    const auto count = list.size();
    if (count == 0)
        text = "no approved window is open\n";
    return json_output({{"ok", true}, {"windows", std::move(list)}, {"count", count}}, std::move(text));
}

} // namespace

ToolDef list_windows()
{
    return {
        .decl = {
            .name = "list_windows",
            .title = "List windows",
            .description = "Lists the visible windows of the apps this session may use, topmost first: window_id, pid, "
                           "app, title, frame and whether it is active.",
            .args = {{.name = "app", .type = ArgType::string, .description = "Only windows whose app or title contains this.",
                .strict = true, .max_length = 256}},
            .output_schema =
                [] {
                    return nlohmann::json{{"type", "object"},
                        {"properties",
                            {{"ok", {{"const", true}}},
                                {"windows", {{"type", "array"}, {"items", nd_core::schemas::window_schema()}}},
                                {"count", {{"type", "integer"}}}}},
                        {"required", {"ok", "windows", "count"}}};
                },
        },
        .cls = ToolClass::read,
        .handler = run,
    };
}

} // namespace nd_driver::tools
