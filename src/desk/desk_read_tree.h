#pragma once

// What the read verbs add to a snapshot before they answer: the frames a deferred read left out
// (bounds: true, at) and the key bindings (keys: true). Both read the live app under the backend
// lock and fill a copy; the shared snapshot stays as it was read.

#include "core/model/snapshot.h"
#include "desk/desk.h"

#include <string>
#include <vector>

namespace nd_desk {

// How long filling frames or keys may take, like a read.
inline constexpr std::chrono::milliseconds EXTRA_READ_DEADLINE{3000};

// Fills the frames of every row of `elements` (a copy of snapshot.elements) that has none.
nd_core::Result<void> fill_frames(Desk&, const nd_core::Snapshot&, std::vector<nd_core::Element>& elements);
// The same for these rows only (find: the rows it answers).
nd_core::Result<void> fill_frames(Desk&, const nd_core::Snapshot&, std::vector<nd_core::Element>& elements,
    const std::vector<std::int32_t>& rows);

// The key binding of each row ("" when none); unsupported on a backend without key bindings.
nd_core::Result<std::vector<std::string>> read_key_bindings(Desk&, const nd_core::Snapshot&);

} // namespace nd_desk
