#include "backend/linux/x11/x11_window_keys.h"

#include "backend/linux/x11/x11_keymap.h"
#include "backend/linux/x11/x11_keysyms.h"

#include <cstring>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// The state bit a modifier keysym stands for; 0 for any other key.
std::uint16_t modifier_mask(std::string_view name)
{
    if (name.starts_with("Shift"))
        return XCB_MOD_MASK_SHIFT;
    if (name.starts_with("Control"))
        return XCB_MOD_MASK_CONTROL;
    if (name.starts_with("Alt") || name.starts_with("Meta"))
        return XCB_MOD_MASK_1;
    if (name.starts_with("Super") || name.starts_with("Hyper"))
        return XCB_MOD_MASK_4;
    return 0;
}

} // namespace

nd_core::Result<void> X11WindowKeys::send_keys(const nd_core::WindowInfo& window, const std::vector<std::string>& keysyms)
{
    const auto deadline = deadline_after(X11_BATCH_TIMEOUT);
    const auto map = TRY(X11Keymap::load(m_display, deadline));
    std::uint16_t held = 0;
    std::vector<KeyStroke> strokes;
    for (const auto& name : keysyms) {
        if (const auto mask = modifier_mask(name)) {
            held |= mask;
            continue;
        }
        const auto keysym = keysym_from_name(name);
        const auto stroke = keysym ? map.find(*keysym) : std::nullopt;
        if (!stroke)
            return make_error(ErrorCode::invalid_arguments, "no key of this keyboard produces " + name);
        strokes.push_back(*stroke);
    }
    if (strokes.empty())
        return make_error(ErrorCode::invalid_arguments, "the combination holds only modifiers: nothing to press");
    auto* c = m_display.connection();
    const auto target = static_cast<xcb_window_t>(window.window_id);
    std::vector<xcb_void_cookie_t> sent;
    for (const auto& stroke : strokes) {
        for (const std::uint8_t type : {XCB_KEY_PRESS, XCB_KEY_RELEASE}) {
            xcb_key_press_event_t event;
            std::memset(&event, 0, sizeof event);
            event.response_type = type;
            event.detail = stroke.keycode;
            event.time = XCB_CURRENT_TIME;
            event.root = m_display.root();
            event.event = target;
            event.child = XCB_NONE;
            event.event_x = event.event_y = 1;
            event.state = static_cast<std::uint16_t>(held | (stroke.shift ? XCB_MOD_MASK_SHIFT : 0));
            event.same_screen = 1;
            const std::uint32_t mask = type == XCB_KEY_PRESS ? XCB_EVENT_MASK_KEY_PRESS : XCB_EVENT_MASK_KEY_RELEASE;
            sent.push_back(xcb_send_event_checked(c, 0, target, mask, reinterpret_cast<const char*>(&event)));
        }
    }
    for (const auto& cookie : sent)
        if (TRY(m_display.check(cookie, deadline)) != 0)
            return make_error(ErrorCode::window_target_not_found, "the window is gone: its key events were not taken");
    return {};
}

} // namespace nd_linux
