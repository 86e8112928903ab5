#include "driver/tools/pointer_act.h"

#include "core/engine/act_route.h"
#include "core/engine/guarded_input.h"
#include "core/model/schemas.h"
#include "driver/act_flow.h"
#include "driver/common.h"

namespace nd_driver::tools {

namespace {

// The act's headless route (core/engine/act_route.h): the element's own action, a selection or
// its holder's route.
nd_core::Result<void> headless(ToolEnv& env, const PointerActKind& kind, const nd_core::ElementRef& ref)
{
    TRY_VOID(nd_core::run_act_route(env.engine.backend(), ref,
        {.act = kind.act, .name = kind.name, .select_fallback = kind.select_fallback}));
    return nd_core::Ok{};
}

nd_core::Result<void> perform(ToolEnv& env, const Args& args, const PointerActKind& kind,
    const nd_core::ElementRef& ref, nd_core::ActResult& r)
{
    if (args.string("delivery_mode").value_or("background") != "foreground") {
        r.path = "semantic";
        return headless(env, kind, ref);
    }
    auto point = TRY(click_point(env, ref));
    nd_core::GuardedInput input(env.engine, *env.session);
    r.path = "synthetic";
    r.took_cursor = true;
    return input.click(point, kind.button, kind.count);
}

} // namespace

ToolDef pointer_act_tool(PointerActKind kind)
{
    return {
        .decl = {
            .name = std::string(kind.name),
            .title = std::string(kind.title),
            .description = std::string(kind.description),
            .args = {arg::element_token(), arg::delivery_mode(), arg::observe()},
            .annotations = {.destructive = true},
            .output_schema = [] { return nd_core::schemas::act_result_schema(); },
        },
        .cls = ToolClass::act,
        .handler =
            [kind](ToolEnv& env, const Args& args) -> nd_core::Result<ToolOutput> {
                if (args.string("delivery_mode").value_or("background") == "foreground")
                    TRY_VOID(require_takeover(env, "delivery_mode foreground"));
                return run_element_act(env, args, kind.name,
                    [&](ToolEnv& e, const nd_core::ElementRef& ref, nd_core::ActResult& r) {
                        return perform(e, args, kind, ref, r);
                    });
            },
    };
}

} // namespace nd_driver::tools
