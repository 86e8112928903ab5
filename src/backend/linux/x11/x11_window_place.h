#pragma once

// Where one top-level X window is, asked alongside whatever else a caller asks of it in the same
// batch (one round trip): whether it is mapped and override-redirect, its frame in root
// coordinates, and the border its app draws around its content. The window list and the popup
// finder ask these four of every window they consider.

#include "backend/linux/x11/x11_reply.h"
#include "core/model/element.h"

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

// The root window's children, bottom to top (QueryTree's order); empty when it has none.
nd_core::Result<std::vector<xcb_window_t>> root_children(X11Display&);

} // namespace nd_linux
