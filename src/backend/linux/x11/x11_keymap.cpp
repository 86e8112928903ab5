#include "backend/linux/x11/x11_keymap.h"

#include <algorithm>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<X11Keymap> X11Keymap::load(X11Display& display, Deadline deadline)
{
    const auto* setup = xcb_get_setup(display.connection());
    const xcb_keycode_t min = setup->min_keycode, max = setup->max_keycode;
    if (max < min)
        return make_error(ErrorCode::backend_unavailable, "the X server reports no keycodes");
    const auto count = static_cast<std::uint8_t>(max - min + 1);
    auto reply = TRY(display.wait<xcb_get_keyboard_mapping_reply_t>(
        xcb_get_keyboard_mapping(display.connection(), min, count), deadline));
    if (!reply)
        return make_error(ErrorCode::backend_unavailable, "the X server refused to send its keyboard mapping");

    X11Keymap out;
    out.m_min = min;
    out.m_per_keycode = reply->keysyms_per_keycode;
    const auto* keysyms = xcb_get_keyboard_mapping_keysyms(reply.value.get());
    const int length = xcb_get_keyboard_mapping_keysyms_length(reply.value.get());
    // Trust the reply's own length, not the count asked for: a short reply gives fewer keys.
    out.m_keysyms.assign(keysyms, keysyms + std::max(length, 0));
    return out;
}

std::optional<KeyStroke> X11Keymap::find(Keysym keysym) const
{
    if (m_per_keycode == 0 || keysym == KEYSYM_NONE)
        return std::nullopt;
    const std::size_t keys = m_keysyms.size() / m_per_keycode;
    const int columns = std::min<int>(m_per_keycode, 2);
    for (int column = 0; column < columns; ++column)
        for (std::size_t k = 0; k < keys; ++k) {
            const Keysym* row = &m_keysyms[k * m_per_keycode];
            Keysym at = row[column];
            // A key whose shifted column is empty repeats its first keysym there (§12): a letter's
            // uppercase is handled by the server's own case rule, so only exact matches count here.
            if (at == keysym)
                return KeyStroke{static_cast<xcb_keycode_t>(m_min + k), column == 1};
        }
    return std::nullopt;
}

std::optional<xcb_keycode_t> X11Keymap::spare_keycode() const
{
    if (m_per_keycode == 0)
        return std::nullopt;
    const std::size_t keys = m_keysyms.size() / m_per_keycode;
    for (std::size_t k = keys; k-- > 0;) {
        bool empty = true;
        for (int c = 0; c < m_per_keycode && empty; ++c)
            empty = m_keysyms[k * m_per_keycode + c] == KEYSYM_NONE;
        if (empty)
            return static_cast<xcb_keycode_t>(m_min + k);
    }
    return std::nullopt;
}

std::vector<Keysym> X11Keymap::keysyms_of(xcb_keycode_t keycode) const
{
    if (keycode < m_min || m_per_keycode == 0)
        return {};
    const std::size_t k = keycode - m_min;
    if ((k + 1) * m_per_keycode > m_keysyms.size())
        return {};
    return {m_keysyms.begin() + static_cast<long>(k * m_per_keycode), m_keysyms.begin() + static_cast<long>((k + 1) * m_per_keycode)};
}

} // namespace nd_linux
