#pragma once

// The latest renderings of a session's views (get_window_state). A read of an unchanged window
// answers with the very snapshot object it answered with before (SnapshotStore::reusable), and one
// view of one snapshot always renders to the same bytes: so a repeat read with the same arguments
// answers with the bytes it rendered then, instead of rendering thousands of rows again. An entry
// holds its snapshot, so the identity it is found by cannot be taken by another snapshot; the
// cache keeps a few entries (a session that reads a skeleton, drills down and reads the whole
// window again keeps all three) and forgets the oldest. A window that changed has a new snapshot:
// its view is rendered again, copying the rows that did not change from the rendering of the
// snapshot before (prior(); view_render.h).

#include "core/model/snapshot.h"
#include "core/model/view_render.h"
#include "core/model/views.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

namespace nd_core {

struct Rendering {
    std::string structured; // the tool's structuredContent, JSON
    std::string text;       // the text the model reads
    RenderedRows rows;      // where each row lies in both
};

using RenderingPtr = std::shared_ptr<const Rendering>;

// What makes two renderings the same: the snapshot object, the view asked for, and the root token
// as the caller spelled it (the answer repeats it).
struct RenderKey {
    SnapshotPtr snapshot;
    ViewRequest request;
    std::string root_token;
};

class ViewCache {
public:
    static constexpr std::size_t CAPACITY = 4;

    // The rendering made for the same snapshot object and the same view, or null.
    RenderingPtr find(const RenderKey&);
    // The rendering of the same view of the window's snapshot before this one: what a new
    // rendering may copy rows from. Empty when there is none.
    struct Prior {
        SnapshotPtr snapshot;
        RenderingPtr rendering;
    };
    Prior prior(const RenderKey&) const;
    void put(RenderKey, RenderingPtr);
    std::size_t size() const { return m_entries.size(); }
    // How many finds were answered (tests and benchmarks tell a repeat read by it).
    std::uint64_t hits() const { return m_hits; }

private:
    struct Entry {
        RenderKey key;
        RenderingPtr rendering;
    };
    std::deque<Entry> m_entries; // newest first
    std::uint64_t m_hits = 0;
};

} // namespace nd_core
