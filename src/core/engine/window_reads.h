#pragma once

// The two reads every front shares, the driver's engine and the desk alike: a whole window read
// into a snapshot store, and a token resolved against a fresh read (docs/tokens.md). The engine
// adds sessions, scope and settling on top; the desk adds its app allowlist.

#include "core/backend/backend.h"
#include "core/engine/snapshot_store.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string_view>

namespace nd_core {

struct ElementRef {
    SnapshotPtr snapshot; // the fresh read the token was checked against
    std::int32_t index = 0;
    const Element& element() const { return snapshot->elements[static_cast<std::size_t>(index)]; }
    const WindowInfo& window() const { return snapshot->window; }
};

// Reads the whole window (5,000 elements, depth 200, frames deferred) and commits it to `store`.
Result<SnapshotPtr> read_into(Backend&, SnapshotStore&, const WindowInfo&, std::chrono::milliseconds deadline, std::int64_t now_ms);

// The window's current facts from the backend's window list, or nothing when it is no longer listed
// (closed). Errors: backend_unavailable (the backend lists no windows) and the list's own errors.
Result<std::optional<WindowInfo>> live_window(Backend&, std::int64_t window_id);

// Resolves <snapshot_id>:<N>: the id must be current in `store`, its window still open and
// `allowed` (the caller's scope or allowlist), and a fresh read must have the same structure. Errors: invalid_arguments,
// stale_element_token, window_target_not_found, app_out_of_scope, element_not_found.
Result<ElementRef> resolve_in(Backend&, SnapshotStore&, std::string_view token,
                              const std::function<bool(const WindowInfo&)>& allowed,
                              std::chrono::milliseconds deadline, std::int64_t now_ms);

} // namespace nd_core
