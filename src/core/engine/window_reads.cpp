#include "core/engine/window_reads.h"

#include "core/model/snapshot.h"

namespace nd_core {

Result<SnapshotPtr> read_into(Backend& backend, SnapshotStore& store, const WindowInfo& window,
                              std::chrono::milliseconds deadline, std::int64_t now_ms)
{
    auto* trees = backend.trees();
    if (!trees)
        return make_error(ErrorCode::backend_unavailable, "the backend reads no trees");
    ReadLimits limits{WHOLE_WINDOW_MAX_ELEMENTS, WHOLE_WINDOW_MAX_DEPTH, deadline, FrameMode::deferred};
    // An unchanged window is answered with the snapshot already made of it: no copy, no hash.
    const SnapshotPtr held = store.reusable(window);
    if (held)
        limits.held_version = held->backend_version;
    auto raw = TRY(trees->read_window(window, limits));
    if (raw.unchanged) {
        if (held && raw.version == held->backend_version)
            return held;
        return make_error(ErrorCode::internal_error, "the backend answered unchanged for a tree this read does not hold");
    }
    if (raw.elements.empty())
        return make_error(ErrorCode::element_not_found, "window " + std::to_string(window.window_id) + " has no tree");
    // Toolkits often leave the frame's accessible name empty; the window's title names it then.
    if (raw.elements.front().name.empty())
        raw.elements.front().name = window.title;
    return store.commit(window, std::move(raw), now_ms);
}

Result<std::optional<WindowInfo>> live_window(Backend& backend, std::int64_t window_id)
{
    auto* source = backend.windows();
    if (!source)
        return make_error(ErrorCode::backend_unavailable, "the backend lists no windows");
    auto all = TRY(source->list_windows());
    for (auto& w : all)
        if (w.window_id == window_id)
            return std::optional<WindowInfo>(std::move(w));
    return std::optional<WindowInfo>();
}

Result<ElementRef> resolve_in(Backend& backend, SnapshotStore& store, std::string_view token,
                              const std::function<bool(const WindowInfo&)>& allowed,
                              std::chrono::milliseconds deadline, std::int64_t now_ms)
{
    ParsedToken parsed;
    if (!parse_token(token, parsed))
        return make_error(ErrorCode::invalid_arguments, "element_token must look like <snapshot_id>:<N>, e.g. s3:17");
    SnapshotPtr known;
    switch (store.find(parsed.snapshot_id, known)) {
    case SnapshotStore::Lookup::unknown:
        return make_error(ErrorCode::stale_element_token,
            "token " + std::string(token) + " was not issued by a read in this session");
    case SnapshotStore::Lookup::superseded:
        return make_error(ErrorCode::stale_element_token,
            "token " + std::string(token) + " is from an older structure of its window");
    case SnapshotStore::Lookup::current: break;
    }
    const auto window_id = known->window.window_id;
    // The window may have closed or moved since the read: take its current facts.
    const auto now = TRY(live_window(backend, window_id));
    if (!now) {
        store.forget_window(window_id);
        return make_error(ErrorCode::window_target_not_found,
            "window " + std::to_string(window_id) + " of token " + std::string(token) + " has closed");
    }
    if (!allowed(*now))
        return make_error(ErrorCode::app_out_of_scope, "the token's window belongs to an app this session was not allowed");
    auto fresh = TRY(read_into(backend, store, *now, deadline, now_ms));
    if (fresh->id != parsed.snapshot_id)
        return make_error(ErrorCode::stale_element_token,
            "window " + std::to_string(window_id) + " changed structure since token " + std::string(token));
    if (parsed.index >= fresh->size())
        return make_error(ErrorCode::element_not_found,
            "token " + std::string(token) + " names no element (the read has " + std::to_string(fresh->size()) + ")");
    return ElementRef{fresh, parsed.index};
}

} // namespace nd_core
