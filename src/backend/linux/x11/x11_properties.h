#pragma once

// Decoding of window properties as the server returns them (xcb_get_property replies). Everything
// here is untrusted app text or numbers set by other clients: a wrong type, format or length gives
// an empty result, never a read past the reply.

#include "core/model/element.h"

#include <xcb/xcb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_linux {

// Caps on what one GetProperty asks for, in 32-bit units (the server cuts the value there).
inline constexpr std::uint32_t MAX_TEXT_PROPERTY_UNITS = 1024;    // 4 KiB of title text
inline constexpr std::uint32_t MAX_WINDOW_LIST_UNITS = 16384;     // that many windows

// A text property as valid UTF-8. UTF8_STRING is taken as is (invalid bytes become U+FFFD); STRING
// is ISO 8859-1 and converted; any other type (COMPOUND_TEXT) keeps its ASCII and replaces the rest.
std::string property_text(const xcb_get_property_reply_t* reply, xcb_atom_t utf8_string_atom);

// A format-32 property (WINDOW, ATOM, CARDINAL lists); empty when the format is not 32.
std::vector<std::uint32_t> property_u32(const xcb_get_property_reply_t* reply);

// A four-sided border (_NET_FRAME_EXTENTS, _GTK_FRAME_EXTENTS: left, right, top, bottom), each
// side kept within 512 pixels, since a window manager or an app may set nonsense; nothing when the
// property is not four CARDINALs.
std::optional<nd_core::WindowInfo::Extents> property_extents(const xcb_get_property_reply_t* reply);

// WM_CLASS is two NUL-terminated strings, instance then class (ICCCM 4.1.2.5).
struct WmClass {
    std::string instance;
    std::string class_name;
};
WmClass property_wm_class(const xcb_get_property_reply_t* reply);

// Bytes as valid UTF-8, with U+FFFD for each invalid byte. Control characters stay: escaping them
// is the engine's job when it writes text out.
std::string sanitize_utf8(std::string_view bytes);

} // namespace nd_linux
