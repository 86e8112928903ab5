#include "desk/desk.h"
#include "desk/desk_background.h"
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
        .decl = {
            .name = "desk_scroll",
            .description = "Wheel notches in the foreground. With x and y, at that point (with window, pixels of its shot "
                           "image), scrolling whatever is under it; without them, at the centre of the front (focused) app "
                           "window, failing when another window covers that centre.",
            .args = {{"direction", ArgType::string, "which way", true, {"up", "down", "left", "right"}},
                {"amount", ArgType::integer, "notches, default 3; more than 50 are capped at 50", false, {}, 1, std::nullopt},
                {"x", ArgType::integer, "x in desk coordinates, or with window a pixel of its shot image"},
                {"y", ArgType::integer, "y in desk coordinates, or with window a pixel of its shot image"},
                {"window", ArgType::string, "the window's title, or a part of it only one window has"},
                {"pid", ArgType::integer, "the window's process"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto direction = *arg_string(args, "direction");
            const auto asked = arg_int(args, "amount").value_or(3);
            const auto amount = static_cast<std::int32_t>(std::min(asked, MAX_NOTCHES));
            const bool has_x = arg_int(args, "x").has_value(), has_y = arg_int(args, "y").has_value();
            if (has_x != has_y)
                return make_error(ErrorCode::invalid_arguments,
                    std::string(has_x ? "y" : "x") + ": required with " + (has_x ? "x" : "y") +
                        "; pass both, or neither to scroll the front window at its centre");
            return by_input_mode(
                desk,
                [&]() -> nd_core::Result<VerbReply> {
                    auto input = TRY(DeskInput::begin(desk, scope));
                    return background_scroll(desk, *input, args);
                },
                [&]() -> nd_core::Result<VerbReply> {
                    const auto window = TRY(named_window(desk, args));
                    // The point first (for the front window, its centre before any raise), so that a point on
                    // one of our surfaces is refused before the allowlist and the input lease.
                    nd_core::Point point;
                    std::optional<nd_core::WindowInfo> front;
                    if (has_x) {
                        point = TRY(point_arg(args, "x", "y", window));
                    } else {
                        // The front window is the focused app's: the named one (raised below), else the active one.
                        if (window) {
                            front = *window;
                        } else {
                            auto all = TRY(desk.all_windows());
                            for (const auto& w : all)
                                if (w.active && !front)
                                    front = w;
                            if (!front)
                                return make_error(ErrorCode::window_target_not_found,
                                    "no window is active to scroll: pass x and y, or name the window");
                        }
                        point = centre_of(front->frame);
                    }
                    const std::string_view what = has_x ? "the point" : "the front window's centre";
                    TRY_VOID(refuse_own_surface(desk, point, what));
                    if (front && !window)
                        TRY_VOID(desk.check_allowed(*front));
                    auto input = TRY(DeskInput::begin(desk, scope));
                    if (front && !front->active)
                        TRY_VOID(input->raise(*front));
                    const auto top = TRY(check_point_allowed(desk, point, what));
                    if (front && (!top || top->window_id != front->window_id))
                        return make_error(ErrorCode::target_occluded,
                            "another window" + (top ? " (\"" + top->title + "\")" : std::string()) +
                                " covers the centre of the front window \"" + front->title + "\": pass x and y of a point it shows");
                    const std::int32_t dx = direction == "left" ? -amount : direction == "right" ? amount : 0;
                    const std::int32_t dy = direction == "up" ? -amount : direction == "down" ? amount : 0;
                    TRY_VOID(input->scroll(point, dx, dy));
                    nlohmann::json out{{"scrolled", direction}, {"amount", amount}, {"at", {point.x, point.y}}};
                    if (asked > MAX_NOTCHES)
                        out["capped"] = true;
                    if (top)
                        out["window"] = top->title;
                    return VerbReply{std::move(out), std::nullopt};
                });
        },
    };
}

} // namespace nd_desk::verbs
