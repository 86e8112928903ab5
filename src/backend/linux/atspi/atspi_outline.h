#pragma once

// A subtree's outline in one call: org.a11y.atspi.Collection.GetTree (at-spi2-atk, the bridge of
// Chromium, Gecko, GTK 3 and the ATK wrappers) walks the app's tree below an object in the app
// itself and answers each object's reference with the properties asked for, in preorder, leaving
// out the children of an object that manages its descendants (at-spi2-core 2.46 has it). The
// outline asks for Name, Description, ChildCount and Parent, what a node-by-node walk asks with
// Properties.GetAll and GetChildren, and for one property of each interface the walk relies on
// (Action.NActions, Component.ScreenExtents, Text.CharacterCount, Table.NRows): the bridge adds a
// property only for an object of that interface, so the outline tells them as GetInterfaces
// would. Not Value's: Chromium 156 aborts on Value.MinimumValue asked this way (the bridge's
// getter may answer nothing inside the dictionary entry GetTree has opened, where those asked here
// always answer; the walk asks a value role's interfaces itself). A 3,848-object Chromium page
// costs the browser about 40 ms and answers 1.1 MB, where GetAll, GetInterfaces and GetChildren
// object by object cost it about 20 µs a call.
//
// The walk takes a node's name, description, child count and interfaces from the outline, its
// children when the outline holds as many as the node counts (else it asks, as it does for a node
// the outline lacks), and a showing node's frame from Component.ScreenExtents, the place on the
// screen GetExtents would answer (the bridge writes it as (uuuu), signed numbers cast); role and
// states it still asks node by node (no property carries them).
// Toolkits without the method answer UnknownMethod or UnknownObject (GTK 4, Qt): no outline.
//
// An outline of action counts asks Action.NActions alone: where the item cache already gives
// each object's role, states, name and children (a page that was open when the cache was made),
// the walk would still ask GetActions of every object only to count its actions (Chromium names
// none there). The bridge's walk costs about 7 µs an object of the browser's time; a call, about
// 20 µs.

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_message.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace nd_linux {

struct OutlineItem {
    AccessibleProps props;           // name, description, child count
    std::uint32_t interfaces = 0;    // Interface bits: Accessible, Action, Component, Text, Table
    std::int32_t actions = -1;       // Action.NActions; -1 without Action
    // Component.ScreenExtents as answered at the outline (what GetExtents in screen coordinates
    // answers): the walk takes a showing object's frame from it instead of asking.
    std::optional<nd_core::Frame> extents;
    std::vector<ObjectRef> children; // in the app's order; those whose Parent names this object
};

enum class OutlineKind {
    whole,         // the properties above: what the walk takes from it
    action_counts, // Action.NActions alone: only `actions` (and IF_ACTION) is known of each item
};

class Outline {
public:
    // Parses a GetTree reply asked for `root` with the properties above. False when the reply has
    // another shape or its first object is not `root`.
    bool parse(sd_bus_message* reply, const ObjectRef& root, OutlineKind = OutlineKind::whole);
    OutlineKind kind() const { return m_kind; }
    const OutlineItem* find(const ObjectRef&) const;
    std::size_t size() const { return m_items.size(); }
    const std::unordered_map<ObjectRef, OutlineItem, ObjectRefHash>& items() const { return m_items; }

private:
    bool read(sd_bus_message* reply, const ObjectRef& root);
    std::unordered_map<ObjectRef, OutlineItem, ObjectRefHash> m_items;
    OutlineKind m_kind = OutlineKind::whole;
};

struct OutlineAnswer {
    std::shared_ptr<const Outline> outline; // null when the app gave none
    bool no_such_method = false;            // the app has no GetTree: do not ask it again
};

// Asks `root`'s outline under `deadline`. An app that refuses or answers another shape gives no
// outline (not an error: the walk asks node by node); an app that does not answer by the deadline
// fails as any call does.
nd_core::Result<OutlineAnswer> read_outline(AtspiBus&, const ObjectRef& root, Deadline,
                                            OutlineKind = OutlineKind::whole);

} // namespace nd_linux
