#include "desk/desk.h"
#include "desk/desk_background.h"
#include "desk/desk_geometry.h"
#include "desk/desk_input.h"
#include "desk/desk_targets.h"
#include "desk/verbs/act_verb_list.h"

namespace nd_desk::verbs {

VerbDef drag()
{
    return {
        .decl = {
            .name = "desk_drag",
            .description = "Presses the left button at (x, y), moves to (to_x, to_y) in steps and releases there, in "
                           "desk coordinates or with window in pixels of that window's shot image. The "
                           "allowlist gates both ends.",
            .args = {{"x", ArgType::integer, "start x", true}, {"y", ArgType::integer, "start y", true},
                {"to_x", ArgType::integer, "end x", true}, {"to_y", ArgType::integer, "end y", true},
                {"window", ArgType::string, "the window's title, or a part of it only one window has"},
                {"pid", ArgType::integer, "the window's process"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            return by_input_mode(
                desk,
                [&]() -> nd_core::Result<VerbReply> {
                    auto input = TRY(DeskInput::begin(desk, scope));
                    return background_drag(desk, *input, args);
                },
                [&]() -> nd_core::Result<VerbReply> {
                    const auto window = TRY(named_window(desk, args));
                    const auto from = TRY(point_arg(args, "x", "y", window));
                    const auto to = TRY(point_arg(args, "to_x", "to_y", window));
                    TRY_VOID(refuse_own_surface(desk, from, "the start"));
                    TRY_VOID(refuse_own_surface(desk, to, "the end"));
                    auto input = TRY(DeskInput::begin(desk, scope));
                    if (window && !window->active)
                        TRY_VOID(input->raise(*window));
                    (void)TRY(check_point_allowed(desk, from, "the start"));
                    (void)TRY(check_point_allowed(desk, to, "the end"));
                    TRY_VOID(input->drag(from, to));
                    return VerbReply{{{"dragged", {{"from", {from.x, from.y}}, {"to", {to.x, to.y}}}}}, std::nullopt};
                });
        },
    };
}

} // namespace nd_desk::verbs
