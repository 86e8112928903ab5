#include "desk/desk.h"
#include "desk/desk_background.h"
#include "desk/desk_geometry.h"
#include "desk/desk_input.h"
#include "desk/desk_targets.h"
#include "desk/verbs/act_verb_list.h"

namespace nd_desk::verbs {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

} // namespace

VerbDef click()
{
    return {
        .decl = {
            .name = "desk_click",
            .description = "Clicks a screen point (desk coordinates) in the foreground. With window, x and y are pixels of "
                           "that window's shot image (desk_shot with window), and the window is brought to the front "
                           "first. The middle button is refused: it pastes.",
            .args = {{"x", ArgType::integer, "x in desk coordinates, or with window a pixel of its shot image", true},
                {"y", ArgType::integer, "y in desk coordinates, or with window a pixel of its shot image", true},
                {"button", ArgType::string, "left (default) or right; middle is refused, since it pastes", false, {"left", "right", "middle"}},
                {"count", ArgType::integer, "clicks: 1 (default), 2 for a double click, 3 for a triple", false, {}, 1, 3},
                {"window", ArgType::string, "the window's title, or a part of it only one window has"},
                {"pid", ArgType::integer, "the window's process"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto button_name = arg_string(args, "button").value_or("left");
            if (button_name == "middle")
                return make_error(ErrorCode::invalid_arguments,
                    "button: middle is refused, since a middle click pastes the primary selection; use left or right");
            return by_input_mode(
                desk,
                [&]() -> nd_core::Result<VerbReply> {
                    auto input = TRY(DeskInput::begin(desk, scope));
                    return background_click(desk, *input, args);
                },
                [&]() -> nd_core::Result<VerbReply> {
                    const auto button = button_name == "right" ? nd_core::MouseButton::right : nd_core::MouseButton::left;
                    const auto count = static_cast<std::int32_t>(arg_int(args, "count").value_or(1));
                    const auto window = TRY(named_window(desk, args));
                    const auto point = TRY(point_arg(args, "x", "y", window));
                    TRY_VOID(refuse_own_surface(desk, point, "the point"));
                    auto input = TRY(DeskInput::begin(desk, scope));
                    if (window && !window->active)
                        TRY_VOID(input->raise(*window));
                    const auto top = TRY(check_point_allowed(desk, point, "the point"));
                    if (window && (!top || top->window_id != window->window_id))
                        return make_error(ErrorCode::target_occluded,
                            "the point shows " + (top ? "the window \"" + top->title + "\"" : std::string("no window")) +
                                ", not the named one: pick a point of its shot that it does not cover");
                    TRY_VOID(input->click(point, button, count));
                    nlohmann::json out{{"clicked", {point.x, point.y}}, {"button", button_name}, {"count", count}};
                    if (top)
                        out["window"] = top->title;
                    return VerbReply{std::move(out), std::nullopt};
                });
        },
    };
}

} // namespace nd_desk::verbs
