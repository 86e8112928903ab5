#pragma once

// One session: what the person allowed (apps, takeover, clipboard_read), for how long (the lease),
// the input mode and takeover state, and the session's snapshots. The engine owns it; tools read it.

#include "core/backend/synthetic_input.h"
#include "core/model/policy.h"
#include "core/engine/snapshot_store.h"
#include "core/model/view_cache.h"

#include <deque>
#include <optional>
#include <string>

namespace nd_core {

enum class InputMode : std::uint8_t { headless, takeover };
std::string_view input_mode_name(InputMode);

enum class SessionEnd : std::uint8_t { none, ended, revoked, killed };

struct TakeoverState {
    bool on = false;
    bool indicator = false;
    bool paused = false;
    std::optional<std::string> paused_reason; // pointer_moved | key_pressed | button_pressed
    std::optional<std::string> reason;        // why takeover is off or ended
};

inline constexpr std::int64_t DEFAULT_LEASE_S = 3600;
inline constexpr std::int64_t MIN_LEASE_S = 60;
inline constexpr std::int64_t MAX_LEASE_S = 86400;

struct Session {
    std::string id; // e.g. mcp:host:4242
    AppScope scope;
    bool clipboard_read = false;
    bool takeover_granted = false; // consent for takeover; only while takeover is on
    InputMode input = InputMode::headless;
    TakeoverState takeover;
    std::int64_t started_ms = 0;
    std::int64_t lease_expires_ms = 0;
    SessionEnd end = SessionEnd::none;

    SnapshotStore snapshots;
    ViewCache views; // the latest renderings of get_window_state
    // Where the driver last put the pointer, or where it was when the takeover began or resumed.
    std::optional<Point> pointer_anchor;
    // A window-scoped virtual cursor (headless move_cursor), in screen coordinates.
    std::optional<Point> virtual_cursor;
    std::deque<std::int64_t> capture_times_ms; // for the capture rate limit
};

} // namespace nd_core
