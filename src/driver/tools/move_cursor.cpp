#include "core/engine/guarded_input.h"
#include "driver/act_flow.h"
#include "driver/common.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<nd_core::Point> target_point(ToolEnv& env, const Args& args, bool desktop)
{
    if (args.has("element_token")) {
        auto ref = TRY(env.engine.resolve_token(*env.session, args.string("element_token").value_or("")));
        return click_point(env, ref);
    }
    auto x = args.integer("x");
    auto y = args.integer("y");
    if (!x || !y)
        return make_error(ErrorCode::invalid_arguments, "give element_token, or both x and y");
    if (desktop)
        return nd_core::Point{static_cast<std::int32_t>(*x), static_cast<std::int32_t>(*y)};
    auto window = TRY(env.engine.resolve_window(*env.session, target_from(args)));
    if (*x >= window.frame.w || *y >= window.frame.h)
        return make_error(ErrorCode::invalid_arguments, "x and y must lie inside the window");
    return nd_core::Point{window.frame.x + static_cast<std::int32_t>(*x), window.frame.y + static_cast<std::int32_t>(*y)};
}

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    const bool desktop = args.string("scope").value_or("window") == "desktop";
    const bool foreground = args.string("delivery_mode").value_or("background") == "foreground";
    if (desktop || foreground)
        TRY_VOID(require_takeover(env, desktop ? "move_cursor with scope desktop" : "move_cursor in the foreground"));
    auto point = TRY(target_point(env, args, desktop));
    nlohmann::json cursor = {{"x", point.x}, {"y", point.y}};
    if (!env.session->takeover.on) {
        // Headless: a virtual cursor only; the real pointer never moves.
        env.session->virtual_cursor = point;
        return json_output({{"ok", true}, {"path", "virtual"}, {"took_cursor", false}, {"cursor", cursor}},
            "virtual cursor at " + std::to_string(point.x) + "," + std::to_string(point.y) + " (pointer not moved)\n");
    }
    nd_core::GuardedInput input(env.engine, *env.session);
    forward_progress(input, env.call);
    TRY_VOID(input.move_to(point, std::chrono::milliseconds(args.integer("duration_ms").value_or(0))));
    return json_output({{"ok", true}, {"path", "synthetic"}, {"took_cursor", true}, {"cursor", cursor}},
        "pointer at " + std::to_string(point.x) + "," + std::to_string(point.y) + "\n");
}

} // namespace

ToolDef move_cursor()
{
    auto token = arg::element_token("Move to this element's centre (instead of x and y).");
    token.required = false;
    return {
        .decl = {
            .name = "move_cursor",
            .title = "Move the cursor",
            .description = "Moves the cursor: in a takeover the real pointer (gliding over duration_ms), headless a "
                           "virtual cursor in the window.",
            .args = concat({token,
                               {.name = "x", .type = ArgType::integer, .description = "x in the window, or on the screen "
                                                                                      "(scope desktop).",
                                   .min = 0, .max = 65535, .strict = true},
                               {.name = "y", .type = ArgType::integer, .description = "Likewise y.", .min = 0,
                                   .max = 65535, .strict = true},
                               {.name = "scope", .type = ArgType::string, .description = "window (default) or desktop.",
                                   .enum_values = {"window", "desktop"}, .strict = true},
                               {.name = "duration_ms", .type = ArgType::integer,
                                   .description = "Glide time in a takeover (default 0: one move).", .min = 0, .max = 5000},
                               arg::delivery_mode()},
                arg::window_target()),
            .output_schema =
                [] {
                    return nlohmann::json{{"type", "object"},
                        {"properties",
                            {{"ok", {{"const", true}}}, {"path", {{"type", "string"}, {"enum", {"virtual", "synthetic"}}}},
                                {"took_cursor", {{"type", "boolean"}}},
                                {"cursor",
                                    {{"type", "object"},
                                        {"properties", {{"x", {{"type", "integer"}}}, {"y", {{"type", "integer"}}}}},
                                        {"required", {"x", "y"}}}}}},
                        {"required", {"ok", "path", "took_cursor", "cursor"}}};
                },
        },
        .cls = ToolClass::act,
        .handler = run,
    };
}

} // namespace nd_driver::tools
