#include "core/engine/act_route.h"

#include <algorithm>

namespace nd_core {

namespace {

std::string escalation(const ActRouteAsk& ask)
{
    return "a foreground " + std::string(ask.name) + " in a takeover session may work";
}

// The element's action names: a bulk read may leave them empty (Chromium names its actions only
// when asked one by one), and a light read may not have asked at all; a node without the Action
// interface (a label) answers that it has none.
Result<std::vector<std::string>> names_of(Actuator& actuator, const ElementRef& ref)
{
    const auto& e = ref.element();
    const bool unnamed = std::any_of(e.actions.begin(), e.actions.end(), [](const std::string& a) { return a.empty(); });
    if (e.action_names_asked || (!unnamed && !e.actions.empty()))
        return e.actions;
    auto live = actuator.action_names(ref.window(), e);
    if (!live && !unnamed)
        return e.actions;
    return live;
}

} // namespace

Result<ActRouteTaken> run_act_route(Backend& backend, const ElementRef& ref, const ActRouteAsk& ask)
{
    auto* actuator = backend.actuator();
    if (!actuator)
        return make_error(ErrorCode::backend_unavailable, "the backend has no element actions");
    const auto& e = ref.element();
    if (!e.is(STATE_ENABLED))
        return make_error(ErrorCode::element_not_ready, "element " + std::to_string(ref.index) + " is disabled");
    const auto actions = TRY(names_of(*actuator, ref));
    // What an action means differs by toolkit (GTK's text field "activate" is Enter): the window's
    // toolkit, as the backend names it for its background routes.
    const auto target = act_target(e, backend.background_routes(ref.window()).toolkit);
    if (const auto choice = choose_action(ask.act, actions, target)) {
        for (std::int32_t i = 0; i < choice->repeat; ++i)
            TRY_VOID(actuator->do_action(ref.window(), e, choice->action));
        return ActRouteTaken{choice->action, ref.index};
    }
    if (ask.select_fallback && target.selectable) {
        auto selected = actuator->select(ref.window(), e);
        // A list that selects nothing through its interfaces (GTK 4.8's list box) still takes a
        // person's click.
        if (!selected) {
            auto err = selected.error();
            if (err.code == ErrorCode::action_failed)
                err.escalation_reason = escalation(ask);
            return err;
        }
        return ActRouteTaken{"select", ref.index};
    }
    // A row's label passes the click to the row, as a person's click on it does.
    if (const auto holder = act_holder(ask.act, ref.snapshot->elements, ref.index, target.activate_is_enter); holder >= 0)
        return run_act_route(backend, ElementRef{ref.snapshot, holder}, ask);
    // A GTK 4 menu button passes the click to the toggle button inside it, as a person's does.
    if (const auto inner = act_inner(ask.act, ref.snapshot->elements, ref.index, target.activate_is_enter); inner >= 0)
        return run_act_route(backend, ElementRef{ref.snapshot, inner}, ask);
    const auto held = held_back_action(ask.act, actions, target);
    Error err(ErrorCode::action_not_offered, "element " + std::to_string(ref.index) + " (" + e.role + ") has no action for " +
                                                 std::string(ask.name) + "; its actions: " + describe_actions(actions) +
                                                 (held.empty() ? "" : "; " + held));
    err.escalation_reason = escalation(ask);
    return err;
}

} // namespace nd_core
