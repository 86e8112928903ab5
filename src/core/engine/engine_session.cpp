#include "core/engine/engine.h"

#include <algorithm>
#include <set>
#include <unistd.h>

namespace nd_core {

std::string_view input_mode_name(InputMode m) { return m == InputMode::takeover ? "takeover" : "headless"; }

Engine::Engine(Backend& backend, ConsentProvider& consent, AuditLog& audit, EngineOptions options)
    : m_backend(backend)
    , m_consent(consent)
    , m_audit(audit)
    , m_options(std::move(options))
{
    // The Continue button is the person's own click (§4.3); it arrives on the overlay's thread, so
    // the resume takes the same lock as the tool calls and the control pipe.
    if (auto* overlay = m_backend.overlay())
        overlay->set_continue_handler([this] {
            std::lock_guard lock(m_mutex);
            resume(ResumeBy::indicator);
        });
}

Engine::~Engine()
{
    if (auto* overlay = m_backend.overlay())
        overlay->set_continue_handler({});
}

void Engine::set_client_name(std::string name)
{
    // Session ids carry the client's name: keep it short and plain.
    std::string clean;
    for (char c : name) {
        if (clean.size() >= 32)
            break;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')
            clean.push_back(c);
        else if (c >= 'A' && c <= 'Z')
            clean.push_back(static_cast<char>(c - 'A' + 'a'));
    }
    m_options.client_name = clean.empty() ? "host" : clean;
}

std::int64_t Engine::now_ms() const
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_epoch)
        .count();
}

std::string Engine::new_session_id()
{
    ++m_session_count;
    auto id = "mcp:" + m_options.client_name + ":" + std::to_string(::getpid());
    if (!m_options.session_tag.empty())
        id += "-" + m_options.session_tag;
    if (m_session_count > 1)
        id += ":" + std::to_string(m_session_count);
    return id;
}

Result<const Session*> Engine::start_session(const SessionRequest& req)
{
    if (req.lease_s < MIN_LEASE_S || req.lease_s > MAX_LEASE_S)
        return make_error(ErrorCode::invalid_arguments,
            "lease_s must be between " + std::to_string(MIN_LEASE_S) + " and " + std::to_string(MAX_LEASE_S));
    auto* windows = m_backend.windows();
    if (!windows)
        return make_error(ErrorCode::backend_unavailable, "the backend lists no windows");

    std::vector<std::string> requested;
    if (req.apps) {
        requested = *req.apps;
    } else {
        auto listed = TRY(windows->list_windows());
        for (const auto& w : listed)
            if (std::find(requested.begin(), requested.end(), w.app) == requested.end())
                requested.push_back(w.app);
    }
    if (requested.empty())
        return make_error(ErrorCode::invalid_arguments, "no apps to ask for: apps is empty and no window is open");

    const auto now = now_ms();
    const bool reuse = m_session && m_session->end == SessionEnd::none;
    const bool expired = reuse && now >= m_session->lease_expires_ms;

    if (reuse && req.input == InputMode::headless && m_session->takeover.on)
        end_takeover(*m_session, "the session switched to headless input");

    // What this request needs beyond what the live session already holds.
    ConsentRequest ask{{}, false, false, req.lease_s};
    for (const auto& app : requested)
        if (!reuse || expired || !m_session->scope.allows(app))
            ask.apps.push_back(app);
    ask.clipboard_read = req.clipboard_read && (!reuse || expired || !m_session->clipboard_read);
    ask.takeover = req.input == InputMode::takeover && (!reuse || !m_session->takeover.on);
    if (reuse && !expired && ask.apps.empty() && !ask.clipboard_read && !ask.takeover)
        return &*m_session;

    auto grant = TRY(m_consent.ask(ask));
    // Never grant more than was asked.
    std::set<std::string> granted;
    for (const auto& app : grant.apps)
        if (std::find(ask.apps.begin(), ask.apps.end(), app) != ask.apps.end())
            granted.insert(app);
    if (!grant.allowed || (granted.empty() && (!reuse || expired) ))
        return make_error(ErrorCode::consent_denied, "the person did not allow this session");

    if (!reuse) {
        // A pause outlives its session: ending it (or a kill switch, a revocation) and starting a
        // new one must not resume what only the person's click resumes (§4.3).
        TakeoverState carried;
        if (m_session && m_session->takeover.paused) {
            carried.paused = true;
            carried.paused_reason = m_session->takeover.paused_reason;
        }
        m_session.emplace();
        m_session->takeover = std::move(carried);
        m_session->id = new_session_id();
        m_session->started_ms = now;
    }
    auto& s = *m_session;
    std::set<std::string> scope = (reuse && !expired) ? s.scope.apps() : std::set<std::string>{};
    for (const auto& app : granted)
        scope.insert(to_lower_ascii(app));
    s.scope = AppScope(std::move(scope));
    if (expired)
        s.clipboard_read = false;
    s.clipboard_read = s.clipboard_read || (ask.clipboard_read && grant.clipboard_read);
    s.lease_expires_ms = now + req.lease_s * 1000;
    m_audit.record({.event = "session.start", .session = s.id, .outcome = AuditOutcome::ok()});
    if (auto* trees = m_backend.trees())
        trees->prepare();

    if (ask.takeover) {
        auto* overlay = m_backend.overlay();
        if (!grant.takeover) {
            s.takeover.reason = "the person did not allow takeover";
        } else if (!overlay || !m_backend.input() || !m_backend.watcher()) {
            // Without a watcher the person could not take control back (§4.3): no takeover then.
            s.takeover.reason = "this backend has no takeover input";
        } else if (auto shown = overlay->show_indicator(); !shown.ok()) {
            s.takeover.reason = "the takeover indicator could not be shown: " + shown.error().message;
        } else {
            s.takeover.on = true;
            s.takeover.indicator = true;
            s.takeover.reason.reset();
            s.takeover_granted = true;
            s.input = InputMode::takeover;
            overlay->set_paused(s.takeover.paused);
            if (auto* watcher = m_backend.watcher())
                watcher->reset();
            if (auto pos = m_backend.input()->pointer_position(); pos.ok())
                s.pointer_anchor = *pos;
            m_audit.record({.event = "takeover.start", .session = s.id, .outcome = AuditOutcome::ok()});
        }
    }
    return &s;
}

