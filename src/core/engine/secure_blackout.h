#pragma once

// Blacking out the secure fields of one window read on a picture of it, shared by every front that
// hands out pixels: the driver's window screenshot (Engine::capture_png) and the desk's shots. A
// secure field is painted over on the pixels before any encoding, so no encoder option or later
// crop can bring it back.

#include "core/backend/capture.h"
#include "core/result.h"
#include "core/model/snapshot.h"

namespace nd_core {

// Whether the read tells where every secure field is: refused (secure_field_refused) when the tree
// was cut at the whole-window budget, or a showing secure field has no known bounds. A secure field
// that is not showing is not painted, so it needs no bounds.
Result<void> check_secure_fields_known(const Snapshot&);

// Paints every secure field of `snap` black on `image`, whose top-left pixel shows the screen point
// `origin` (the window's frame origin for a window capture, the rectangle's for a screen capture).
// Returns how many fields it painted (those with known bounds; check_secure_fields_known first).
std::int32_t black_out_secure_fields(Image&, const Snapshot&, std::int32_t origin_x, std::int32_t origin_y);

} // namespace nd_core
