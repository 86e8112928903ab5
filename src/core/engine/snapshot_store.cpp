#include "core/engine/snapshot_store.h"

#include "core/model/labels.h"

#include <atomic>

namespace nd_core {

namespace {

constexpr std::size_t MAX_REMEMBERED_SUPERSEDED = 4096;

} // namespace

std::string next_snapshot_id()
{
    static std::atomic<std::uint64_t> counter{0};
    return "s" + std::to_string(++counter);
}

SnapshotPtr SnapshotStore::commit(const WindowInfo& window, RawTree raw, std::int64_t now_ms)
{
    auto snap = std::make_shared<Snapshot>();
    snap->window = window;
    snap->elements = std::move(raw.elements);
    snap->budget_truncated = raw.truncated;
    snap->frames_deferred = raw.frames_deferred;
    snap->structure_hash = finish_tree(snap->elements);
    humanize_names(snap->elements); // names are no structure: the hash is the same either way
    snap->read_at_ms = now_ms;
    snap->backend_version = raw.version;

    auto it = m_latest.find(window.window_id);
    const bool must_refresh = m_windows_to_refresh.erase(window.window_id) > 0;
    if (it != m_latest.end() && !must_refresh && it->second->structure_hash == snap->structure_hash) {
        snap->id = it->second->id;
    } else {
        if (it != m_latest.end()) {
            m_current_ids.erase(it->second->id);
            supersede(it->second->id);
        }
        snap->id = next_snapshot_id();
        m_current_ids[snap->id] = window.window_id;
    }
    SnapshotPtr out = snap;
    m_latest[window.window_id] = out;
    return out;
}

SnapshotPtr SnapshotStore::latest(std::int64_t window_id) const
{
    auto it = m_latest.find(window_id);
    return it == m_latest.end() ? nullptr : it->second;
}

SnapshotPtr SnapshotStore::reusable(const WindowInfo& window) const
{
    auto snap = latest(window.window_id);
    if (!snap || snap->backend_version == 0 || m_windows_to_refresh.count(window.window_id) || !(snap->window == window))
        return nullptr;
    return snap;
}

SnapshotStore::Lookup SnapshotStore::find(std::string_view id, SnapshotPtr& out) const
{
    auto it = m_current_ids.find(id);
    if (it != m_current_ids.end()) {
        out = latest(it->second);
        return Lookup::current;
    }
    if (m_superseded.count(std::string(id)))
        return Lookup::superseded;
    return Lookup::unknown;
}

void SnapshotStore::invalidate_all()
{
    for (const auto& [id, window] : m_current_ids) {
        supersede(id);
        m_windows_to_refresh.insert(window);
    }
    m_current_ids.clear();
}

void SnapshotStore::forget_window(std::int64_t window_id)
{
    auto it = m_latest.find(window_id);
    if (it == m_latest.end())
        return;
    m_current_ids.erase(it->second->id);
    supersede(it->second->id);
    m_latest.erase(it);
}

void SnapshotStore::supersede(const std::string& id)
{
    if (!m_superseded.insert(id).second)
        return;
    m_superseded_order.push_back(id);
    if (m_superseded_order.size() > MAX_REMEMBERED_SUPERSEDED) {
        m_superseded.erase(m_superseded_order.front());
        m_superseded_order.pop_front();
    }
}

} // namespace nd_core
