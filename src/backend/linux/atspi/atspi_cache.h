#pragma once

// An app's own cache of its accessible objects (org.a11y.atspi.Cache.GetItems), parsed.
//
// GTK3's bridge answers with every object it has registered, in one call, layout
// a((so)(so)(so)iiassusau): self, app, parent, index in parent, child count, interfaces, name,
// role, description, states. It answers only after some client registered an event listener
// (AtspiBus::open does). The cache is not the tree: GTK3 leaves out objects it never announced
// (gtk3-widget-factory's frame lists 2 of its 10 children), GTK4 holds only materialised nodes,
// Qt5 answers with nothing. So the walk uses an item only for what the item itself says, and takes
// a node's children from the cache only when the cache holds exactly as many as the node reports.
// Items in the DEFUNCT state are left out: they are no longer in the tree.

#include "backend/linux/atspi/atspi_message.h"

#include <unordered_map>
#include <vector>

namespace nd_linux {

struct CachedItem {
    ObjectRef parent;
    std::int32_t index = -1;        // index in parent; -1 when the app did not say
    std::int32_t child_count = -1;  // -1: unknown (menus, objects that manage descendants)
    std::uint32_t interfaces = 0;   // Interface bits
    std::uint32_t role = 0;
    AtspiStates states;
    std::string name;
    std::string description;
};

class ItemCache {
public:
    // Parses a GetItems reply; fails (returns false) when the layout is not the one above.
    bool parse(sd_bus_message* reply);

    const CachedItem* find(const ObjectRef&) const;
    // The cached children of `parent`, ordered by index in parent (unknown indexes last, in the
    // app's order). nullptr when the cache holds none.
    const std::vector<ObjectRef>* children(const ObjectRef& parent) const;
    std::size_t size() const { return m_items.size(); }
    // Whether the cache holds an object of `role` in `state` below `top` (its parents lead there).
    bool holds_below(const ObjectRef& top, std::uint32_t role, std::uint32_t state) const;
    // The objects in the cache that manage their descendants (a Calc sheet; GTK3 tree views).
    const std::vector<ObjectRef>& managing_descendants() const { return m_managing; }

private:
    std::unordered_map<ObjectRef, CachedItem, ObjectRefHash> m_items;
    std::unordered_map<ObjectRef, std::vector<ObjectRef>, ObjectRefHash> m_children;
    std::vector<ObjectRef> m_managing;
};

} // namespace nd_linux
