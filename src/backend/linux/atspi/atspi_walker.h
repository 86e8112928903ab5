#pragma once

// Reads one subtree into the model's preorder array, with every call pipelined.
//
// A node's facts come from the app's cache when it holds the node, else from four calls sent at
// once (GetRole, GetState, GetInterfaces, Properties.GetAll of Accessible for Name, Description
// and ChildCount), three when the subtree's outline (atspi_outline.h) gives the last. As soon as a node's facts are in, its follow-ups go out: GetChildren (unless
// the cache holds all of its children), GetExtents (showing objects), GetActions for Action
// objects, and its value (Text or Value, never for secure nodes). So the walk never waits for a
// level to finish: the number of calls in flight, not the depth, sets the pace.
//
// A container that manages its descendants is never enumerated; its children are the part on
// screen (atspi_visible_part.h), and its element says how big the whole is (Element::managed).
//
// Limits: nodes deeper than max_depth are not read, and a read keeps the first max_elements nodes
// breadth-first, whatever order the replies came in; both set truncated. Nodes that vanish
// mid-read are dropped with their subtrees; the root vanishing fails the read.

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_cache.h"
#include "backend/linux/atspi/atspi_outline.h"
#include "core/backend/tree_reader.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace nd_linux {

struct WalkStats {
    std::size_t calls = 0;       // D-Bus calls sent
    std::size_t from_cache = 0;  // nodes whose facts came from the cache
    std::size_t from_outline = 0; // nodes whose name, description and children came from the outline
    std::size_t frames_left = 0;  // showing nodes whose frames were deferred (none came with an outline)
};

struct WalkOptions {
    // Ask extents of objects that are not showing too (their frames are mostly meaningless).
    bool hidden_extents = false;
    // Ask Name, Description and ChildCount one by one (Properties.Get) instead of one GetAll:
    // Qt5 crashes on GetAll of the Accessible interface. Qt5 apps offer no Cache.GetItems, which
    // is how the reader tells them apart.
    bool property_gets = false;
    // FrameMode::deferred: extents of the root and of secure fields only; the rest are read for
    // the rows a view returns (AtspiTreeReader::read_frames).
    bool deferred_frames = false;
    // Whether visible stands for showing (1: the toolkit says so, atspi_toolkit.h, or a warm
    // read of a part of a window follows its cold read; -1: derive it from the root, a window
    // that is visible but not showing), and whether the part read lies inside a secure field
    // (everything below one is secure too).
    int visible_means_showing = -1;
    bool inside_secure = false;
    // Qt makes the cells of its item views (QTreeView, QTableView, QListView) anew, under a new
    // object path, each time they are asked for: their keys name where they sit and what they
    // show instead (positional_key), so that an unchanged view reads as the same structure.
    bool positional_item_views = false;
    // Java (the ATK wrapper) makes a table header's entries anew too, and they are labels of a
    // panel: a panel whose children are all labels reads them by position as well.
    bool positional_label_panels = false;
    // GTK 4 (4.8) answers GetChildren of a stack with its pages' children, while ChildCount,
    // GetChildAtIndex and its item cache put the pages (GtkStackPage) between them: a walk that
    // asks an object for its children asks them one by one there, so that a part read again (a
    // warm read's) is the tree the cold read took from the cache.
    bool children_by_index = false;
    // Chromium's GetActions names nothing (its localized names are empty; Action.GetName has the
    // names, asked for the rows a view returns): a node the outline holds takes its actions' count
    // from it (Action.NActions), unnamed, instead of a GetActions.
    bool action_count_only = false;
};

class TreeWalk {
public:
    TreeWalk(AtspiBus&, const nd_core::ReadLimits&, Deadline, std::shared_ptr<const ItemCache>, WalkOptions = {});
    ~TreeWalk();
    TreeWalk(const TreeWalk&) = delete;
    TreeWalk& operator=(const TreeWalk&) = delete;

    nd_core::Result<nd_core::RawTree> read(const ObjectRef& root);
    // Before read(): the outline of the subtree read, or of part of it (a page the app's cache
    // lacks): its nodes' names, descriptions, child counts and children are taken from it.
    void use_outline(std::shared_ptr<const Outline> outline) { m_outline = std::move(outline); }
    // The facts of each object alone (no children), all in one batch, as read() would give them;
    // nullopt for one that is gone. Options as for a part of a window.
    nd_core::Result<std::vector<std::optional<nd_core::Element>>> read_each(const std::vector<ObjectRef>&);
    const WalkStats& stats() const { return m_stats; }
    // What the read derived from the window's root (GTK 4): visible stands for showing.
    bool visible_means_showing() const { return m_visible_means_showing; }

