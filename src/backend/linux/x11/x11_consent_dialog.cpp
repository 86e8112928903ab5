#include "backend/linux/x11/x11_consent_dialog.h"

#include "backend/linux/x11/x11_answer_dialog.h"
#include "backend/linux/x11/x11_own_marker.h"

namespace nd_linux {

using nd_core::ConsentGrant;

nd_core::Result<ConsentGrant> X11ConsentDialog::ask(const nd_core::ConsentRequest& req)
{
    std::lock_guard lock(m_mutex);
    const AnswerDialogLook look{TITLE, WM_CLASS_NAME, SURFACE_CONSENT_DIALOG};
    AnswerDialogWait wait{Clock::now() + m_timeout, {}, [this](const std::string& why) {
                              std::lock_guard refusal(m_refusal_mutex);
                              m_last_refusal = why;
                          }, {}};
    const auto end = TRY(run_answer_dialog(m_display_name, m_rule, layout_consent(req), look, wait));
    ConsentGrant grant;
    if (end.allowed.value_or(false)) {
        grant.allowed = true;
        grant.apps = req.apps;
        grant.takeover = req.takeover && end.view.takeover_ticked;
        grant.clipboard_read = req.clipboard_read && end.view.clipboard_ticked;
    }
    return grant;
}

std::string X11ConsentDialog::last_refusal()
{
    std::lock_guard lock(m_refusal_mutex);
    return m_last_refusal;
}

} // namespace nd_linux
