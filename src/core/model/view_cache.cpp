#include "core/model/view_cache.h"

#include <algorithm>

namespace nd_core {

namespace {

// The same view asked for, of whatever snapshot.
bool same_view(const RenderKey& a, const RenderKey& b)
{
    return a.request.kind == b.request.kind && a.request.root == b.request.root &&
           a.request.max_elements == b.request.max_elements && a.request.max_depth == b.request.max_depth &&
           a.root_token == b.root_token;
}

bool same(const RenderKey& a, const RenderKey& b) { return a.snapshot == b.snapshot && same_view(a, b); }

} // namespace

RenderingPtr ViewCache::find(const RenderKey& key)
{
    if (!key.snapshot)
        return nullptr;
    auto it = std::find_if(m_entries.begin(), m_entries.end(), [&key](const Entry& e) { return same(e.key, key); });
    if (it == m_entries.end())
        return nullptr;
    ++m_hits;
    return it->rendering;
}

ViewCache::Prior ViewCache::prior(const RenderKey& key) const
{
    if (!key.snapshot)
        return {};
    for (const auto& e : m_entries) {
        const auto& before = *e.key.snapshot;
        if (e.key.snapshot != key.snapshot && before.window.window_id == key.snapshot->window.window_id &&
            same_view(e.key, key))
            return {e.key.snapshot, e.rendering};
    }
    return {};
}

void ViewCache::put(RenderKey key, RenderingPtr rendering)
{
    if (!key.snapshot || !rendering)
        return;
    // The same view of the same snapshot is replaced; an entry of a window whose snapshot was
    // replaced will not be found again: drop it now rather than keep its snapshot alive until it
    // is the oldest.
    const auto window_id = key.snapshot->window.window_id;
    std::erase_if(m_entries, [window_id, &key](const Entry& e) {
        return same(e.key, key) ||
               (e.key.snapshot->window.window_id == window_id && e.key.snapshot != key.snapshot);
    });
    m_entries.push_front({std::move(key), std::move(rendering)});
    if (m_entries.size() > CAPACITY)
        m_entries.resize(CAPACITY);
}

} // namespace nd_core