void Engine::end_takeover(Session& s, std::string reason)
{
    if (s.takeover.on) {
        if (auto* overlay = m_backend.overlay())
            overlay->hide_indicator();
        m_audit.record({.event = "takeover.end", .session = s.id, .outcome = AuditOutcome::ok()});
    }
    s.takeover.on = false;
    s.takeover.indicator = false;
    s.takeover.reason = std::move(reason);
    s.takeover_granted = false;
    s.input = InputMode::headless;
    s.pointer_anchor.reset();
}

Result<void> Engine::end_session()
{
    if (!m_session || m_session->end != SessionEnd::none)
        return Ok{};
    end_takeover(*m_session, "the session ended");
    release_clipboard();
    m_session->end = SessionEnd::ended;
    m_audit.record({.event = "session.end", .session = m_session->id, .outcome = AuditOutcome::ok()});
    return Ok{};
}

Result<void> Engine::check_lease(Session& s)
{
    if (now_ms() < s.lease_expires_ms)
        return Ok{};
    if (s.takeover.on)
        end_takeover(s, "the session's lease expired");
    return make_error(ErrorCode::consent_expired, "the session's lease expired");
}

Result<Session*> Engine::live_session()
{
    if (!m_session)
        return make_error(ErrorCode::not_consented, "no session: call start_session first");
    auto& s = *m_session;
    switch (s.end) {
    case SessionEnd::ended: return make_error(ErrorCode::not_consented, "the session ended");
    case SessionEnd::revoked: return make_error(ErrorCode::session_revoked, "the host revoked session " + s.id);
    case SessionEnd::killed: return make_error(ErrorCode::stopped_by_kill_switch, "the kill switch stopped every session");
    case SessionEnd::none: break;
    }
    TRY_VOID(check_lease(s));
    // A kill switch or revocation on its way (the control pipe hides the indicator first): the
    // call is stopped, not told its takeover's indicator went away.
    if (auto stop = interrupted(s.id))
        return *stop;
    if (s.takeover.on) {
        auto* overlay = m_backend.overlay();
        auto* watcher = m_backend.watcher();
        if (!overlay || !overlay->indicator_alive())
            end_takeover(s, "the takeover indicator was closed by another program");
        else if (!watcher || !watcher->healthy())
            end_takeover(s, "the driver can no longer see the person's input");
    }
    return &s;
}

void Engine::kill_switch()
{
    if (!m_session || m_session->end != SessionEnd::none)
        return;
    end_takeover(*m_session, "the kill switch stopped the session");
    release_clipboard();
    m_session->end = SessionEnd::killed;
    m_audit.record({.event = "kill_switch", .session = m_session->id, .outcome = AuditOutcome::ok()});
}

Result<void> Engine::revoke(std::string_view session_id)
{
    if (!m_session || m_session->id != session_id || m_session->end != SessionEnd::none)
        return make_error(ErrorCode::invalid_arguments, "no live session has that id");
    end_takeover(*m_session, "the host revoked the session");
    release_clipboard();
    m_session->end = SessionEnd::revoked;
    m_audit.record({.event = "session.revoke", .session = m_session->id, .outcome = AuditOutcome::ok()});
    return Ok{};
}

void Engine::connection_closed() { (void)end_session(); }

void Engine::release_clipboard()
{
    if (auto* clipboard = m_backend.clipboard())
        clipboard->release();
}

} // namespace nd_core
