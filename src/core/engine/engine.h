#pragma once

// The engine: one backend, one consent provider, one session at a time (one per MCP connection),
// and the operations every front shares — window targeting, reads into snapshots, token
// resolution, capture, settle. Tools are thin: they validate arguments, call the engine, render.
// Checks that every tool needs (session, lease, pause) run in the dispatch wrapper; checks that
// every synthetic call needs run in GuardedInput (guarded_input.h).

#include "core/engine/audit.h"
#include "core/backend/backend.h"
#include "core/backend/consent.h"
#include "core/engine/engine_events.h"
#include "core/engine/session.h"
#include "core/engine/window_reads.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace nd_core {

struct WindowTarget {
    std::optional<std::int64_t> pid;
    std::optional<std::int64_t> window_id;
    std::optional<std::string> app; // a name or title fragment
    bool empty() const { return !pid && !window_id && !app; }
};

struct SessionRequest {
    std::optional<std::vector<std::string>> apps; // absent: every app with a window now
    InputMode input = InputMode::headless;
    bool clipboard_read = false;
    std::int64_t lease_s = DEFAULT_LEASE_S;
};


struct SettleInfo {
    bool settled = false;
    std::int64_t ms = 0;
    std::int32_t reads = 0;
    bool window_closed = false; // a read failed because the window is gone (an OK that closes a dialog)
};

struct EngineOptions {
    std::string client_name = "host";
    // Told apart sessions of several engines in one process (the driver daemon's connections):
    // "mcp:<client>:<pid>-<tag>". Empty in a process with one engine.
    std::string session_tag;
    std::chrono::milliseconds settle_timeout{1000};
    std::chrono::milliseconds settle_interval{20};
    // Past GTK's 250 ms: GTK4 runs a button's AT-SPI Click as a person's activation, the button
    // shown pressed for 250 ms before its clicked handler runs; 150 ms called every such click
    // unchanged (gnome-calculator's keys). Only an act whose window has not changed waits it out.
    std::chrono::milliseconds settle_quiet{500};
    std::chrono::milliseconds read_deadline{3000};
    std::int32_t captures_per_second = 5;
};

class Engine {
public:
    // Wires the overlay's Continue button to resume(indicator); the destructor unwires it.
    Engine(Backend&, ConsentProvider&, AuditLog&, EngineOptions = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    Backend& backend() { return m_backend; }
    AuditLog& audit() { return m_audit; }
    const EngineOptions& options() const { return m_options; }
    void set_client_name(std::string);
    std::int64_t now_ms() const;
    // Moves the engine's clock forward (lease expiry in tests without waiting an hour).
    void advance_clock(std::chrono::milliseconds by) { m_epoch -= by; }

    // Sessions (engine_session.cpp).
    Result<const Session*> start_session(const SessionRequest&);
    Result<void> end_session();
    // The live session, or the error that says why there is none (not_consented, consent_expired,
    // session_revoked, stopped_by_kill_switch). Also ends a takeover whose indicator went away.
    Result<Session*> live_session();
    const Session* session() const { return m_session ? &*m_session : nullptr; }
    void kill_switch();
    Result<void> revoke(std::string_view session_id);
    // Ends the takeover (hides the indicator); the session stays, headless.
    void end_takeover(Session&, std::string reason);

    // The hand-back and the host's controls (engine_control.cpp).
    // Pauses the takeover on the person's input (§4.3) and emits takeover.paused.
    void pause(Session&, std::string_view paused_reason);
    // Resumes a paused takeover (§4.3): the session with this id, or with an empty id the paused
    // session, if any. Only a live, paused session whose lease has not ended resumes; every token
    // issued before is stale afterwards. Returns the id resumed, or nothing when nothing was.
    // A resume never undoes a kill switch or revocation and does not extend the lease.
    std::optional<std::string> resume(ResumeBy, std::string_view session_id = {});
    // Receives takeover.paused / takeover.resumed; null sends nothing. Set it before other threads
    // run, or with the mutex held.
    void set_events(EngineEvents* events) { m_events = events; }
    // Thread-safe and never waits for mutex(): asks a tool call in progress to stop at its next
    // input check, for the kill switch (empty id) or a revocation of this session id. The caller
    // then takes the mutex, calls kill_switch() or revoke(), and clears it with clear_interrupt().
    void interrupt(std::string_view session_id = {});
    void clear_interrupt();
    // The error a GuardedInput check returns when an interrupt names this session, else nothing.
    std::optional<Error> interrupted(std::string_view session_id) const;
    void connection_closed();

    // Windows (engine_windows.cpp).
    Result<std::vector<WindowInfo>> windows_in_scope(Session&);
    Result<WindowInfo> resolve_window(Session&, const WindowTarget&);

    // Reads (engine_read.cpp). Frames are deferred: a read carries the root's and secure fields'
    // frames only, and with_frames() adds those of the rows a caller shows or points at.
    Result<SnapshotPtr> read_window(Session&, const WindowInfo&);
    // The snapshot with frames for these rows, and with `action_names` the names of their actions
    // that the read left empty (a full view shows them): the same snapshot when it has them
    // already, else a copy with them read in one batch (same id, same tokens; the store keeps the
    // frameless read).
    Result<SnapshotPtr> with_frames(const SnapshotPtr&, const std::vector<std::int32_t>& rows, bool action_names = false);
    // Resolves <snapshot_id>:<N> against a fresh read of its window (docs/tokens.md).
    Result<ElementRef> resolve_token(Session&, std::string_view token);
    // Reads again until the window changed from `before` and two reads in a row agree, or, when
    // nothing changes, until it stayed quiet for the settle quiet time; never past the settle
    // timeout. Some widgets (an animated switch) change state 100 ms after their action.
    Result<SnapshotPtr> settle(Session&, const Snapshot& before, SettleInfo&);
    // The window's image as PNG with every secure field blacked out; rate limited.
    struct Png {
        std::string bytes;
        std::int32_t width = 0;
        std::int32_t height = 0;
    };
    Result<Png> capture_png(Session&, const Snapshot&);

private:
    Result<void> check_lease(Session&);
    void release_clipboard(); // the session that may have written it ended
    std::string new_session_id();

    Backend& m_backend;
    ConsentProvider& m_consent;
    AuditLog& m_audit;
    EngineOptions m_options;
    std::optional<Session> m_session;
    std::int32_t m_session_count = 0;
    std::chrono::steady_clock::time_point m_epoch = std::chrono::steady_clock::now();
    std::mutex m_mutex; // guards m_session against the control pipe's thread
    bool m_killed = false;
    EngineEvents* m_events = nullptr;
    // An interrupt asked for by the control pipe while a tool call may hold m_mutex.
    std::atomic<bool> m_interrupt_pending{false};
    mutable std::mutex m_interrupt_mutex;
    std::string m_interrupt_session; // empty: the kill switch, every session

public:
    // The control pipe (another thread) takes this lock around kill_switch / revoke / resume.
    std::mutex& mutex() { return m_mutex; }
};

} // namespace nd_core
