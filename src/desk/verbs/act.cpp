#include "desk/desk.h"
#include "desk/desk_nodes.h"
#include "desk/verbs/act_verb_list.h"

namespace nd_desk::verbs {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

} // namespace

VerbDef act()
{
    return {
        .decl = {
            .name = "desk_act",
            .description = "One action on a node: click (the left button at its centre, when a hit test finds the node "
                           "there), action (its own click action, as the driver's click chooses it), select (in its parent's "
                           "selection), or focus (the keyboard focus inside its window).",
            .args = {{"id", ArgType::string, "the node's id (<snapshot>:<N>) from desk_snapshot or desk_find", true},
                {"action", ArgType::string, "what to do", true, {"click", "action", "select", "focus"}}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto id = *arg_string(args, "id");
            const auto action = *arg_string(args, "action");
            auto ref = TRY(resolve_node(desk, id));
            const auto& e = ref.element();
            if (e.secure() && action != "focus")
                return make_error(ErrorCode::secure_field_refused, "the node is a password field: leave it to the person");
            if (action != "focus" && !e.is(nd_core::STATE_ENABLED) && ref.index > 0)
                return make_error(ErrorCode::element_not_ready, "not sent: the node (" + e.role + ") is disabled; wait until "
                    "desk_snapshot shows it enabled, then call again");
            nlohmann::json out{{"acted", id}, {"action", action}};
            if (action == "click") {
                auto hit = TRY(hit_test(desk, ref));
                if (!hit.point)
                    return make_error(ErrorCode::target_occluded,
                        "no click: " + hit.miss + "; bring its window to the front with desk_focus, or use action");
                TRY_VOID(click_point(desk, scope, *hit.point));
                out["x"] = hit.point->x;
                out["y"] = hit.point->y;
            } else if (action == "action") {
                out["ran"] = TRY(run_default_action(desk, ref));
            } else {
                auto lock = desk.lock_backend();
                auto* actuator = desk.backend().actuator();
                if (!actuator)
                    return make_error(ErrorCode::backend_unavailable, "this desk has no element actions");
                if (action == "select")
                    TRY_VOID(actuator->select(ref.window(), e));
                else
                    TRY_VOID(actuator->grab_focus(ref.window(), e));
            }
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
