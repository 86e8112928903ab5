#pragma once

// The popup surfaces of an app's window on X11: the override-redirect windows its X client maps for
// menus, popovers and tooltips (GTK 4 draws each popover on one). They are found among the root's
// children by the client's resource-id base, which every window one connection creates shares, so
// neither a window list nor a pid is asked: one QueryTree, then one batch for the few that match.

#include "backend/linux/x11/x11_display.h"
#include "core/model/element.h"

#include <cstdint>
#include <vector>

namespace nd_linux {

// Each popup as a WindowInfo: its window_id, its frame in root coordinates, and the border it draws
// itself around its content (_GTK_FRAME_EXTENTS) as client_decor; topmost last. Errors:
// backend_unavailable (the connection broke), timed_out (the server did not answer in time).
nd_core::Result<std::vector<nd_core::WindowInfo>> popups_of(X11Display&, std::int64_t window_id);

} // namespace nd_linux
