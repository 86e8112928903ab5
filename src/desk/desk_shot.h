#pragma once

// The pictures of desk_shot with every secure field blacked out before anything is encoded
// (docs/desk-verbs-act.md). A window shot blacks out the secure fields of a whole read of that
// window, as the driver's screenshot does (core/engine/secure_blackout.h). A screen shot shows windows the
// desk did not read, so it searches each shown window for password fields and blacks them out; the
// visible part of a window that cannot be searched in time, or whose app the allowlist leaves out,
// is blacked out whole. Nothing here encodes or writes files.

#include "core/backend/capture.h"
#include "core/model/element.h"
#include "core/model/snapshot.h"
#include "core/result.h"

#include <chrono>
#include <string>
#include <vector>

namespace nd_desk {

class Desk;

struct BlackedWindow {
    std::string title;
    std::string reason; // why the whole window was blacked out
};

struct ScreenShot {
    nd_core::Image image;
    std::int32_t secure_fields = 0;          // fields blacked out
    std::vector<BlackedWindow> whole_windows; // windows blacked out whole
};

// How long the search of one window for password fields may take before the window is blacked out.
inline constexpr std::chrono::milliseconds SHOT_SEARCH_DEADLINE{1000};

// The screen in `rect` (desk coordinates, inside the screen). A window of `read` (whole reads made
// for the same call) is blacked out by its read's secure fields instead of a search of its own.
nd_core::Result<ScreenShot> screen_shot(Desk&, const nd_core::Frame& rect, const std::vector<nd_core::SnapshotPtr>& read = {});

// The window's own capture, with the secure fields of a fresh read blacked out.
nd_core::Result<nd_core::Image> window_shot(Desk&, const nd_core::WindowInfo&);

// The part of `image` in `rect` (image pixels, inside it).
nd_core::Image crop(const nd_core::Image&, const nd_core::Frame& rect);

} // namespace nd_desk
