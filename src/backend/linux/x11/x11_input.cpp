#include "backend/linux/x11/x11_input.h"

#include "backend/linux/x11/x11_properties.h"
#include "backend/linux/x11/x11_reply.h"

#include <xcb/xcbext.h>
#include <xcb/xtest.h>

#include <algorithm>
#include <thread>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;
using nd_core::MouseButton;
using nd_core::Result;

namespace {

// More wheel notches than any sensible scroll; a bigger request is a model's mistake.
constexpr std::int32_t MAX_NOTCHES = 200;

} // namespace

X11Input::X11Input(X11Display& display, PressClock& clock) : m_display(display), m_clock(clock) {}

X11Input::~X11Input() { (void)release_all(); }

xcb_void_cookie_t X11Input::fake(std::uint8_t type, std::uint8_t detail, Point at)
{
    return xcb_test_fake_input_checked(m_display.connection(), type, detail, XCB_CURRENT_TIME, m_display.root(),
        static_cast<std::int16_t>(std::clamp<std::int32_t>(at.x, INT16_MIN, INT16_MAX)),
        static_cast<std::int16_t>(std::clamp<std::int32_t>(at.y, INT16_MIN, INT16_MAX)), 0);
}

Result<void> X11Input::confirm(std::initializer_list<xcb_void_cookie_t> cookies, Deadline deadline)
{
    if (cookies.size() == 0)
        return {};
    // One round trip: once the last request is checked, the server has handled the earlier ones and
    // their errors (if any) wait in xcb's reply map.
    auto checked = m_display.check(*(cookies.end() - 1), deadline);
    if (!checked.ok()) {
        // Nobody will ask for these errors any more; xcb would keep them otherwise.
        for (auto cookie : cookies)
            m_display.discard(cookie.sequence);
        return checked.error();
    }
    std::uint8_t error = *checked;
    for (auto it = cookies.begin(); it + 1 != cookies.end(); ++it) {
        void* reply = nullptr;
        xcb_generic_error_t* e = nullptr;
        if (xcb_poll_for_reply(m_display.connection(), it->sequence, &reply, &e) && e && !error)
            error = e->error_code;
        std::free(reply);
        std::free(e);
    }
    if (error)
        return make_error(ErrorCode::action_failed, "the X server refused synthetic input (X error " + std::to_string(error) + ")");
    return {};
}

Result<void> X11Input::move_pointer(Point at)
{
    std::lock_guard lock(m_mutex);
    auto deadline = deadline_after(X11_BATCH_TIMEOUT);
    // detail 0: absolute coordinates on the root window given (XTEST 2.2, FakeInput MotionNotify).
    return confirm({fake(XCB_MOTION_NOTIFY, 0, at)}, deadline);
}

Result<void> X11Input::send_button(std::uint8_t button, bool press, Deadline deadline)
{
    if (press) {
        // Remembered before it is sent: if the send fails half way, release_all still lets go.
        m_held_buttons.insert(button);
        m_clock.record_press();
    }
    auto sent = confirm({fake(press ? XCB_BUTTON_PRESS : XCB_BUTTON_RELEASE, button)}, deadline);
    if (!press && sent.ok())
        m_held_buttons.erase(button);
    return sent;
}

Result<void> X11Input::button(MouseButton which, bool press)
{
    if (which == MouseButton::middle)
        return make_error(ErrorCode::unsupported, "the middle button is refused: it pastes the primary selection, and the driver does no middle-click paste");
    if (which != MouseButton::left && which != MouseButton::right)
        return make_error(ErrorCode::invalid_arguments, "only the left and right buttons can be pressed");
    std::lock_guard lock(m_mutex);
    return send_button(static_cast<std::uint8_t>(which), press, deadline_after(X11_BATCH_TIMEOUT));
}

Result<void> X11Input::scroll(std::int32_t dx, std::int32_t dy)
{
    if (std::abs(dx) > MAX_NOTCHES || std::abs(dy) > MAX_NOTCHES)
        return make_error(ErrorCode::invalid_arguments, "scroll at most " + std::to_string(MAX_NOTCHES) + " notches at a time");
    std::lock_guard lock(m_mutex);
    auto deadline = deadline_after(X11_BATCH_TIMEOUT);
    // Wheel buttons (X11 convention): 4 up, 5 down, 6 left, 7 right; one press and release a notch.
    auto notches = [&](std::int32_t n, std::uint8_t negative, std::uint8_t positive) -> Result<void> {
        const std::uint8_t button = n < 0 ? negative : positive;
        for (std::int32_t i = 0; i < std::abs(n); ++i) {
            TRY_VOID(send_button(button, true, deadline));
            TRY_VOID(send_button(button, false, deadline));
        }
        return {};
    };
    TRY_VOID(notches(dy, 4, 5));
    return notches(dx, 6, 7);
}

Result<void> X11Input::release_all()
{
    std::lock_guard lock(m_mutex);
    return release_locked();
}

