// The hand-back (§4.3) and the host's controls: pausing on the person's input, resuming only on
// the person's click (the indicator's Continue, or the host's own UI through the control pipe),
// and the interrupt that lets the kill switch and a revocation stop a tool call in progress.

#include "core/engine/engine.h"

namespace nd_core {

void Engine::pause(Session& s, std::string_view paused_reason)
{
    const auto at = now_ms();
    s.takeover.paused = true;
    s.takeover.paused_reason = std::string(paused_reason);
    if (s.takeover.on)
        if (auto* overlay = m_backend.overlay())
            overlay->set_paused(true);
    auto reason = AuditName::match(paused_reason, {"pointer_moved", "key_pressed", "button_pressed"});
    m_audit.record({.event = "takeover.paused", .session = s.id, .reason = reason.value_or(AuditName{}), .at_ms = at});
    if (m_events && reason)
        m_events->takeover_paused(s.id, reason->view(), at);
}

std::optional<std::string> Engine::resume(ResumeBy by, std::string_view session_id)
{
    if (!m_session)
        return std::nullopt;
    auto& s = *m_session;
    // A kill switch or revocation is final; an ended session has nothing to resume.
    if (s.end != SessionEnd::none || !s.takeover.paused)
        return std::nullopt;
    if (!session_id.empty() && session_id != s.id)
        return std::nullopt;
    // A lease that ended during the pause needs a new consent first; the session stays paused
    // until the person's click after that (§4.3).
    const auto at = now_ms();
    if (at >= s.lease_expires_ms)
        return std::nullopt;

    s.takeover.paused = false;
    s.takeover.paused_reason.reset();
    // The person may have changed anything while they had the computer: the next act must read
    // the window again, so every token issued before now is stale.
    s.snapshots.invalidate_all();
    if (s.takeover.on) {
        if (auto* overlay = m_backend.overlay())
            overlay->set_paused(false);
        // The person's input during the pause was theirs to make; only input from now on counts,
        // measured from where the pointer is now (§4.3: "when the takeover ... resumed").
        if (auto* watcher = m_backend.watcher())
            watcher->reset();
        if (auto* input = m_backend.input())
            if (auto pos = input->pointer_position(); pos.ok())
                s.pointer_anchor = *pos;
    }
    m_audit.record({.event = "takeover.resumed",
        .session = s.id,
        .outcome = AuditOutcome::ok(),
        .by = by == ResumeBy::host ? AuditBy::host : AuditBy::indicator,
        .at_ms = at});
    if (m_events)
        m_events->takeover_resumed(s.id, by, at);
    return s.id;
}

void Engine::interrupt(std::string_view session_id)
{
    std::lock_guard lock(m_interrupt_mutex);
    m_interrupt_session = std::string(session_id);
    m_interrupt_pending.store(true);
}

void Engine::clear_interrupt()
{
    std::lock_guard lock(m_interrupt_mutex);
    m_interrupt_pending.store(false);
    m_interrupt_session.clear();
}

std::optional<Error> Engine::interrupted(std::string_view session_id) const
{
    if (!m_interrupt_pending.load())
        return std::nullopt;
    std::lock_guard lock(m_interrupt_mutex);
    if (!m_interrupt_pending.load())
        return std::nullopt;
    if (m_interrupt_session.empty())
        return Error(ErrorCode::stopped_by_kill_switch, "the kill switch stopped every session");
    if (m_interrupt_session == session_id)
        return Error(ErrorCode::session_revoked, "the host revoked session " + std::string(session_id));
    return std::nullopt;
}

} // namespace nd_core
