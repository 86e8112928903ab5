#include "backend/linux/x11/x11_window_pointer.h"

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;
using nd_core::WindowPointerEvent;

namespace {

constexpr std::chrono::milliseconds FOCUS_SETTLE{50};

xcb_void_cookie_t send_focus(xcb_connection_t* c, xcb_window_t target, std::uint8_t type)
{
    xcb_focus_in_event_t event;
    std::memset(&event, 0, sizeof event);
    event.response_type = type;
    event.detail = XCB_NOTIFY_DETAIL_NONLINEAR;
    event.event = target;
    event.mode = XCB_NOTIFY_MODE_NORMAL;
    return xcb_send_event_checked(c, 0, target, 0, reinterpret_cast<const char*>(&event));
}

} // namespace

nd_core::Result<void> X11WindowPointer::send_pointer(const nd_core::WindowInfo& window, WindowPointerEvent kind, nd_core::Point at)
{
    if (!window.frame.contains(at.x, at.y))
        return make_error(ErrorCode::invalid_arguments,
            "the point (" + std::to_string(at.x) + ", " + std::to_string(at.y) + ") is outside the window \"" + window.title + "\"");
    const auto deadline = deadline_after(X11_BATCH_TIMEOUT);
    const auto target = static_cast<xcb_window_t>(window.window_id);
    // Button, motion and key events share one layout.
    xcb_button_press_event_t event;
    std::memset(&event, 0, sizeof event);
    event.response_type = kind == WindowPointerEvent::press    ? XCB_BUTTON_PRESS
                          : kind == WindowPointerEvent::motion ? XCB_MOTION_NOTIFY
                                                               : XCB_BUTTON_RELEASE;
    event.detail = kind == WindowPointerEvent::motion ? XCB_MOTION_NORMAL : 1;
    event.time = XCB_CURRENT_TIME;
    event.root = m_display.root();
    event.event = target;
    event.child = XCB_NONE;
    event.root_x = static_cast<std::int16_t>(at.x);
    event.root_y = static_cast<std::int16_t>(at.y);
    event.event_x = static_cast<std::int16_t>(at.x - window.frame.x);
    event.event_y = static_cast<std::int16_t>(at.y - window.frame.y);
    event.state = kind == WindowPointerEvent::press ? 0 : XCB_BUTTON_MASK_1;
    event.same_screen = 1;
    auto* c = m_display.connection();
    // A window that is not the active one is told it has the focus for the drag's length: a
    // toolkit pressed while unfocused asks the window manager to activate its window (Qt does),
    // which would take the person's focus. Only the app hears this; the server's focus stays.
    const bool bracket = !window.active;
    std::vector<xcb_void_cookie_t> sent;
    if (bracket && kind == WindowPointerEvent::press) {
        // Qt takes the focus in through a queue of its own: the press must come after it has.
        if (TRY(m_display.check(send_focus(c, target, XCB_FOCUS_IN), deadline)) != 0)
            return make_error(ErrorCode::window_target_not_found, "the window is gone: its button events were not taken");
        std::this_thread::sleep_for(FOCUS_SETTLE);
    }
    sent.push_back(xcb_send_event_checked(c, 0, target, 0, reinterpret_cast<const char*>(&event)));
    if (bracket && kind == WindowPointerEvent::release)
        sent.push_back(send_focus(c, target, XCB_FOCUS_OUT));
    for (const auto& cookie : sent)
        if (TRY(m_display.check(cookie, deadline)) != 0)
            return make_error(ErrorCode::window_target_not_found, "the window is gone: its button events were not taken");
    return {};
}

} // namespace nd_linux
