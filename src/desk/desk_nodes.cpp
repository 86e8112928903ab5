#include "desk/desk_nodes.h"

#include "core/engine/act_route.h"
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
    if (!e.is(nd_core::STATE_SHOWING) || !e.has_frame || !e.frame.has_area()) {
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
    // The driver's click takes the same route (core/engine/act_route.h).
    auto taken = nd_core::run_act_route(desk.backend(), ref,
                                        {.act = nd_core::ActKind::click, .name = "click", .select_fallback = true});
    if (!taken && taken.error().code == ErrorCode::action_not_offered) {
        auto err = taken.error();
        err.message += ": click it instead (desk_act with action click)";
        return err;
    }
    if (!taken)
        return taken.error();
    return std::move(taken->action);
}

nd_core::Result<void> click_point(Desk& desk, const CallScope& scope, nd_core::Point p)
{
    // The hit test reads the window list, which does not name our surfaces: ask before the lease.
    TRY_VOID(refuse_own_surface(desk, p, "the node's centre"));
    auto input = TRY(DeskInput::begin(desk, scope));
    return input->click(p, nd_core::MouseButton::left, 1);
}

} // namespace nd_desk
