#include "core/engine/guarded_input.h"
#include "core/model/schemas.h"
#include "driver/act_flow.h"
#include "driver/common.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;

nd_core::Result<void> wheel(ToolEnv& env, const Args& args, nd_core::Point at, nd_core::ActResult& r)
{
    const auto amount = static_cast<std::int32_t>(args.integer("amount").value_or(3));
    const auto dir = args.string("direction").value_or("down");
    std::int32_t dx = 0;
    std::int32_t dy = 0;
    if (dir == "up")
        dy = -amount;
    else if (dir == "down")
        dy = amount;
    else if (dir == "left")
        dx = -amount;
    else
        dx = amount;
    nd_core::GuardedInput input(env.engine, *env.session);
    r.path = "synthetic";
    r.took_cursor = true;
    return input.scroll(at, dx, dy);
}

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    TRY_VOID(require_takeover(env, "scroll"));
    if (args.has("element_token"))
        return run_element_act(env, args, "scroll",
            [&](ToolEnv& e, const nd_core::ElementRef& ref, nd_core::ActResult& r) -> nd_core::Result<void> {
                auto point = TRY(click_point(e, ref));
                return wheel(e, args, point, r);
            });
    auto window = TRY(env.engine.resolve_window(*env.session, target_from(args)));
    return run_window_act(env, args, "scroll", window,
        [&](ToolEnv& e, const nd_core::SnapshotPtr& before, nd_core::ActResult& r) -> nd_core::Result<void> {
            // The window's centre, which must not lie under another window.
            auto ref = nd_core::ElementRef{before, 0};
            auto point = TRY(click_point(e, ref));
            return wheel(e, args, point, r);
        });
}

} // namespace

ToolDef scroll()
{
    auto token = arg::element_token("Scroll over this element; without it, over the centre of the target window.");
    token.required = false;
    return {
        .decl = {
            .name = "scroll",
            .title = "Scroll",
            .description = "Turns the mouse wheel over an element or a window's centre. Takeover sessions only.",
            .args = concat({token,
                               {.name = "direction", .type = ArgType::string, .description = "up, down, left or right.",
                                   .required = true, .enum_values = {"up", "down", "left", "right"}, .strict = true},
                               {.name = "amount", .type = ArgType::integer, .description = "Wheel notches (default 3).",
                                   .min = 1, .max = 50}},
                concat(arg::window_target(), {arg::observe()})),
            .output_schema = [] { return nd_core::schemas::act_result_schema(); },
        },
        .cls = ToolClass::act,
        .handler = run,
    };
}

} // namespace nd_driver::tools
