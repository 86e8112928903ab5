#pragma once

// WindowControl on X11: EWMH client messages to the root (_NET_ACTIVE_WINDOW with source
// indication 2, as a pager sends it, which window managers honour without focus-stealing rules;
// _NET_CLOSE_WINDOW) and a read of the root's _NET_ACTIVE_WINDOW. Uses the backend's main display
// connection, not XTEST's, so it works where takeover input does not. Each request is checked for
// an X error within X11_BATCH_TIMEOUT.

#include "backend/linux/x11/x11_display.h"
#include "core/backend/window_control.h"

namespace nd_linux {

class X11WindowControl final : public nd_core::WindowControl {
public:
    explicit X11WindowControl(X11Display& display) : m_display(display) {}

    nd_core::Result<void> request_activate(const nd_core::WindowInfo&) override;
    nd_core::Result<void> request_close(const nd_core::WindowInfo&) override;
    nd_core::Result<std::int64_t> active_window() override;

private:
    nd_core::Result<void> send_root_message(const nd_core::WindowInfo&, std::string_view type, std::uint32_t source);

    X11Display& m_display;
};

} // namespace nd_linux
