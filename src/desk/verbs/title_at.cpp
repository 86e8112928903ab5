#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/verbs/vision_verb_list.h"
#include "desk/vision/vision_shot.h"
#include "desk/vision/vision_state.h"
#include "desk/vision/vision_title.h"

namespace nd_desk::verbs {

VerbDef title_at()
{
    return {
        .decl = {
            .name = "desk_title_at",
            .description = "title: whether the screen point (screen pixels) shows a window title, in a window manager's "
                           "title bar or a desktop panel; where says what is there (title_bar, frame, window, panel, "
                           "desktop, off_screen) and window whose.",
            .args = {{"x", ArgType::integer, "x in screen pixels", true, {}, -65535, 65535, false, 0, true},
                {"y", ArgType::integer, "y in screen pixels", true, {}, -65535, 65535, false, 0, true}},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            TRY_VOID(vision_allowed(desk, "title_at"));
            const nd_core::Point p{static_cast<std::int32_t>(*arg_int(args, "x")), static_cast<std::int32_t>(*arg_int(args, "y"))};
            const auto windows = TRY(desk.all_windows());
            const auto screen = TRY(vision_screen_size(desk));
            const auto at = nd_desk::title_at(windows, {}, p, screen);
            nlohmann::json out{{"title", at.title}, {"where", at.where}, {"x", p.x}, {"y", p.y}};
            if (at.window)
                out["window"] = window_brief(*at.window);
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
