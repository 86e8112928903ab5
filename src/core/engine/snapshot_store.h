#pragma once

// A session's snapshots and the rule that keeps tokens honest (docs/tokens.md). commit() turns a raw
// read into a snapshot: when the window's structure is unchanged since its current snapshot, the new
// snapshot keeps that id (tokens stay valid); otherwise it gets a fresh id and the old one is
// superseded. invalidate_all() supersedes every id at once (a resumed takeover). Only the latest
// snapshot of each window is kept; superseded ids are remembered (bounded) to tell stale from unknown.

#include "core/backend/tree_reader.h"
#include "core/model/snapshot.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_set>

namespace nd_core {

class SnapshotStore {
public:
    SnapshotPtr commit(const WindowInfo&, RawTree, std::int64_t now_ms);
    SnapshotPtr latest(std::int64_t window_id) const;
    // The latest snapshot of `window` when a read may answer with it again: its backend keeps
    // versions, the window's facts are the same, and nothing asked for a fresh one (invalidate_all).
    SnapshotPtr reusable(const WindowInfo& window) const;

    enum class Lookup : std::uint8_t { current, superseded, unknown };
    // The current snapshot with this id, if the id is current.
    Lookup find(std::string_view id, SnapshotPtr& out) const;

    void invalidate_all();
    void forget_window(std::int64_t window_id);

private:
    void supersede(const std::string& id);

    std::map<std::int64_t, SnapshotPtr> m_latest; // by window id
    std::map<std::string, std::int64_t, std::less<>> m_current_ids; // id -> window id
    std::unordered_set<std::string> m_superseded;
    std::deque<std::string> m_superseded_order;
    // Windows whose next read must mint a new id even when the structure is unchanged.
    std::unordered_set<std::int64_t> m_windows_to_refresh;
};

// Ids are unique in the process, across sessions: "s1", "s2", ...
std::string next_snapshot_id();

} // namespace nd_core
