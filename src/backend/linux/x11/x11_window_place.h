#pragma once

// Where one top-level X window is, asked alongside whatever else a caller asks of it in the same
// batch (one round trip): whether it is mapped and override-redirect, its frame in root
// coordinates, and the border its app draws around its content. The window list and the popup
// finder ask these four of every window they consider. And the child of the root that holds a
// window (its window manager's frame), which the capture and the paint watch climb to.

#include "backend/linux/x11/x11_reply.h"
#include "core/model/element.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace nd_linux {

struct PlaceCookies {
    xcb_get_window_attributes_cookie_t attributes{};
    xcb_get_geometry_cookie_t geometry{};
    xcb_translate_coordinates_cookie_t origin{};
    xcb_get_property_cookie_t client_extents{};
};

struct WindowPlace {
    bool viewable = false;          // mapped, and every ancestor too
    bool override_redirect = false; // a popup, a tooltip, an indicator: no window manager decides its place
    bool input_output = false;      // draws something (an input-only window does not)
    nd_core::Frame frame;           // root coordinates
    std::optional<nd_core::WindowInfo::Extents> client_decor; // _GTK_FRAME_EXTENTS
};

// Sends the four requests (_GTK_FRAME_EXTENTS is interned at the first ask, then cached).
PlaceCookies ask_place(ReplyBatch&, X11Display&, xcb_window_t);

// Takes the four replies (every one, so none is left waiting inside xcb). Nothing when the window
// is gone (a window destroyed since it was listed answers BadWindow); errors: the batch's.
nd_core::Result<std::optional<WindowPlace>> take_place(ReplyBatch&, const PlaceCookies&);

// Where a climb from a window up to the root's child that holds it ended.
struct RootChild {
    enum class End { found, gone, too_deep, is_root };
    End end = End::gone;
    xcb_window_t window = XCB_WINDOW_NONE; // found: that child of the root (the window itself when it is one)
    std::uint8_t x_error = 0;              // gone: the error that said so (BadWindow)
};

// A window manager nests a client a few windows deep (client, frame, perhaps a virtual root);
// a deeper climb is a loop or a hostile tree.
constexpr int MAX_TOP_LEVEL_CLIMB = 32;

// The root's child that holds `window` (its window manager's frame, or the window itself when it
// is one), climbing from `parent`, the window's parent as a QueryTree the caller asked gave it: one
// round trip a level above that, at most MAX_TOP_LEVEL_CLIMB levels. Errors: a batch's (past the
// deadline, a broken display).
nd_core::Result<RootChild> climb_to_top_level(X11Display&, xcb_window_t window, xcb_window_t parent, Deadline);

// The root window's children, bottom to top (QueryTree's order); empty when it has none.
nd_core::Result<std::vector<xcb_window_t>> root_children(X11Display&);

} // namespace nd_linux
