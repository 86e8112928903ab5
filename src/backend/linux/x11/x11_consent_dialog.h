#pragma once

// The native consent dialog on X11 (contract §4.2, §4.3): a top-level window of its own that lists
// the apps an agent asks for, the lease, and, only when asked, the "ALSO allow VISIBLE TAKEOVER" and
// clipboard lines, each unticked; then Allow and Deny.
//
// Only the person can answer. A control acts on a left-button press and release on it that are
// both real (not SendEvent) while the driver pressed no button in the 1.5 s before the press
// (PressClock); the keyboard is never read, so Return cannot allow. Deny, closing the window and the
// timeout all deny. The dialog has WM_CLASS "nish-driver-consent" and this process's _NET_WM_PID so
// that the driver's window list can leave it out and never target it.
//
// Each ask() opens its own connection and window and destroys both before it returns; asks are
// served one at a time.

#include "backend/linux/x11/x11_consent_layout.h"
#include "backend/linux/x11/x11_press_clock.h"
#include "core/consent.h"

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>

namespace nd_linux {

class X11ConsentDialog final : public nd_core::ConsentProvider {
public:
    static constexpr std::chrono::milliseconds DEFAULT_TIMEOUT{120'000};
    static constexpr std::string_view WM_CLASS_NAME = "nish-driver-consent";
    static constexpr std::string_view TITLE = "nish-driver wants to use your apps";

    // `display_name` empty: $DISPLAY. The clock is the one the backend's synthetic input writes.
    X11ConsentDialog(std::string display_name, PressClock& clock, std::chrono::milliseconds timeout = DEFAULT_TIMEOUT)
        : m_display_name(std::move(display_name))
        , m_clock(clock)
        , m_timeout(timeout)
    {
    }

    std::string name() const override { return "dialog"; }

    // Shows the dialog and waits for the person, at most the timeout. Allow grants every app asked
    // and the ticked lines; anything else is a grant with allowed false. Errors: backend_unavailable
    // (no display, or it went away while asking), timed_out (the server stopped answering).
    nd_core::Result<nd_core::ConsentGrant> ask(const nd_core::ConsentRequest&) override;

    // Where the dialog for `req` puts its controls, in window coordinates (tests click there).
    static ConsentLayout layout(const nd_core::ConsentRequest& req) { return layout_consent(req); }

private:
    std::string m_display_name;
    PressClock& m_clock;
    std::chrono::milliseconds m_timeout;
    std::mutex m_mutex; // one dialog at a time
};

} // namespace nd_linux
