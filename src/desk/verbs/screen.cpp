#include "desk/desk.h"
#include "desk/verbs/verbs.h"

namespace nd_desk::verbs {

VerbDef screen()
{
    return {
        .decl = {
            .name = "desk_screen",
            .description = "The screen's width and height in pixels: the desk coordinates that click, at, shot and "
                           "element bounds use.",
            .args = {},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json&) -> nd_core::Result<VerbReply> {
            auto lock = desk.lock_backend();
            auto* screen = desk.backend().screen();
            if (!screen)
                return nd_core::make_error(nd_core::ErrorCode::unsupported, "this desk has no screen");
            auto size = TRY(screen->size());
            return VerbReply{{{"width", size.width}, {"height", size.height}}, std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