    // The child of a container that manages its descendants which last had the focus (a sheet's
    // cursor cell), by the container's key: read with the visible part while it still says
    // focused, also when scrolled out of view, so that the active child is always in the read.
    using FocusedChildren = std::unordered_map<std::string, std::string>; // container key -> child key
    void remember_focus_in(const FocusedChildren* known) { m_focused_known = known; }
    // After read(): the focused child of each such container the read holds.
    FocusedChildren focused_children() const;

private:
    struct Node;
    // The walk reads at most this many times max_elements nodes (see add_node).
    static constexpr std::int64_t EXPLORED_PER_ELEMENT = 3;
    int add_node(const ObjectRef&, int parent, std::int32_t depth, std::size_t sibling = 0);
    // How many nodes the walk holds at depths above `depth`.
    std::int64_t above(std::int32_t depth) const;
    void start(int index);     // queues the node; the first caller starts the queue in order
    void start_now(int index);
    void fetch_facts(int index);
    void facts_arrived(int index);
    void fetch_children(int index);
    void fetch_children_by_index(int index); // children_by_index
    // `visible_part`: the children are the visible part of a container that manages them.
    void add_children(int index, const std::vector<ObjectRef>&, bool visible_part = false);
    void fetch_value(int index);
    nd_core::RawTree build() const;
    nd_core::Element element_of(const Node&) const;
    // Whether a child of `parent` given a position is keyed by it (positional_label_panels).
    bool positional_in(const Node& parent) const;

    nd_core::ReadLimits m_limits;
    WalkOptions m_options;
    std::shared_ptr<const ItemCache> m_cache;
    std::shared_ptr<const Outline> m_outline;
    AtspiBatch m_batch;
    std::vector<std::unique_ptr<Node>> m_nodes;
    std::unordered_set<ObjectRef, ObjectRefHash> m_seen;
    bool showing(const AtspiStates& s) const
    {
        return s.has(ATSPI_STATE_SHOWING) || (m_visible_means_showing && s.has(ATSPI_STATE_VISIBLE));
    }

    // After the visible part of container `index`: its remembered focused child, when the part
    // lacks it and it still says focused.
    void add_focused_child(int index, const std::vector<std::string>& part_keys);

    const FocusedChildren* m_focused_known = nullptr;
    bool m_truncated = false;
    std::vector<std::int64_t> m_levels; // nodes held at each depth (not for read_each)
    std::deque<int> m_to_start;
    std::vector<int> m_deferred; // found where the budget may end (add_node)
    // Once every node started has been read: reads the waiting nodes of the shallowest level
    // that fall within the budget breadth-first, drops the others (and, when it drops any, every
    // deeper one); true when there is more to read.
    bool resolve_deferred();
    // The nodes down to `to_depth` breadth-first: level by level, each level in its parents'
    // order; gone and dropped nodes are left out with what lies below them.
    std::vector<int> breadth_first(std::int32_t to_depth) const;
    bool m_starting = false;
    bool m_visible_means_showing = false;
    bool m_facts_only = false; // read_each: no children
    WalkStats m_stats;
};

// Adds the ask for `ref`'s place on the screen (GetExtents) to `batch`; a frame with an area
// goes into `e` (frame, has_frame), anything else leaves its frame as it was; empty_frame says
// whether the app answered a place with no area.
void add_extents(AtspiBatch&, const ObjectRef& ref, nd_core::Element& e);
// Adds the asks for the names of `e`'s actions that GetActions left empty (Chromium's) and marks
// them asked (Element::action_names_asked); the names go into `e`. Returns how many were added.
// Only the first `count` actions are named (all by default).
std::size_t name_actions(AtspiBatch&, const ObjectRef& ref, nd_core::Element& e,
                         std::size_t count = static_cast<std::size_t>(-1));

// Chromium names an object's first action by what it does by default (`press`, `check`, `jump`,
// `clickAncestor`, `doDefault`) and the others by what else it supports, in a fixed order
// (`showContextMenu`, then a scrollable's six scrolls): objects of one role with as many actions
// name them alike past the first. So the first is asked of every row, the others of the first row
// of each role and count only, and the rows after it take that row's (the names asked "once per
// role"). Pointers to the rows are kept until fill(), after the batch.
class AlikeActionNames {
public:
    std::size_t add(AtspiBatch&, const ObjectRef& ref, nd_core::Element& e);
    void fill();

private:
    std::map<std::pair<std::string, std::size_t>, nd_core::Element*> m_first;
    std::vector<std::pair<nd_core::Element*, nd_core::Element*>> m_followers; // row, its role's first
};

} // namespace nd_linux
