#pragma once

// Who may answer an approval surface: the rule the consent dialog, the paused indicator's Continue
// button and every approval surface to come apply to a click (docs/linux-x11.md, "Who may answer").
//
// A click is a left-button press and release on one control, read through XInput 2
// (x11_xi_buttons.h). It counts as the person's only when all of these hold:
//   1. both came from the same device, and that device is the person's own hand: not a master,
//      not an XTEST device (x11_devices.h), unless it is a test executable's marked device;
//   2. neither is a SendEvent (a GenericEvent cannot be one; checked all the same);
//   3. this driver pressed no button from 1.5 s before the press until the release (PressClock);
//   4. where the server offers RECORD, no client at all sent a synthetic button press through
//      XTEST in that time (X11XtestMonitor), which catches a program that sends a click in a
//      physical device's name. Without RECORD the rule stands on 1 to 3 and the doctor says so.
// Anything it cannot check (the server does not answer, the watch broke and cannot be reopened)
// refuses the click. A refusal (Deny) needs none of this: a no may come from anywhere.
//
// Thread-safe: the dialog's and the indicator's threads judge through one rule.

#include "backend/linux/x11/x11_devices.h"
#include "backend/linux/x11/x11_press_clock.h"
#include "backend/linux/x11/x11_xi_buttons.h"
#include "backend/linux/x11/x11_xtest_monitor.h"

#include <memory>
#include <mutex>
#include <string>

namespace nd_linux {

class PersonRule {
public:
    static constexpr std::chrono::milliseconds QUIET = PressClock::QUIET;
    // How long a judgement waits for the watch to read what the server already sent.
    static constexpr std::chrono::milliseconds SETTLE_TIMEOUT{300};

    // `display_name` empty: $DISPLAY. The clock is the one the backend's synthetic input writes and
    // must outlive the rule. Connects lazily; start() begins the watch at once.
    PersonRule(std::string display_name, PressClock& clock) : m_display_name(std::move(display_name)), m_clock(clock) {}

    // Begins watching synthetic input now (when the server has RECORD), so that a click soon after
    // has the 1.5 s of history rule 4 needs. Idempotent.
    void start();

    struct Verdict {
        bool person = false;
        std::string why; // when not: what failed, for logs and tests
    };
    // Judges a press and release on one control; `pressed_at` is when the press was read.
    Verdict judge(const XiButton& press, Clock::time_point pressed_at, const XiButton& release);

    // What this display lets the rule check, for the doctor: "full" (XInput 2 and RECORD),
    // "devices_only" (XInput 2 without RECORD) or "none" (no XInput 2: no click can be judged).
    std::string level();
    // When the current watch began (tests wait QUIET after it); the epoch when there is none.
    Clock::time_point watching_since();

private:
    // Under m_mutex.
    nd_core::Result<X11Display*> display();
    nd_core::Result<X11XtestMonitor*> monitor();

    const std::string m_display_name;
    PressClock& m_clock;
    std::mutex m_mutex;
    std::unique_ptr<X11Display> m_display; // device lists
    std::unique_ptr<X11XtestMonitor> m_monitor;
};

} // namespace nd_linux
