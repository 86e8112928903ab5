#include "desk/desk_geometry.h"

#include "core/engine/own_surface_guard.h"
#include "desk/desk.h"

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<std::vector<nd_core::Element>> framed_elements(Desk& desk, const nd_core::Snapshot& snap,
    const std::optional<std::vector<std::int32_t>>& rows)
{
    auto elements = snap.elements;
    if (!snap.frames_deferred)
        return elements;
    std::vector<std::int32_t> missing;
    if (rows) {
        for (auto r : *rows)
            if (r >= 0 && r < snap.size() && !elements[static_cast<std::size_t>(r)].has_frame)
                missing.push_back(r);
    } else {
        for (std::int32_t r = 0; r < snap.size(); ++r) {
            const auto& e = elements[static_cast<std::size_t>(r)];
            if (!e.has_frame && e.is(nd_core::STATE_SHOWING))
                missing.push_back(r);
        }
    }
    auto lock = desk.lock_backend();
    auto* trees = desk.backend().trees();
    if (missing.empty() || !trees)
        return elements;
    TRY_VOID(trees->read_frames(snap.window, elements, missing, Desk::READ_DEADLINE));
    return elements;
}

nd_core::Point centre_of(const nd_core::Frame& f) { return {f.x + f.w / 2, f.y + f.h / 2}; }

const nd_core::WindowInfo* window_at(const std::vector<nd_core::WindowInfo>& windows, nd_core::Point p)
{
    for (const auto& w : windows)
        if (!w.hidden && w.frame.contains(p.x, p.y))
            return &w;
    return nullptr;
}

std::int32_t row_at(const std::vector<nd_core::Element>& elements, nd_core::Point p)
{
    std::int32_t best = -1;
    for (std::int32_t row = 0; row < static_cast<std::int32_t>(elements.size()); ++row) {
        const auto& e = elements[static_cast<std::size_t>(row)];
        if (!e.has_frame || !e.frame.contains(p.x, p.y) || (row > 0 && !e.is(nd_core::STATE_SHOWING)))
            continue;
        if (best < 0 || e.depth >= elements[static_cast<std::size_t>(best)].depth)
            best = row;
    }
    return best;
}

bool is_within(const std::vector<nd_core::Element>& elements, std::int32_t row, std::int32_t node)
{
    for (auto r = row; r >= 0 && r < static_cast<std::int32_t>(elements.size()); r = elements[static_cast<std::size_t>(r)].parent)
        if (r == node)
            return true;
    return false;
}

nd_core::Result<nd_core::Point> window_pixel_to_screen(const nd_core::WindowInfo& w, std::int64_t px, std::int64_t py,
    std::string_view what)
{
    if (px < 0 || py < 0 || px >= w.frame.w || py >= w.frame.h)
        return make_error(ErrorCode::invalid_arguments,
            std::string(what) + ": (" + std::to_string(px) + ", " + std::to_string(py) + ") is outside the window's " +
                std::to_string(w.frame.w) + "x" + std::to_string(w.frame.h) +
                " shot image: pass pixels of desk_shot with this window, or desk coordinates without window");
    return nd_core::Point{w.frame.x + static_cast<std::int32_t>(px), w.frame.y + static_cast<std::int32_t>(py)};
}

nd_core::Result<void> refuse_own_surface(Desk& desk, nd_core::Point p, std::string_view what)
{
    auto lock = desk.lock_backend();
    return nd_core::refuse_own_surface_at(desk.backend(), p, what);
}

nd_core::Result<std::optional<nd_core::WindowInfo>> unmanaged_at(Desk& desk, nd_core::Point p)
{
    for (auto& s : TRY(desk.unmanaged_surfaces()))
        if (s.frame.contains(p.x, p.y))
            return std::optional<nd_core::WindowInfo>{std::move(s)};
    return std::optional<nd_core::WindowInfo>{};
}

nd_core::Result<std::optional<nd_core::WindowInfo>> check_point_allowed(Desk& desk, nd_core::Point p, std::string_view what)
{
    // Before the allowlist: the window list does not name our surfaces, so the allowlist would judge
    // the app underneath, which the click would never reach.
    TRY_VOID(refuse_own_surface(desk, p, what));
    auto all = TRY(desk.all_windows());
    // Likewise a menu, a tooltip or a notification above every window: the app that shows it is
    // judged, and its window under the point (else its topmost one) stands for it.
    if (const auto surface = TRY(unmanaged_at(desk, p))) {
        TRY_VOID(desk.check_allowed(*surface));
        const auto* under = window_at(all, p);
        if (under && surface->pid > 0 && under->pid == surface->pid)
            return std::optional<nd_core::WindowInfo>{*under};
        for (const auto& w : all)
            if (surface->pid > 0 && w.pid == surface->pid)
                return std::optional<nd_core::WindowInfo>{w};
        return std::optional<nd_core::WindowInfo>{*surface};
    }
    const auto* top = window_at(all, p);
    if (!top) {
        if (!desk.config().allow.empty())
            return make_error(ErrorCode::app_out_of_scope,
                std::string(what) + " (" + std::to_string(p.x) + ", " + std::to_string(p.y) +
                    ") shows no window of an allowed app (the desktop or a panel): pick a point inside an allowed "
                    "app's window");
        return std::optional<nd_core::WindowInfo>{};
    }
    TRY_VOID(desk.check_allowed(*top));
    return std::optional<nd_core::WindowInfo>{*top};
}

} // namespace nd_desk
