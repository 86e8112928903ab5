#pragma once

// The window the consent dialog and the confirm dialog share (x11_consent_dialog.h,
// x11_confirm_dialog.h): a top-level window of its own, drawn from a ConsentLayout, answered only
// by a left click. Allow and the tick lines act on a press and release that PersonRule judges the
// person's; Deny on a click from any device; the keyboard is never selected. Closing the window, a
// stop and the deadline end it without an allow. It has the given WM_CLASS, this process's
// _NET_WM_PID and the own-surface mark, and is destroyed before run_answer_dialog returns.

#include "backend/linux/x11/x11_consent_draw.h"
#include "backend/linux/x11/x11_consent_layout.h"
#include "backend/linux/x11/x11_person_rule.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace nd_linux {

struct AnswerDialogLook {
    std::string_view title;
    std::string_view wm_class;
    std::string_view surface_kind; // the own-surface mark (x11_own_marker.h)
};

struct AnswerDialogWait {
    Clock::time_point deadline;
    std::function<bool()> stopped;                       // may be empty; polled at least every 100 ms
    std::function<void(const std::string&)> on_refusal;  // a click PersonRule did not take, and why
    std::function<void()> on_shown;                       // the window was mapped (a latency probe)
};

struct AnswerDialogEnd {
    // true: Allow by the person; false: Deny, closed or destroyed; nullopt: the deadline or the stop.
    std::optional<bool> allowed;
    bool stopped = false;
    ConsentView view; // the tick lines as the person left them
};

// Errors: backend_unavailable (no display, no XInput 2, the server refused the window, or the
// display went away while asking).
nd_core::Result<AnswerDialogEnd> run_answer_dialog(const std::string& display_name, PersonRule&, const ConsentLayout&,
    const AnswerDialogLook&, const AnswerDialogWait&);

} // namespace nd_linux
