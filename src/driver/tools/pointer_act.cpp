#include "driver/tools/pointer_act.h"

#include "core/engine/guarded_input.h"
#include "core/model/act_actions.h"
#include "core/model/schemas.h"
#include "driver/act_flow.h"
#include "driver/common.h"

#include <algorithm>

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<void> headless(ToolEnv& env, const PointerActKind& kind, const nd_core::ElementRef& ref)
{
    const auto& e = ref.element();
    auto* actuator = env.engine.backend().actuator();
    if (!actuator)
        return make_error(ErrorCode::backend_unavailable, "the backend has no element actions");
    if (!e.is(nd_core::STATE_ENABLED))
        return make_error(ErrorCode::element_not_ready, "element " + std::to_string(ref.index) + " is disabled");
    auto actions = e.actions;
    // A bulk read may leave names empty (Chromium): ask the element itself then.
    if (e.action_names_pending())
        actions = TRY(actuator->action_names(ref.window(), e));
    // What an action means differs by toolkit (GTK's text field "activate" is Enter): the window's
    // toolkit, as the backend names it for its background routes.
    const auto target = nd_core::act_target(e, env.engine.backend().background_routes(ref.window()).toolkit);
    if (auto choice = nd_core::choose_action(kind.act, actions, target)) {
        for (std::int32_t i = 0; i < choice->repeat; ++i)
            TRY_VOID(actuator->do_action(ref.window(), e, choice->action));
        return nd_core::Ok{};
    }
    if (kind.select_fallback && e.is(nd_core::STATE_SELECTABLE)) {
        auto selected = actuator->select(ref.window(), e);
        // A list that selects nothing through its interfaces (GTK 4.8's list box) still takes a
        // person's click.
        if (!selected && selected.error().code == ErrorCode::action_failed) {
            auto err = selected.error();
            err.escalation_reason = "a foreground " + std::string(kind.name) + " in a takeover session may work";
            return err;
        }
        return selected;
    }
    // A row's label passes the click to the row, as a person's click on it does.
    if (const auto holder = nd_core::act_holder(kind.act, ref.snapshot->elements, ref.index, target.activate_is_enter);
        holder >= 0)
        return headless(env, kind, nd_core::ElementRef{ref.snapshot, holder});
    const auto held = nd_core::held_back_action(kind.act, actions, target);
    nd_core::Error err(ErrorCode::action_not_offered,
        "element " + std::to_string(ref.index) + " (" + e.role + ") has no action for " + std::string(kind.name) +
            "; its actions: " + nd_core::describe_actions(actions) + (held.empty() ? "" : "; " + held));
    err.escalation_reason = "a foreground " + std::string(kind.name) + " in a takeover session may work";
    return err;
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
