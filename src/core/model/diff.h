#pragma once

// The difference between two reads of one window: elements added, removed and changed (name,
// value, states), matched by the backend's key. Secure values never appear. An act result carries
// the diff of its before and settled after reads (§1).

#include "core/encode/json_writer.h"
#include "core/model/snapshot.h"

#include <string>
#include <vector>

namespace nd_core {

struct DiffEntry {
    enum class Kind : std::uint8_t { added, removed, changed };
    Kind kind = Kind::changed;
    std::int32_t index = 0; // in the after read (added, changed) or the before read (removed)
    std::string role;
    std::string name;  // cut to 80 characters
    std::string field; // changed: name | value | states
    std::string from;
    std::string to;
};

struct Diff {
    bool structural = false; // the structure changed: older tokens are stale
    std::int32_t added = 0;
    std::int32_t removed = 0;
    std::int32_t changed = 0;
    std::vector<DiffEntry> entries; // at most max_entries
    bool truncated = false;

    bool empty() const { return added == 0 && removed == 0 && changed == 0; }
};

inline constexpr std::size_t DIFF_MAX_ENTRIES = 40;

Diff diff_snapshots(const Snapshot& before, const Snapshot& after, std::size_t max_entries = DIFF_MAX_ENTRIES);

// {"structural", "added", "removed", "changed", "entries": [...], "truncated"}; added and changed
// entries carry the element_token of the after read.
void write_diff_json(JsonWriter&, const Diff&, const Snapshot& after);

} // namespace nd_core
