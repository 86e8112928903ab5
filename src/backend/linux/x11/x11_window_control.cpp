#include "backend/linux/x11/x11_window_control.h"

#include "backend/linux/x11/x11_properties.h"

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// EWMH source indication: 2 = a pager or similar tool acting for the person.
constexpr std::uint32_t SOURCE_PAGER = 2;

} // namespace

nd_core::Result<void> X11WindowControl::send_root_message(const nd_core::WindowInfo& window, std::string_view type,
    std::uint32_t source)
{
    if (m_display.broken())
        return m_display.dead_error();
    if (window.window_id <= 0 || window.window_id > UINT32_MAX)
        return make_error(ErrorCode::window_target_not_found, "not an X window id: list the windows with desk_windows");
    const xcb_atom_t atom = m_display.atom(type);
    if (atom == XCB_ATOM_NONE)
        return m_display.timeout_error(type);
    xcb_client_message_event_t message{};
    message.response_type = XCB_CLIENT_MESSAGE;
    message.format = 32;
    message.window = static_cast<xcb_window_t>(window.window_id);
    message.type = atom;
    message.data.data32[0] = type == "_NET_CLOSE_WINDOW" ? XCB_CURRENT_TIME : source;
    message.data.data32[1] = type == "_NET_CLOSE_WINDOW" ? source : XCB_CURRENT_TIME;
    auto cookie = xcb_send_event_checked(m_display.connection(), 0, m_display.root(),
        XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY, reinterpret_cast<const char*>(&message));
    const std::uint8_t error = TRY(m_display.check(cookie, deadline_after(X11_BATCH_TIMEOUT)));
    if (error)
        return make_error(ErrorCode::action_failed,
            "the X server refused the " + std::string(type) + " request (X error " + std::to_string(error) + ")");
    return {};
}

nd_core::Result<void> X11WindowControl::request_activate(const nd_core::WindowInfo& window)
{
    return send_root_message(window, "_NET_ACTIVE_WINDOW", SOURCE_PAGER);
}

nd_core::Result<void> X11WindowControl::request_close(const nd_core::WindowInfo& window)
{
    // _NET_CLOSE_WINDOW: data32[0] a timestamp, data32[1] the source indication.
    return send_root_message(window, "_NET_CLOSE_WINDOW", SOURCE_PAGER);
}

nd_core::Result<std::int64_t> X11WindowControl::active_window()
{
    if (m_display.broken())
        return m_display.dead_error();
    const xcb_atom_t active = m_display.atom("_NET_ACTIVE_WINDOW");
    if (active == XCB_ATOM_NONE)
        return m_display.timeout_error("the _NET_ACTIVE_WINDOW atom");
    auto reply = TRY(m_display.wait<xcb_get_property_reply_t>(
        xcb_get_property(m_display.connection(), 0, m_display.root(), active, XCB_ATOM_WINDOW, 0, 1),
        deadline_after(X11_BATCH_TIMEOUT)));
    auto ids = reply ? property_u32(reply.value.get()) : std::vector<std::uint32_t>{};
    return ids.empty() ? std::int64_t{0} : std::int64_t{ids.front()};
}

} // namespace nd_linux
