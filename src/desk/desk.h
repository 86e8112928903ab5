#pragma once

// The desk: what every desk verb shares. One backend (the same Linux backend the driver uses), the
// config (app allowlist), the safety stop, and one snapshot store, so that one read of a window serves a
// snapshot, a find and a press alike. Desk node ids are the engine's tokens, <snapshot_id>:<N>,
// resolved against a fresh read (docs/tokens.md); desk window ids are X window ids in decimal.
//
// Threads: the daemon runs calls of several clients at once, and the backend's parts (one X
// connection, one AT-SPI bus connection) are not thread-safe. So every backend call is made under
// lock_backend() (recursive: a verb holding it may call all_windows(), read() or resolve(), which
// take it too); synthetic input also holds input_mutex() for a whole key combination or drag, so
// it never interleaves with another client's. Waits (wait, still) hold neither while they sleep.
// Screen captures take lock_capture(): a lock of their own when the screen captures on a connection
// of its own (Screen::captures_apart), so that a capture runs beside a tree read; else the
// backend's.

#include "core/backend/backend.h"
#include "core/engine/snapshot_store.h"
#include "core/engine/window_reads.h"
#include "desk/config.h"
#include "desk/safety_stop.h"
#include "desk/vision/vision_sessions.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <mutex>
#include <optional>
#include <vector>

namespace nd_desk {

class Desk {
public:
    static constexpr std::chrono::milliseconds READ_DEADLINE{3000};

    Desk(nd_core::Backend& backend, DeskConfig config) : m_backend(backend), m_config(std::move(config)) {}

    nd_core::Backend& backend() { return m_backend; }
    const nd_core::Backend& backend() const { return m_backend; }
    const DeskConfig& config() const { return m_config; }
    SafetyStop& safety_stop() { return m_safety_stop; }
    // Who answers confirm mode's questions (desk_confirm.h): the host's control channel when the
    // daemon was given one (set before serving; not owned), else the backend's own dialog; null
    // when there is neither.
    nd_core::ConfirmProvider* confirm_provider() { return m_confirm ? m_confirm : m_backend.confirm_dialog(); }
    void set_confirm_provider(nd_core::ConfirmProvider* provider) { m_confirm = provider; }

    std::unique_lock<std::recursive_mutex> lock_backend() { return std::unique_lock(m_backend_mutex); }
    std::unique_lock<std::recursive_mutex> lock_capture();
    std::mutex& input_mutex() { return m_input_mutex; }
    nd_core::SnapshotStore& snapshots() { return m_snapshots; }
    // The vision verbs' sessions: element indexes and screenshot scales per caller (vision/vision_sessions.h).
    VisionSessions& vision_sessions() { return m_vision; }
    std::int64_t now_ms() const;

    // Every top-level window, topmost first, and those whose app the allowlist lets through.
    nd_core::Result<std::vector<nd_core::WindowInfo>> all_windows();
    nd_core::Result<std::vector<nd_core::WindowInfo>> allowed_windows();
    // The surfaces no window manager places (menus, popovers, tooltips, some notifications), above
    // every window, topmost first (WindowSource::list_unmanaged).
    nd_core::Result<std::vector<nd_core::WindowInfo>> unmanaged_surfaces();

    // The window that the verb's `window` (a title), `id` (a desk window id) and `pid` arguments
    // name, within the allowlist (docs/desk.md, "Naming a window"). A title equal to two listed
    // windows, or contained in two when none equals it, is refused. With pid alone: that process's
    // topmost window. With none of them: window_target_not_found, unless `front_if_none`, which
    // picks the active window (else the topmost) within the allowlist.
    nd_core::Result<nd_core::WindowInfo> pick_window(const nlohmann::json& args, bool front_if_none = false);

    // Whether the allowlist lets the window's app through (by its executable, its own name or the
    // name its process was started under).
    bool allows(const nd_core::WindowInfo&) const;
    // app_out_of_scope naming the app, unless the allowlist lets it through.
    nd_core::Result<void> check_allowed(const nd_core::WindowInfo&) const;

    // Reads a window whole into the store.
    nd_core::Result<nd_core::SnapshotPtr> read(const nd_core::WindowInfo&);
    // Resolves a node id against a fresh read.
    nd_core::Result<nd_core::ElementRef> resolve(std::string_view id);

private:
    nd_core::Backend& m_backend;
    const DeskConfig m_config;
    SafetyStop m_safety_stop;
    nd_core::ConfirmProvider* m_confirm = nullptr;
    std::recursive_mutex m_backend_mutex;
    std::mutex m_input_mutex;
    std::recursive_mutex m_capture_mutex;
    nd_core::SnapshotStore m_snapshots;
    VisionSessions m_vision;
    const std::chrono::steady_clock::time_point m_epoch = std::chrono::steady_clock::now();
};

// The text of an error as the desk answers it: the message alone (the driver's suggestions name
// the driver's tools, not the desk's verbs).
std::string error_text(const nd_core::Error&);

} // namespace nd_desk
