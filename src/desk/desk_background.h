#pragma once

// Background input on this desk (docs/desk-background.md): input delivered to a named window
// without raising it or moving the person's pointer or keyboard focus, by the target element's own
// interfaces, and the input modes of config.toml ([input] mode): foreground, background, auto.
//
// A route that cannot deliver refuses with background_refused, naming why; auto input then sends
// the act in the foreground and its result says "input": "foreground". A password field is never
// typed into, in any mode (secure_field_refused, which auto never turns into foreground input).
// A result whose effect the route could not read back carries `unverified` (effect, note,
// escalation); one it read back does not.

#include "core/model/background_routes.h"
#include "core/model/element.h"
#include "desk/verb.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_desk {

class Desk;
class DeskInput;

// Runs an act as the config's input mode says: foreground mode runs `foreground` (its reply
// unchanged), background mode `background`, and auto `background`, then `foreground` after a
// background_refused, marking that reply "input": "foreground".
nd_core::Result<VerbReply> by_input_mode(Desk&, const std::function<nd_core::Result<VerbReply>()>& background,
    const std::function<nd_core::Result<VerbReply>()>& foreground);

// Background type: `text` inserted at the caret of a text field through its own text interface
// (AT-SPI EditableText), then its text read back. The field: the node `id` names, else the
// focused text field of the window that window or pid names, else that window's only text field.
nd_core::Result<VerbReply> background_type(Desk&, DeskInput&, const nlohmann::json& args, std::string_view text);

// Background click: the element of the window under the point (or of the named window, x and y
// then pixels of its shot image) whose own click action a click there would run (the deepest row
// at the point, or the nearest ancestor with one), run without raising the window; then that
// element read again: a change of its states, name or value is the effect, else unverified. Only a
// single left click has this route.
nd_core::Result<VerbReply> background_click(Desk&, DeskInput&, const nlohmann::json& args);

// Background scroll, in the named window (required): the scroll bar of the given direction's axis
// nearest the point (x and y pixels of its shot image, else the window's centre), at or above
// the element there, moved by its own value interface (AT-SPI Value), SCROLL_STEP units a notch
// (GTK3 counts pixels: a wheel notch there moves 40 to 60), then read back.
inline constexpr double SCROLL_STEP = 50;
nd_core::Result<VerbReply> background_scroll(Desk&, DeskInput&, const nlohmann::json& args);

// Background key: the combination sent as key events to the window window or pid names (required),
// landing on that window's own focus, when its toolkit takes such events (Backend::background_routes:
// Qt does; GTK, Chromium and xterm drop them, and are refused naming why). A printable key or a
// paste is refused while a password field has the focus. The window's fields read again: a change
// of one's text is the effect, else the result is unverified.
nd_core::Result<VerbReply> background_key(Desk&, const nlohmann::json& args, const std::string& keys,
    const std::vector<std::string>& keysyms);

// Background drag, in the named window (required; x, y, to_x and to_y pixels of its shot image):
// left-button press, motion and release events sent to the window, when its toolkit takes them
// (Backend::background_routes: Qt5 does; GTK3 behind another window, GTK4, Chromium and xterm
// drop them, and are refused naming why). A drag from or onto a password field is refused. The window read again: a
// change of an element's states, name or value is the effect, else the result is unverified.
nd_core::Result<VerbReply> background_drag(Desk&, DeskInput&, const nlohmann::json& args);

// The routes the window's toolkit takes (Backend::background_routes, asked under the backend lock).
nd_core::BackgroundRoutes routes_of(Desk&, const nd_core::WindowInfo&);

// background_refused for a window whose toolkit takes no background `what` ("keys", "drag"):
// names the window, its toolkit and why, then `hint` (the route it has instead), when not empty.
nd_core::Error no_background_route(const nd_core::WindowInfo&, const nd_core::BackgroundRoutes&, std::string_view what,
    std::string_view hint);

// Foreground type into the field the node `id` names: its window brought to the front, then the
// keyboard focus moved to the field (AT-SPI Component.GrabFocus); the window keys now reach.
nd_core::Result<nd_core::WindowInfo> focus_field(Desk&, DeskInput&, const nlohmann::json& args);

} // namespace nd_desk
