#include "desk/desk.h"
#include "desk/desk_geometry.h"
#include "desk/desk_input.h"
#include "desk/desk_targets.h"
#include "desk/verbs/act_verb_list.h"

#include <algorithm>

namespace nd_desk::verbs {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

constexpr std::int64_t MAX_NOTCHES = 50;

} // namespace

VerbDef scroll()
{
    return {
        .name = "scroll",
        .description = "Wheel notches in the foreground. With x and y, at that point (with window, pixels of its shot "
                       "image), scrolling whatever is under it; without them, at the centre of the front (focused) app "
                       "window, failing when another window covers that centre.",
        .args = {{"direction", ArgType::string, "which way", true, {"up", "down", "left", "right"}},
            {"amount", ArgType::integer, "notches, default 3; more than 50 are capped at 50", false, {}, 1, std::nullopt},
            {"x", ArgType::integer, "x in desk coordinates, or with window a pixel of its shot image"},
            {"y", ArgType::integer, "y in desk coordinates, or with window a pixel of its shot image"},
            {"window", ArgType::string, "the window's title, or a part of it only one window has"},
            {"pid", ArgType::integer, "the window's process"}},
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto direction = *arg_string(args, "direction");
            const auto asked = arg_int(args, "amount").value_or(3);
            const auto amount = static_cast<std::int32_t>(std::min(asked, MAX_NOTCHES));
            const bool has_x = arg_int(args, "x").has_value(), has_y = arg_int(args, "y").has_value();
            if (has_x != has_y)
                return make_error(ErrorCode::invalid_arguments,
                    std::string(has_x ? "y" : "x") + ": required with " + (has_x ? "x" : "y") +
                        "; pass both, or neither to scroll the front window at its centre");
            std::optional<nd_core::WindowInfo> window;
            if (names_window(args))
                window = TRY(desk.pick_window(args));
            auto input = TRY(DeskInput::begin(desk, scope));
            nd_core::Point point;
            std::optional<nd_core::WindowInfo> top;
            if (has_x) {
                point = TRY(point_arg(args, "x", "y", window));
                top = TRY(check_point_allowed(desk, point, "the point"));
            } else {
                // The front window is the focused app's: the named one (raised), else the active one.
                nd_core::WindowInfo front;
                if (window) {
                    if (!window->active)
                        TRY_VOID(input->raise(*window));
                    front = *window;
                } else {
                    auto all = TRY(desk.all_windows());
                    const nd_core::WindowInfo* active = nullptr;
                    for (const auto& w : all)
                        if (w.active && !active)
                            active = &w;
                    if (!active)
                        return make_error(ErrorCode::window_target_not_found,
                            "no window is active to scroll: pass x and y, or name the window");
                    TRY_VOID(desk.check_allowed(*active));
                    front = *active;
                }
                point = centre_of(front.frame);
                top = TRY(check_point_allowed(desk, point, "the front window's centre"));
                if (!top || top->window_id != front.window_id)
                    return make_error(ErrorCode::target_occluded,
                        "another window" + (top ? " (\"" + top->title + "\")" : std::string()) +
                            " covers the centre of the front window \"" + front.title +
                            "\": pass x and y of a point it shows");
            }
            const std::int32_t dx = direction == "left" ? -amount : direction == "right" ? amount : 0;
            const std::int32_t dy = direction == "up" ? -amount : direction == "down" ? amount : 0;
            TRY_VOID(input->scroll(point, dx, dy));
            nlohmann::json out{{"scrolled", direction}, {"amount", amount}, {"at", {point.x, point.y}}};
            if (asked > MAX_NOTCHES)
                out["capped"] = true;
            if (top)
                out["window"] = top->title;
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
