#pragma once

// The native consent dialog on X11 (contract §4.2, §4.3): a top-level window of its own that lists
// the apps an agent asks for, the lease, and, only when asked, the "ALSO allow VISIBLE TAKEOVER" and
// clipboard lines, each unticked; then Allow and Deny.
//
// Only the person can answer. Allow and the takeover and clipboard lines act on a left-button press
// and release on them that PersonRule judges the person's (their own device, no synthetic press by
// this driver or any other client in the 1.5 s before: docs/linux-x11.md, "Who may answer"); the
// keyboard is never read, so Return cannot allow. Deny acts on a left click from any device: a no
// may come from anywhere. Closing the window and the timeout deny too. The dialog has WM_CLASS
// "nish-driver-consent", this process's _NET_WM_PID and the own-surface mark (x11_own_marker.h), so
// that the driver's window list leaves it out and no input of ours ever lands on it.
//
// Each ask() opens its own connection and window and destroys both before it returns; asks are
// served one at a time.

#include "backend/linux/x11/x11_consent_layout.h"
#include "backend/linux/x11/x11_person_rule.h"
#include "core/backend/consent.h"

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

    // `display_name` empty: $DISPLAY. The rule must outlive the dialog.
    X11ConsentDialog(std::string display_name, PersonRule& rule, std::chrono::milliseconds timeout = DEFAULT_TIMEOUT)
        : m_display_name(std::move(display_name))
        , m_rule(rule)
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

    // Why the last click on a control that only the person may press was not taken (tests, logs);
    // empty when none was refused since the dialog was made.
    std::string last_refusal();

private:
    std::string m_display_name;
    PersonRule& m_rule;
    std::chrono::milliseconds m_timeout;
    std::mutex m_mutex; // one dialog at a time
    std::mutex m_refusal_mutex;
    std::string m_last_refusal;
};

} // namespace nd_linux
