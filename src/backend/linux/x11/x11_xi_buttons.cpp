#include "backend/linux/x11/x11_xi_buttons.h"

#include <xcb/xinput.h>

namespace nd_linux {

namespace {

struct OneMask {
    xcb_input_event_mask_t head;
    std::uint32_t bits;
};

std::int32_t whole_pixels(xcb_input_fp1616_t v) { return static_cast<std::int32_t>(v) >> 16; }

} // namespace

void select_xi_buttons(X11Display& display, xcb_window_t window)
{
    OneMask mask{};
    mask.head.deviceid = XCB_INPUT_DEVICE_ALL_MASTER;
    mask.head.mask_len = 1;
    mask.bits = XCB_INPUT_XI_EVENT_MASK_BUTTON_PRESS | XCB_INPUT_XI_EVENT_MASK_BUTTON_RELEASE;
    xcb_input_xi_select_events(display.connection(), window, 1, &mask.head);
}

std::optional<XiButton> xi_button(const xcb_generic_event_t& event, std::uint8_t opcode)
{
    if (opcode == 0 || (event.response_type & 0x7F) != XCB_GE_GENERIC)
        return std::nullopt;
    const auto& ge = reinterpret_cast<const xcb_ge_generic_event_t&>(event);
    if (ge.extension != opcode || (ge.event_type != XCB_INPUT_BUTTON_PRESS && ge.event_type != XCB_INPUT_BUTTON_RELEASE))
        return std::nullopt;
    const auto& e = reinterpret_cast<const xcb_input_button_press_event_t&>(event);
    XiButton out;
    out.press = e.event_type == XCB_INPUT_BUTTON_PRESS;
    out.button = e.detail;
    out.device = e.deviceid;
    out.source = e.sourceid;
    out.window = e.event;
    out.x = whole_pixels(e.event_x);
    out.y = whole_pixels(e.event_y);
    out.sent = (event.response_type & 0x80) != 0;
    return out;
}

std::uint8_t xi_opcode(X11Display& display)
{
    const auto* xi = xcb_get_extension_data(display.connection(), &xcb_input_id);
    return xi && xi->present ? xi->major_opcode : 0;
}

} // namespace nd_linux
