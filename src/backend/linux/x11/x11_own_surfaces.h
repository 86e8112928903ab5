#pragma once

// OwnSurfaces over X11: finds the windows any nish process on this display shows that only the
// person may answer, by the mark they carry (_NISH_SURFACE, x11_own_marker.h), so that our own
// synthetic input never lands on one (docs/linux-x11.md, "Our input never lands on our surfaces").
//
// at(p): QueryTree on the root gives the top-level windows bottom to top; walking them topmost
// first, the first viewable InputOutput window whose rectangle (with its border) holds p decides.
// It is ours when it carries the mark itself (the indicator's override-redirect windows) or a window
// inside it does, at most MAX_MARK_DEPTH levels down (a reparenting window manager's frame holds the
// client, which carries the mark). The indicator's frame and label take no input (an empty input
// shape) but still count: a click there reaches whatever lies below, which the person cannot see.
// focused(): the X input focus window and its ancestors; a focus on the root or PointerRoot sends
// keys to the window under the pointer, so then the answer is at(pointer).
//
// Every wait has a deadline (one ReplyBatch per round trip, X11_BATCH_TIMEOUT each); a hung server
// gives timed_out, a dead connection backend_unavailable, and the guard refuses the input then.
// Uses the backend's shared X11Display; not thread-safe (the caller holds the backend's lock).

#include "backend/linux/x11/x11_display.h"
#include "core/backend/own_surfaces.h"

#include <optional>
#include <string>

namespace nd_linux {

class X11OwnSurfaces final : public nd_core::OwnSurfaces {
public:
    static constexpr int MAX_MARK_DEPTH = 3;           // levels below a top-level searched for the mark
    static constexpr int MAX_FOCUS_DEPTH = 16;         // ancestors of the focus window examined
    static constexpr std::size_t MAX_LEVEL_WINDOWS = 512; // windows examined on one level below a top-level

    explicit X11OwnSurfaces(X11Display& display) : m_display(display) {}

    nd_core::Result<std::optional<nd_core::OwnSurface>> at(nd_core::Point) override;
    nd_core::Result<std::optional<nd_core::OwnSurface>> focused() override;

private:
    nd_core::Result<xcb_atom_t> mark_atom();
    // The kind marked on a window inside `top` (not `top` itself), down to MAX_MARK_DEPTH levels.
    nd_core::Result<std::optional<std::string>> mark_inside(xcb_window_t top, xcb_atom_t mark);

    X11Display& m_display;
};

// The kind a _NISH_SURFACE reply names: nullopt when the window has no mark; a mark that is no
// bounded identifier ([a-z0-9_], at most 32 bytes) still counts, as "surface", since the guard
// fails closed and error messages carry no text another client chose.
std::optional<std::string> surface_kind(const xcb_get_property_reply_t* reply);

} // namespace nd_linux