Result<void> X11Input::release_locked()
{
    if (m_display.broken()) {
        // Nothing can be sent; the server releases a dead client's XTEST keys and buttons itself.
        m_held_keys.clear();
        m_held_buttons.clear();
        m_borrowed.reset();
        return m_display.dead_error();
    }
    auto deadline = deadline_after(RELEASE_TIMEOUT);
    // Every release is sent first, unchecked by any earlier failure, then one round trip checks them.
    std::vector<xcb_void_cookie_t> cookies;
    std::set<xcb_keycode_t> shifts;
    for (const auto& [keycode, held] : m_held_keys) {
        cookies.push_back(fake(XCB_KEY_RELEASE, keycode));
        if (held.shift)
            shifts.insert(held.shift);
    }
    // Shift last, as a person would let go of it.
    for (auto shift : shifts)
        cookies.push_back(fake(XCB_KEY_RELEASE, shift));
    for (auto button : m_held_buttons)
        cookies.push_back(fake(XCB_BUTTON_RELEASE, button));
    m_held_keys.clear();
    m_held_buttons.clear();
    Result<void> first;
    if (!cookies.empty()) {
        auto checked = m_display.check(cookies.back(), deadline);
        for (auto& cookie : cookies)
            m_display.discard(cookie.sequence);
        if (!checked.ok())
            first = checked.error();
    }
    auto restored = give_back(deadline);
    if (first.ok() && !restored.ok())
        first = restored.error();
    return first;
}

std::size_t X11Input::held_count() const
{
    std::lock_guard lock(m_mutex);
    return m_held_keys.size() + m_held_buttons.size();
}

Result<void> X11Input::raise_window(const nd_core::WindowInfo& window)
{
    if (window.window_id <= 0 || window.window_id > UINT32_MAX)
        return make_error(ErrorCode::window_target_not_found, "not an X window id");
    const auto target = static_cast<xcb_window_t>(window.window_id);
    // The lock is held only for each exchange with the server, not across the waits between them,
    // so that release_all from the kill switch never waits for a window manager.
    std::unique_lock lock(m_mutex);
    const xcb_atom_t active = m_display.atom("_NET_ACTIVE_WINDOW");
    lock.unlock();
    if (active == XCB_ATOM_NONE)
        return m_display.timeout_error("the _NET_ACTIVE_WINDOW atom");

    // EWMH: the window manager activates (raises and focuses) on this request; source indication 2
    // says a pager-like tool asks for it, which window managers honour without focus-stealing rules.
    xcb_client_message_event_t message{};
    message.response_type = XCB_CLIENT_MESSAGE;
    message.format = 32;
    message.window = target;
    message.type = active;
    message.data.data32[0] = 2;
    message.data.data32[1] = XCB_CURRENT_TIME;
    auto send = [&]() -> Result<void> {
        std::lock_guard exchange(m_mutex);
        auto cookie = xcb_send_event_checked(m_display.connection(), 0, m_display.root(),
            XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY, reinterpret_cast<const char*>(&message));
        const std::uint8_t error = TRY(m_display.check(cookie, deadline_after(X11_BATCH_TIMEOUT)));
        if (error)
            return make_error(ErrorCode::action_failed, "the X server refused the activation request (X error " + std::to_string(error) + ")");
        return {};
    };
    TRY_VOID(send());

    // The check: the window manager says so in _NET_ACTIVE_WINDOW on the root once it has done it.
    // A window manager drops the request for a window it has not finished managing (just mapped),
    // so it is sent again every RAISE_RESEND while waiting.
    const auto deadline = deadline_after(RAISE_TIMEOUT);
    auto next_send = Clock::now() + RAISE_RESEND;
    for (;;) {
        lock.lock();
        auto reply = m_display.wait<xcb_get_property_reply_t>(
            xcb_get_property(m_display.connection(), 0, m_display.root(), active, XCB_ATOM_WINDOW, 0, 1), deadline);
        lock.unlock();
        if (!reply.ok())
            return std::move(reply).error();
        auto ids = *reply ? property_u32(reply->value.get()) : std::vector<std::uint32_t>{};
        if (!ids.empty() && ids.front() == target)
            return {};
        if (Clock::now() + std::chrono::milliseconds(10) >= deadline)
            return make_error(ErrorCode::focus_changed, "the window manager did not make the window active in time");
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (Clock::now() >= next_send) {
            TRY_VOID(send());
            next_send = Clock::now() + RAISE_RESEND;
        }
    }
}

Result<nd_core::Point> X11Input::pointer_position()
{
    std::lock_guard lock(m_mutex);
    auto reply = TRY(m_display.wait<xcb_query_pointer_reply_t>(
        xcb_query_pointer(m_display.connection(), m_display.root()), deadline_after(X11_BATCH_TIMEOUT)));
    if (!reply)
        return make_error(ErrorCode::backend_unavailable, "the X server did not say where the pointer is");
    return Point{reply->root_x, reply->root_y};
}

} // namespace nd_linux
