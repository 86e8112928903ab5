#include "desk/desk.h"
#include "desk/desk_geometry.h"
#include "desk/desk_read_json.h"
#include "desk/verbs/vision_verb_list.h"
#include "desk/vision/vision_shot.h"
#include "desk/vision/vision_state.h"
#include "desk/vision/vision_title.h"

namespace nd_desk::verbs {

namespace {

// The window whose title the panel's element at `p` shows, or null.
nd_core::Result<const nd_core::WindowInfo*> panel_window(Desk& desk, const nd_core::WindowInfo& panel, nd_core::Point p,
    const std::vector<nd_core::WindowInfo>& windows)
{
    auto snap = TRY(desk.read(panel));
    const auto elements = TRY(framed_elements(desk, *snap));
    return titled_window(elements, row_at(elements, p), windows);
}

} // namespace

VerbDef title_at()
{
    return {
        .decl = {
            .name = "desk_title_at",
            .description = "title: whether the screen point (screen pixels) shows a window title, in a window manager's "
                           "title bar or a desktop panel's button; where says what is there (title_bar, frame, window, "
                           "panel, desktop, off_screen) and window whose.",
            .args = {{"x", ArgType::integer, "x in screen pixels", true, {}, -65535, 65535, false, 0, true},
                {"y", ArgType::integer, "y in screen pixels", true, {}, -65535, 65535, false, 0, true}},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            TRY_VOID(vision_allowed(desk, "title_at"));
            const nd_core::Point p{static_cast<std::int32_t>(*arg_int(args, "x")), static_cast<std::int32_t>(*arg_int(args, "y"))};
            const auto windows = TRY(desk.all_windows());
            const auto screen = TRY(vision_screen_size(desk));
            std::vector<nd_core::WindowInfo> panels;
            if (auto* source = desk.backend().windows()) {
                auto lock = desk.lock_backend();
                panels = TRY(source->list_panels());
            }
            auto at = nd_desk::title_at(windows, panels, p, screen);
            nlohmann::json out{{"x", p.x}, {"y", p.y}};
            if (at.panel) {
                // A task bar shows titles on its buttons: the panel's element at the point tells.
                auto read = panel_window(desk, *at.panel, p, windows);
                if (read) {
                    at.window = *read;
                    at.title = *read != nullptr;
                } else {
                    out["note"] = "the panel could not be read (" + read.error().message + "), so its titles are unknown";
                }
                out["panel"] = at.panel->app;
            }
            out["title"] = at.title;
            out["where"] = at.where;
            if (at.window)
                out["window"] = window_brief(*at.window);
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
