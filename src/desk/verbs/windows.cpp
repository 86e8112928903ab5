#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_parts.h"
#include "desk/verbs/read_verb_list.h"

namespace nd_desk {

nd_core::Result<nlohmann::json> read_windows_json(Desk& desk, bool with_routes)
{
    auto lock = desk.lock_backend();
    auto all = TRY(desk.all_windows());
    std::vector<nd_core::WindowInfo> allowed;
    for (const auto& w : all)
        if (desk.allows(w))
            allowed.push_back(w);
    auto list = windows_json(allowed, all, screen_size(desk));
    // The background routes each window's toolkit takes (docs/desk-background.md, "Routes per
    // toolkit"): the toolkit is asked once per process, and listed only where background input is on.
    if (with_routes)
        for (std::size_t i = 0; i < allowed.size(); ++i)
            list[i]["background"] = desk.backend().background_routes(allowed[i]).routes;
    return list;
}

} // namespace nd_desk

namespace nd_desk::verbs {

VerbDef windows()
{
    return {
        .decl = {
            .name = "desk_windows",
            .description = "The top-level windows, topmost first: id (pass it to snapshot as id), title, role (window or "
                           "dialog), pid, active and app; a modal dialog the screen does not show has modal (hidden, off "
                           "the screen, or behind \"TITLE\") and blocks (the title of the window it blocks); a window of "
                           "the desktop shell's process has shell: true. Only windows of allowed apps are listed.",
            .args = {},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json&) -> nd_core::Result<VerbReply> {
            auto list = TRY(read_windows_json(desk, desk.config().input_mode != DeskConfig::InputMode::foreground));
            return VerbReply{{{"windows", std::move(list)}}, std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
