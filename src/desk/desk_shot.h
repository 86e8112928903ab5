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
#include <utility>
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

// What must be black on a picture of the screen in `rect` (desk coordinates): the bounds of every
// password field of the windows it shows, and the windows to black out whole (an app outside the
// allowlist, one whose fields cannot be known in time). A window of `read` (whole reads made for the
// same call) is judged by that read's secure fields; every other shown window is searched.
struct SecureRegions {
    std::vector<nd_core::WindowInfo> windows;                       // topmost first, as listed
    std::vector<nd_core::Frame> fields;                             // screen rectangles
    std::vector<std::pair<std::int16_t, BlackedWindow>> whole;     // index into windows, and why
};
// `listed`: the windows as the caller listed them for this call, if it did (else listed here).
nd_core::Result<SecureRegions> secure_regions(Desk&, const nd_core::Frame& rect, const std::vector<nd_core::SnapshotPtr>& read = {},
    const std::vector<nd_core::WindowInfo>* listed = nullptr);

// Paints the regions black on `image`, a picture of the screen rectangle `rect` at full size.
void black_out_regions(nd_core::Image&, const nd_core::Frame& rect, const SecureRegions&);

// The screen in `rect` as captured, nothing blacked out yet: only for a caller that blacks it out
// (black_out_regions) before anything leaves the process.
nd_core::Result<nd_core::Image> capture_screen(Desk&, const nd_core::Frame& rect);

// The screen in `rect` (desk coordinates, inside the screen), blacked out: capture_screen,
// secure_regions and black_out_regions.
nd_core::Result<ScreenShot> screen_shot(Desk&, const nd_core::Frame& rect, const std::vector<nd_core::SnapshotPtr>& read = {});

// The window's own capture, with the secure fields of a fresh read blacked out.
nd_core::Result<nd_core::Image> window_shot(Desk&, const nd_core::WindowInfo&);

// The part of `image` in `rect` (image pixels, inside it).
nd_core::Image crop(const nd_core::Image&, const nd_core::Frame& rect);

} // namespace nd_desk
