#pragma once

// Keysym names and characters as X keysym numbers, without Xlib or xkbcommon: the synthetic input
// needs only the names the engine passes (normalize_key_name in core/engine/guarded_input.h: one printable
// ASCII character, or a keysym name such as Return, F5, Control_L, comma, KP_Enter) and the keysym
// of a typed character.

#include <cstdint>
#include <optional>
#include <string_view>

namespace nd_linux {

using Keysym = std::uint32_t;

inline constexpr Keysym KEYSYM_NONE = 0;
inline constexpr Keysym KEYSYM_SHIFT_L = 0xffe1;

// The keysym a name stands for: a single printable ASCII character is its own keysym; otherwise a
// name from the table (function, cursor, keypad, modifier and Latin-1 punctuation keys, letters and
// digits), "U20AC" (a Unicode keysym) or "0x1008ff12" (a raw keysym). Nothing for anything else.
std::optional<Keysym> keysym_from_name(std::string_view name);

// The keysym that types `c`: Latin-1 characters are their own keysyms, every other character is
// the Unicode keysym 0x1000000 + c; newline and tab are Return and Tab. KEYSYM_NONE for the
// control characters that type nothing, surrogates and values beyond Unicode.
Keysym keysym_for_char(char32_t c);

// The keysym a legacy (pre-Unicode) keysym stands for in the Unicode range, when the keyboard may
// carry it under its old number instead (EuroSign for U+20AC). KEYSYM_NONE when there is none.
Keysym legacy_keysym_for_char(char32_t c);

} // namespace nd_linux
