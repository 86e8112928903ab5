#pragma once

// Where foreground input goes, for key, type, click, scroll and drag (docs/desk-verbs-act.md):
// keys go to the focused window, so a named window is brought to the front first; points are desk
// coordinates, or with window pixels of that window's shot image; the allowlist gates the window
// that receives the input.

#include "core/backend/synthetic_input.h"
#include "desk/verb.h"

#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

class Desk;
class DeskInput;

// Whether the call names a window (window or pid).
bool names_window(const nlohmann::json& args);

// The window window or pid names (Desk::pick_window), or nullopt when the call names none.
nd_core::Result<std::optional<nd_core::WindowInfo>> named_window(Desk&, const nlohmann::json& args);

// The window keys will reach: the one window or pid names, raised to the front when it is not
// active; else the active window. Both within the allowlist.
nd_core::Result<nd_core::WindowInfo> key_target(Desk&, DeskInput&, const nlohmann::json& args);

// secure_field_refused when the focused element of `window` is a password field, or when the
// window cannot be read to tell (text must never reach a password field).
nd_core::Result<void> refuse_secure_focus(Desk&, const nd_core::WindowInfo&);

// What desk_type and computer_act's type may type at once: valid UTF-8 of at most 16 KiB, checked
// whole before the first key (a retry after a half-typed refusal would type twice).
inline constexpr std::size_t MAX_TYPED_BYTES = 16384;
nd_core::Result<void> check_text_to_type(std::string_view text);

// Types `text` into the focused element of `target` (the window keys reach), checking the stop
// before each character and the focus again after a Tab or a newline (it may have moved to a
// password field). `typed` counts the characters sent; a failure carries it (typed_characters).
nd_core::Result<void> type_text(Desk&, DeskInput&, const nd_core::WindowInfo& target, std::string_view text, std::int64_t& typed);

// Whether a key combination can put text into a field: one printable key, alone or with Shift,
// or a paste (ctrl+v, shift+Insert).
bool keys_make_text(const std::vector<std::string>& keysyms);

// The point (args[x_name], args[y_name]) in desk coordinates: with `window`, pixels of its shot image.
nd_core::Result<nd_core::Point> point_arg(const nlohmann::json& args, std::string_view x_name, std::string_view y_name,
    const std::optional<nd_core::WindowInfo>& window);

} // namespace nd_desk
