#pragma once

// One read of one window: the whole tree (up to the whole-window budget of 5,000 elements and depth
// 200) in preorder, immutable once built. Full, skeleton and drill-down views are projections of it
// (views.h). The snapshot id names the window's structure: two reads with the same structure share
// it, so tokens <snapshot_id>:<N> stay valid until the structure changes (docs/tokens.md).

#include "core/model/element.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nd_core {

inline constexpr std::int32_t WHOLE_WINDOW_MAX_ELEMENTS = 5000;
inline constexpr std::int32_t WHOLE_WINDOW_MAX_DEPTH = 200;

struct Snapshot {
    std::string id; // structure id, e.g. "s12"
    WindowInfo window;
    std::vector<Element> elements; // preorder; [0] is the window's root
    bool budget_truncated = false;  // the window held more than the whole-window budget
    bool frames_deferred = false;   // frames not read yet except the root's and secure fields' (Engine::with_frames)
    std::uint64_t structure_hash = 0;
    std::int64_t read_at_ms = 0;
    std::uint64_t backend_version = 0; // RawTree::version of the read it was made from

    std::int32_t size() const { return static_cast<std::int32_t>(elements.size()); }
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

// Fills depth, child_count and descendant_count from parent links, and returns the structure hash:
// a hash over each element's parent, role, backend key and showing state in preorder. Names,
// values and the other states are not structure. `elements` must be in preorder with parent < own index.
std::uint64_t finish_tree(std::vector<Element>& elements);

std::string format_token(std::string_view snapshot_id, std::int32_t index);

struct ParsedToken {
    std::string snapshot_id;
    std::int32_t index = 0;
};
// Returns nullopt-like false when the text is not <snapshot_id>:<N>.
bool parse_token(std::string_view text, ParsedToken& out);

} // namespace nd_core
