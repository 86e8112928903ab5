#pragma once

// The mark on every window a nish program shows that only the person may answer or that stands for
// the person's control: the consent dialog, the takeover indicator (frame and label) and its
// Continue button, and the confirm dialog. The property _NISH_SURFACE
// (type STRING, format 8) holds the surface's kind. The mark is how any nish process on the display
// (nish-driver's engine, the shuttle daemon) finds the others' surfaces, so that its own synthetic
// input never lands on them (docs/linux-x11.md, "Who may answer").
//
// The mark is a help for our own input, not a defence: any client can remove or forge a property.
// The defence is in the surfaces themselves, which accept only the person's device (x11_person_rule.h).

#include <xcb/xcb.h>

#include <string_view>

namespace nd_linux {

inline constexpr std::string_view OWN_SURFACE_PROPERTY = "_NISH_SURFACE";

inline constexpr std::string_view SURFACE_CONSENT_DIALOG = "consent_dialog";
inline constexpr std::string_view SURFACE_INDICATOR = "takeover_indicator";
inline constexpr std::string_view SURFACE_CONTINUE = "continue_button";
inline constexpr std::string_view SURFACE_CONFIRM_DIALOG = "confirm_dialog";

// Sets the mark on `window` (no round trip; `property` is the interned _NISH_SURFACE atom).
inline void mark_own_surface(xcb_connection_t* c, xcb_window_t window, xcb_atom_t property, std::string_view kind)
{
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, window, property, XCB_ATOM_STRING, 8,
                        static_cast<std::uint32_t>(kind.size()), kind.data());
}

} // namespace nd_linux
