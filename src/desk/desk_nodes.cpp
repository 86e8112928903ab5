#include "desk/desk_nodes.h"

#include "core/model/act_actions.h"
#include "desk/desk.h"
#include "desk/desk_geometry.h"
#include "desk/desk_input.h"

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<nd_core::ElementRef> resolve_node(Desk& desk, std::string_view id)
{
    auto ref = desk.resolve(id);
    if (ref)
        return ref;
    auto e = std::move(ref).error();
    switch (e.code) {
    case ErrorCode::stale_element_token:
    case ErrorCode::element_not_found:
    case ErrorCode::window_target_not_found:
        e.message += ": read the window again with desk_snapshot and use an id from that read";
        break;
    case ErrorCode::invalid_arguments:
        e.message = "id: \"" + std::string(id.substr(0, 64)) +
                    "\" is no node id; pass an id (<snapshot>:<N>) from desk_snapshot or desk_find";
        break;
    default: break;
    }
    return e;
}

nd_core::Result<HitTest> hit_test(Desk& desk, const nd_core::ElementRef& ref)
{
    HitTest out;
    const auto elements = TRY(framed_elements(desk, *ref.snapshot));
    const auto& e = elements[static_cast<std::size_t>(ref.index)];
    if (!e.is(nd_core::STATE_SHOWING) || !e.has_frame || e.frame.w <= 0 || e.frame.h <= 0) {
        out.miss = "it is not showing on the screen";
        return out;
    }
    const auto p = centre_of(e.frame);
    // A surface no window manager places lies above every window: one of the window's own program
    // (a menu or a popover, which may reach past the window's edge) is where the node shows;
    // another program's covers it.
    const auto surface = TRY(unmanaged_at(desk, p));
    if (surface && (surface->pid <= 0 || surface->pid != ref.window().pid)) {
        out.miss = "window " + std::to_string(surface->window_id) + ", another program's menu, tooltip or notification, covers its centre";
        return out;
    }
    if (!surface) {
        const auto windows = TRY(desk.all_windows());
        const auto* top = window_at(windows, p);
        if (!top || top->window_id != ref.window().window_id) {
            out.miss = top ? "the window \"" + top->title + "\" covers its centre" : "its centre is off its window";
            return out;
        }
    }
    const auto row = row_at(elements, p);
    if (!is_within(elements, row, ref.index)) {
        out.miss = "another node (" + (row >= 0 ? elements[static_cast<std::size_t>(row)].role : std::string("none")) +
                   ") is on top at its centre";
        return out;
    }
    out.point = p;
    return out;
}

nd_core::Result<std::string> run_default_action(Desk& desk, const nd_core::ElementRef& ref)
{
    auto lock = desk.lock_backend();
    auto* actuator = desk.backend().actuator();
    if (!actuator)
        return make_error(ErrorCode::backend_unavailable, "this desk has no element actions");
    const auto& e = ref.element();
    auto actions = e.actions;
    // A bulk read may leave names empty (Chromium): ask the element itself then.
    bool unnamed = false;
    for (const auto& a : actions)
        unnamed = unnamed || a.empty();
    if (unnamed || actions.empty()) {
        // A node without the Action interface (a label) answers no names: it has none.
        auto live = actuator->action_names(ref.window(), e);
        if (live)
            actions = std::move(*live);
        else if (unnamed)
            return live.error();
    }
    // The driver's click chooses the same way (core/model/act_actions.h): a toolkit's click, press or
    // toggle, else the first action unless that one opens a menu or moves the focus; a row, cell or
    // item a click selects is selected (its "activate" opens it, as a double click does).
    const auto target = nd_core::act_target(e, desk.backend().background_routes(ref.window()).toolkit);
    auto choice = nd_core::choose_action(nd_core::ActKind::click, actions, target);
    if (!choice && target.selectable) {
        TRY_VOID(actuator->select(ref.window(), e));
        return std::string("select");
    }
    // A row's label presses the row, as the driver's click does.
    if (const auto holder = nd_core::act_holder(nd_core::ActKind::click, ref.snapshot->elements, ref.index,
                                                target.activate_is_enter);
        !choice && holder >= 0)
        return run_default_action(desk, nd_core::ElementRef{ref.snapshot, holder});
    if (!choice) {
        const auto held = nd_core::held_back_action(nd_core::ActKind::click, actions, target);
        return make_error(ErrorCode::action_not_offered, "the node (" + e.role + ") has no click action of its own (its actions: " +
                                                        nd_core::describe_actions(actions) + (held.empty() ? "" : "; " + held) +
                                                        "): click it instead (desk_act with action click)");
    }
    TRY_VOID(actuator->do_action(ref.window(), e, choice->action));
    return choice->action;
}

nd_core::Result<void> click_point(Desk& desk, const CallScope& scope, nd_core::Point p)
{
    // The hit test reads the window list, which does not name our surfaces: ask before the lease.
    TRY_VOID(refuse_own_surface(desk, p, "the node's centre"));
    auto input = TRY(DeskInput::begin(desk, scope));
    return input->click(p, nd_core::MouseButton::left, 1);
}

} // namespace nd_desk
