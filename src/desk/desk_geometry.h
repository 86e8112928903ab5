#pragma once

// Where things are on the screen, for the acting verbs: a node's frame and centre, the topmost
// window at a point, the hit test a press makes before it clicks, and the mapping of a window shot's
// pixels to desk coordinates (docs/desk-verbs-act.md).

#include "core/backend/synthetic_input.h"
#include "core/model/snapshot.h"
#include "core/engine/window_reads.h"

#include <optional>
#include <vector>

namespace nd_desk {

class Desk;

// The rows of `snap` with their frames read (a desk read defers frames): every showing row, or only
// `rows` when given. Under the backend lock.
nd_core::Result<std::vector<nd_core::Element>> framed_elements(Desk&, const nd_core::Snapshot&,
    const std::optional<std::vector<std::int32_t>>& rows = std::nullopt);

// The centre of a frame, rounded towards its top left.
nd_core::Point centre_of(const nd_core::Frame&);

// The topmost managed window at a screen point (hidden ones skipped), from a list topmost first;
// null when the point shows the desktop or a panel.
const nd_core::WindowInfo* window_at(const std::vector<nd_core::WindowInfo>&, nd_core::Point);

// The topmost surface no window manager places (a menu, a popover, a tooltip, a notification)
// that holds the point; nothing when none does.
nd_core::Result<std::optional<nd_core::WindowInfo>> unmanaged_at(Desk&, nd_core::Point);

// The deepest showing row whose frame holds the point (a toolkit draws children over their
// parents), of two equally deep the later in preorder; -1 when none.
std::int32_t row_at(const std::vector<nd_core::Element>&, nd_core::Point);

// Whether `row` is `node` or lies inside it.
bool is_within(const std::vector<nd_core::Element>&, std::int32_t row, std::int32_t node);

// A pixel of the window's own capture (desk_shot with window) in desk coordinates: the capture is
// the client window's rectangle, so its pixel (px, py) is the screen point frame + (px, py).
// invalid_arguments naming the image size when the pixel lies outside it.
nd_core::Result<nd_core::Point> window_pixel_to_screen(const nd_core::WindowInfo&, std::int64_t px, std::int64_t py,
    std::string_view what);

// reserved_for_person when the point lies on one of nish-driver's own surfaces (the consent dialog,
// the takeover indicator and its Continue button: core/engine/own_surface_guard.h), under the backend lock.
// The acting verbs call it before the allowlist and before taking the input lease, so the answer is
// the same with or without an allowlist and while a takeover holds the display.
nd_core::Result<void> refuse_own_surface(Desk&, nd_core::Point, std::string_view what);

// The gate of the app allowlist at a point: first refuse_own_surface, then the topmost window there
// must be of an allowed app (with an allowlist, a point on the desktop or a panel is refused too).
// Returns that window, if any.
nd_core::Result<std::optional<nd_core::WindowInfo>> check_point_allowed(Desk&, nd_core::Point, std::string_view what);

} // namespace nd_desk
