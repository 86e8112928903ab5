#pragma once

// The native confirm dialog on X11 (docs/confirm.md): before a call that confirm mode asks about,
// a window of its own names the action, the app and window, the element or point and, for typing,
// the text's length and first characters (never for a password field), with Allow and Deny. It is
// the consent dialog's window (x11_answer_dialog.h) with other lines: only the person's own click
// allows, the keyboard is never read, and Deny, closing it, the timeout and a stop all refuse.
// WM_CLASS "nish-confirm" and the own-surface mark "confirm_dialog" keep it out of window lists
// and away from every input of ours. Asks are served one at a time.

#include "backend/linux/x11/x11_consent_layout.h"
#include "backend/linux/x11/x11_person_rule.h"
#include "core/backend/confirm.h"

#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace nd_linux {

class X11ConfirmDialog final : public nd_core::ConfirmProvider {
public:
    static constexpr std::string_view WM_CLASS_NAME = "nish-confirm";
    static constexpr std::string_view TITLE = "Allow this action by an AI agent?";

    // `display_name` empty: $DISPLAY. The rule must outlive the dialog.
    X11ConfirmDialog(std::string display_name, PersonRule& rule) : m_display_name(std::move(display_name)), m_rule(rule) {}

    std::string name() const override { return "dialog"; }
    nd_core::Result<nd_core::ConfirmOutcome> ask(const nd_core::ConfirmRequest&, const nd_core::ConfirmWait&) override;

    // Where the dialog for `req` puts its controls, in window coordinates (tests click there).
    static ConsentLayout layout(const nd_core::ConfirmRequest& req, std::chrono::milliseconds timeout);

    // Called each time a dialog is mapped (the benchmark's probe of "on screen"); not thread-safe
    // against a running ask.
    void set_on_shown(std::function<void()> probe) { m_on_shown = std::move(probe); }
    std::string last_refusal();

private:
    std::string m_display_name;
    PersonRule& m_rule;
    std::function<void()> m_on_shown;
    std::mutex m_mutex; // one dialog at a time
    std::mutex m_refusal_mutex;
    std::string m_last_refusal;
};

} // namespace nd_linux
