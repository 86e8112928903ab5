#include "desk/desk_read_tree.h"

#include "desk/desk_read_parts.h"

namespace nd_desk {

nd_core::Result<void> fill_frames(Desk& desk, const nd_core::Snapshot& snapshot, std::vector<nd_core::Element>& elements)
{
    std::vector<std::int32_t> rows(elements.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = static_cast<std::int32_t>(i);
    return fill_frames(desk, snapshot, elements, rows);
}

nd_core::Result<void> fill_frames(Desk& desk, const nd_core::Snapshot& snapshot, std::vector<nd_core::Element>& elements,
    const std::vector<std::int32_t>& rows)
{
    if (!snapshot.frames_deferred)
        return {};
    std::vector<std::int32_t> missing;
    for (auto i : rows)
        if (i >= 0 && static_cast<std::size_t>(i) < elements.size() && !elements[static_cast<std::size_t>(i)].has_frame)
            missing.push_back(i);
    if (missing.empty())
        return {};
    auto lock = desk.lock_backend();
    auto* trees = desk.backend().trees();
    if (!trees)
        return nd_core::make_error(nd_core::ErrorCode::backend_unavailable, "this desk reads no trees");
    return trees->read_frames(snapshot.window, elements, missing, EXTRA_READ_DEADLINE);
}

nd_core::Result<std::vector<std::string>> read_key_bindings(Desk& desk, const nd_core::Snapshot& snapshot)
{
    auto lock = desk.lock_backend();
    auto* parts = dynamic_cast<nd_core::DeskParts*>(&desk.backend());
    if (!parts)
        return nd_core::make_error(nd_core::ErrorCode::unsupported,
            "this desk reads no key bindings: call desk_snapshot without keys");
    return parts->key_bindings(snapshot.window, snapshot.elements, EXTRA_READ_DEADLINE);
}

} // namespace nd_desk
