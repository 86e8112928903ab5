#include "backend/linux/x11/x11_confirm_dialog.h"

#include "backend/linux/x11/x11_answer_dialog.h"
#include "backend/linux/x11/x11_own_marker.h"

namespace nd_linux {

using nd_core::ConfirmOutcome;

namespace {

std::int64_t whole_seconds(std::chrono::milliseconds timeout)
{
    return std::max<std::int64_t>(1, std::chrono::ceil<std::chrono::seconds>(timeout).count());
}

} // namespace

ConsentLayout X11ConfirmDialog::layout(const nd_core::ConfirmRequest& req, std::chrono::milliseconds timeout)
{
    return layout_confirm(req, whole_seconds(timeout));
}

nd_core::Result<ConfirmOutcome> X11ConfirmDialog::ask(const nd_core::ConfirmRequest& req, const nd_core::ConfirmWait& wait)
{
    std::lock_guard lock(m_mutex);
    if (wait.stopped && wait.stopped())
        return ConfirmOutcome::stopped;
    const AnswerDialogLook look{TITLE, WM_CLASS_NAME, SURFACE_CONFIRM_DIALOG};
    AnswerDialogWait until{Clock::now() + wait.timeout, wait.stopped, [this](const std::string& why) {
                               std::lock_guard refusal(m_refusal_mutex);
                               m_last_refusal = why;
                           }, m_on_shown};
    const auto end = TRY(run_answer_dialog(m_display_name, m_rule, layout(req, wait.timeout), look, until));
    if (end.allowed)
        return *end.allowed ? ConfirmOutcome::allowed : ConfirmOutcome::refused;
    return end.stopped ? ConfirmOutcome::stopped : ConfirmOutcome::timed_out;
}

std::string X11ConfirmDialog::last_refusal()
{
    std::lock_guard lock(m_refusal_mutex);
    return m_last_refusal;
}

} // namespace nd_linux
