#pragma once

// What a TreeWalk (atspi_walker.h) knows of one object while it reads: shared by the walk and its
// budget (atspi_walker_budget.cpp).

#include "backend/linux/atspi/atspi_walker.h"

#include <string>
#include <vector>

namespace nd_linux {

struct TreeWalk::Node {
    ObjectRef ref;
    int parent = -1;
    std::int32_t depth = 0;
    std::vector<int> children;

    std::uint32_t role = 0;
    AtspiStates states;
    std::uint32_t interfaces = 0;
    AccessibleProps props;
    const CachedItem* cached = nullptr;
    const OutlineItem* outlined = nullptr; // name, description, child count and children from the outline

    int pending_facts = 0;
    bool gone = false;
    bool secure = false;
    bool cut = false;           // the limits kept some of its children out of the read
    bool deferred = false;      // found where the budget may end: read once its level is known
    bool dropped = false;       // found past the budget's end, not read
    bool visible_child = false; // one of the visible part of a container that manages its descendants
    nd_core::ManagedChildren managed;
    std::string stable_key; // for a visible child: where it sits (child_key), since its path changes
    std::int32_t position = -1; // a Qt item view's cell: its index in the view (positional_key)

    nd_core::Frame frame;
    bool has_frame = false;
    bool empty_frame = false; // GetExtents answered a place with no area
    std::vector<std::string> actions;
    std::string value;
    std::string landmark; // an unnamed ARIA landmark's kind (xml-roles: banner, main, contentinfo, ...)
    std::int32_t level = 0; // a heading's level (the attribute `level`), 0 when not given
};

} // namespace nd_linux
