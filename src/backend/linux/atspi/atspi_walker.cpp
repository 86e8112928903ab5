#include "backend/linux/atspi/atspi_walker.h"

#include "backend/linux/atspi/atspi_names.h"
#include "backend/linux/atspi/atspi_walker_node.h"
#include "backend/linux/atspi/atspi_visible_part.h"

#include <algorithm>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

int append_u(sd_bus_message* m, std::uint32_t u) { return sd_bus_message_append(m, "u", u); }

// An outline's action count taken as is, up to this many (Chromium has eight at most).
constexpr std::int32_t MAX_ACTIONS = 64;

// Gecko keeps a paragraph's or a status line's text in the object itself (Text), where Chromium
// and GTK add a named static text child: a nameless leaf with Text would read as an empty row, so
// its text is read as its value. Leaves only: a container's text mixes its children in (U+FFFC).
template <typename Node> bool text_leaf(const Node& n) { return n.props.child_count == 0 && n.props.name.empty(); }

} // namespace

TreeWalk::TreeWalk(AtspiBus& bus, const nd_core::ReadLimits& limits, Deadline deadline,
                   std::shared_ptr<const ItemCache> cache, WalkOptions options)
    : m_limits(limits), m_options(options), m_cache(std::move(cache)), m_batch(bus, deadline)
{
    if (m_options.visible_means_showing >= 0)
        m_visible_means_showing = m_options.visible_means_showing > 0;
}

TreeWalk::~TreeWalk() = default;

int TreeWalk::add_node(const ObjectRef& ref, int parent, std::int32_t depth, std::size_t sibling)
{
    // A read keeps the first max_elements nodes breadth-first, whatever order the replies come in
    // (build()). A node past the levels above it and its elder siblings, as far as they are known,
    // is past the end: not kept. One found where the known nodes of its level and those above
    // outnumber the budget may be past it: it waits (deferred) until the levels above are whole,
    // and is then read or dropped by its place (resolve_deferred). The walk reads at most
    // EXPLORED_PER_ELEMENT times the budget in all (a page whose every level is wide).
    const auto budget = static_cast<std::int64_t>(m_limits.max_elements);
    const bool full = m_facts_only ? static_cast<std::int64_t>(m_nodes.size()) >= budget
                                   : above(depth) + static_cast<std::int64_t>(sibling) >= budget ||
                                         static_cast<std::int64_t>(m_nodes.size()) >= budget * EXPLORED_PER_ELEMENT;
    if (full) {
        m_truncated = true;
        return -1;
    }
    bool deferred = false;
    if (!m_facts_only) {
        if (m_levels.size() <= static_cast<std::size_t>(depth))
            m_levels.resize(static_cast<std::size_t>(depth) + 1, 0);
        ++m_levels[static_cast<std::size_t>(depth)];
        deferred = parent >= 0 && above(depth + 1) > budget;
    }
    auto node = std::make_unique<Node>();
    node->deferred = deferred;
    node->ref = ref;
    node->parent = parent;
    node->depth = depth;
    node->secure = parent >= 0 ? m_nodes[static_cast<std::size_t>(parent)]->secure : m_options.inside_secure;
    m_nodes.push_back(std::move(node));
    m_seen.insert(ref);
    return static_cast<int>(m_nodes.size() - 1);
}

void TreeWalk::start(int index)
{
    // Nodes start in the order they were found, one after the other: a node whose facts and
    // children the app's cache holds would otherwise start its children from inside its own
    // start, depth first, and fill the budget's levels from the bottom (add_node).
    m_to_start.push_back(index);
    if (m_starting)
        return;
    m_starting = true;
    struct Reset {
        bool& flag;
        ~Reset() { flag = false; }
    } reset{m_starting};
    while (!m_to_start.empty()) {
        const int next = m_to_start.front();
        m_to_start.pop_front();
        start_now(next);
    }
}

void TreeWalk::start_now(int index)
{
    Node& n = *m_nodes[static_cast<std::size_t>(index)];
    const CachedItem* item = m_cache ? m_cache->find(n.ref) : nullptr;
    if (item == nullptr) {
        // A whole outline gives what GetAll would: name, description and child count.
        if (const OutlineItem* line =
                m_outline && m_outline->kind() == OutlineKind::whole ? m_outline->find(n.ref) : nullptr) {
            ++m_stats.from_outline;
            n.outlined = line;
            n.props = line->props;
            n.interfaces = line->interfaces;
        }
        fetch_facts(index);
        return;
    }
    ++m_stats.from_cache;
    n.cached = item;
    n.role = item->role;
    n.states = item->states;
    n.interfaces = item->interfaces;
    n.props.name = item->name;
    n.props.description = item->description;
    n.props.child_count = item->child_count;
    facts_arrived(index);
}

void TreeWalk::fetch_facts(int index)
{
    Node& n = *m_nodes[static_cast<std::size_t>(index)];
    n.pending_facts = n.outlined ? 2 : m_options.property_gets ? 6 : 4;
    // Each fact's handler marks the node gone on a vanished object and counts down; the last
    // one to arrive lets the node's follow-ups go out.
    auto fact = [this, index](auto&& read) {
        return [this, index, read](const Reply& r) {
            Node& node = *m_nodes[static_cast<std::size_t>(index)];
            if (r.ok())
                (void)read(node, r.message);
            else if (dbus_error_is_gone(r.error))
                node.gone = true;
            if (--node.pending_facts == 0)
                facts_arrived(index);
        };
    };
    const std::string& bus = n.ref.bus;
    const std::string& path = n.ref.path;
    m_batch.add({bus, path, IFACE_ACCESSIBLE, "GetRole"}, {},
                fact([](Node& node, sd_bus_message* m) { return sd_bus_message_read_basic(m, 'u', &node.role); }));
    m_batch.add({bus, path, IFACE_ACCESSIBLE, "GetState"}, {},
                fact([](Node& node, sd_bus_message* m) { return read_states(m, node.states); }));
    if (n.outlined)
        return; // the rest is in the outline
    m_batch.add({bus, path, IFACE_ACCESSIBLE, "GetInterfaces"}, {},
                fact([](Node& node, sd_bus_message* m) { return read_interfaces(m, node.interfaces); }));
    if (!m_options.property_gets) {
        m_batch.add({bus, path, IFACE_PROPERTIES, "GetAll"},
                    [](sd_bus_message* m) { return sd_bus_message_append(m, "s", IFACE_ACCESSIBLE); },
                    fact([](Node& node, sd_bus_message* m) { return read_accessible_props(m, node.props); }));
        return;
    }
    m_batch.add({bus, path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "Name"),
                fact([](Node& node, sd_bus_message* m) { return read_string_variant(m, node.props.name); }));
    m_batch.add({bus, path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "Description"),
                fact([](Node& node, sd_bus_message* m) { return read_string_variant(m, node.props.description); }));
    m_batch.add({bus, path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "ChildCount"),
                fact([](Node& node, sd_bus_message* m) { return sd_bus_message_read(m, "v", "i", &node.props.child_count); }));
}

void TreeWalk::facts_arrived(int index)
{
    Node& n = *m_nodes[static_cast<std::size_t>(index)];
    if (n.gone || n.states.has(ATSPI_STATE_DEFUNCT)) {
        n.gone = true;
        return;
    }
    n.secure = n.secure || is_secure_role(n.role);
    // A window root that is visible but not showing says the toolkit marks only visible (GTK 4
    // windows have read so; the reader knows GTK 4 by its name too, atspi_toolkit.h), and then
    // visible stands for showing in the whole read.
    if (index == 0 && m_options.visible_means_showing < 0 && n.states.has(ATSPI_STATE_VISIBLE) &&
        !n.states.has(ATSPI_STATE_SHOWING))
        m_visible_means_showing = true;

    // Extents cost GTK3 an X round trip each (about 80 µs against 20 µs for GetRole), and what
    // is not showing reports no real place (GTK3 says -2147483648), so by default only showing
    // objects are asked. A secure field is asked whatever it says: a toolkit that does not mark
    // what shows (GTK 4 did not) must not leave one out of a screenshot's blackout.
    const bool frame_now = !m_options.deferred_frames || (index == 0 && !m_facts_only) || n.secure;
    const bool framed = (n.interfaces & IF_COMPONENT) && (m_options.hidden_extents || showing(n.states) || n.secure);
    // Where actions are counted, not named (Chromium), an outline's count stands for GetActions.
    const bool counts_actions = (n.interfaces & IF_ACTION) && m_options.action_count_only;
    // The node's item in the outline, for a node of the item cache too (whole or of action counts alone).
    const OutlineItem* line =
        (framed || counts_actions) && m_outline ? (n.outlined ? n.outlined : m_outline->find(n.ref)) : nullptr;
    // An outline answered every object's place already: it is taken whether frames are deferred
    // or not, and saves the views their GetExtents calls.
    if (framed && line && line->extents) {
        n.frame = *line->extents;
        const auto place = answered_place(n.frame);
        n.has_frame = place.has_area;
        n.empty_frame = place.empty;
    } else if (framed && !frame_now) {
        ++m_stats.frames_left;
    } else if (framed)
        m_batch.add({n.ref.bus, n.ref.path, IFACE_COMPONENT, "GetExtents"},
                    [](sd_bus_message* m) { return append_u(m, COORD_SCREEN); },
                    [this, index](const Reply& r) {
                        Node& node = *m_nodes[static_cast<std::size_t>(index)];
                        const auto place = read_place(r, node.frame);
                        node.has_frame = place.has_area;
                        node.empty_frame = place.empty;
                    });

    // An unnamed landmark reads as what it is: its ARIA kind (xml-roles), and a heading says its
    // level (a page's outline, docs/tokens.md): one call for a few rows.
    const auto role = atspi_role_name(n.role);
    if (n.props.name.empty() && (role == "landmark" || role == "form"))
        m_batch.add({n.ref.bus, n.ref.path, IFACE_ACCESSIBLE, "GetAttributes"}, {}, [this, index](const Reply& r) {
            std::string kind;
            if (r.ok() && read_attribute(r.message, "xml-roles", kind) >= 0)
                m_nodes[static_cast<std::size_t>(index)]->landmark = cut_utf8(kind, 64);
        });
    else if (role == "heading")
        m_batch.add({n.ref.bus, n.ref.path, IFACE_ACCESSIBLE, "GetAttributes"}, {}, [this, index](const Reply& r) {
            std::string level;
            if (r.ok() && read_attribute(r.message, "level", level) >= 0)
                m_nodes[static_cast<std::size_t>(index)]->level = heading_level(level);
        });
    const OutlineItem* counted = counts_actions ? line : nullptr;
    if (counted && (counted->interfaces & IF_ACTION))
        n.actions.assign(static_cast<std::size_t>(std::clamp(counted->actions, 0, MAX_ACTIONS)), std::string());
    else if (n.interfaces & IF_ACTION)
        m_batch.add({n.ref.bus, n.ref.path, IFACE_ACTION, "GetActions"}, {}, [this, index](const Reply& r) {
            if (r.ok())
                (void)read_action_names(r.message, m_nodes[static_cast<std::size_t>(index)]->actions);
        });
    // The outline cannot tell Value (atspi_outline.h): a value role's own interfaces decide.
    if (n.outlined && is_value_role(n.role) && !n.secure)
        m_batch.add({n.ref.bus, n.ref.path, IFACE_ACCESSIBLE, "GetInterfaces"}, {}, [this, index](const Reply& r) {
            Node& node = *m_nodes[static_cast<std::size_t>(index)];
            if (r.ok() && read_interfaces(r.message, node.interfaces) >= 0)
                fetch_value(index);
        });
    else
        fetch_value(index);

    if (m_facts_only)
        return; // read_each: the object's own facts, no children
    // The cache says -1 children for a container that manages its descendants: its real count
    // decides whether it may be enumerated (a GTK3 tree view's dozens of cells) or not (a Calc
    // sheet's 2^31-1).
    if (n.states.has(ATSPI_STATE_MANAGES_DESCENDANTS) && n.props.child_count < 0) {
        m_batch.add({n.ref.bus, n.ref.path, IFACE_PROPERTIES, "Get"},
                    get_property(IFACE_ACCESSIBLE, "ChildCount"),
                    [this, index](const Reply& r) {
                        Node& node = *m_nodes[static_cast<std::size_t>(index)];
                        if (r.ok())
                            (void)sd_bus_message_read(r.message, "v", "i", &node.props.child_count);
                        else if (dbus_error_is_gone(r.error))
                            node.gone = true;
                        if (!node.gone)
                            fetch_children(index);
                    });
        return;
    }
    fetch_children(index);
}

void TreeWalk::fetch_children(int index)
{
    Node& n = *m_nodes[static_cast<std::size_t>(index)];
    // A container that makes its children on demand (a Calc sheet reports 2^31-1) is never
    // enumerated, not even through the cache: only the part on screen is read
    // (atspi_visible_part.h). Qt's and Java's item views make theirs anew at each ask without
    // saying so: past the same count they are read the same way (a Swing table of 2,000 rows,
    // 6,000 cells at about 0.3 ms a call, could not be read whole within a read's deadline).
    const bool managed = too_many_to_enumerate(n.states, n.props.child_count) ||
                         (m_options.positional_item_views && is_item_view_role(n.role) &&
                          n.props.child_count > MAX_MANAGED_ENUMERATED);
    if (managed)
        n.managed.on = true;
    if (n.props.child_count == 0)
        return;
    if (n.depth + 1 > m_limits.max_depth) {
        m_truncated = true;
        n.cut = true;
        return;
    }
    if (managed) {
        if (showing(n.states))
            read_visible_part(m_batch, n.ref, n.interfaces, [this, index](VisiblePart part) {
                Node& node = *m_nodes[static_cast<std::size_t>(index)];
                node.managed = part.managed;
                const auto first = node.children.size();
                add_children(index, part.children, true);
                // add_children skips duplicates: match keys by reference.
                for (std::size_t k = first; k < node.children.size(); ++k) {
                    Node& child = *m_nodes[static_cast<std::size_t>(node.children[k])];
                    auto it = std::find(part.children.begin(), part.children.end(), child.ref);
                    if (it != part.children.end())
                        child.stable_key = part.keys[static_cast<std::size_t>(it - part.children.begin())];
                }
                add_focused_child(index, part.keys);
            });
        return;
    }
    if (n.cached) {
        const auto* kids = m_cache->children(n.ref);
        std::size_t have = kids ? kids->size() : 0;
        if (n.props.child_count > 0 && have == static_cast<std::size_t>(n.props.child_count)) {
            add_children(index, *kids);
            return;
        }
    }
    if (n.outlined && n.outlined->children.size() == static_cast<std::size_t>(n.props.child_count)) {
        add_children(index, n.outlined->children);
        return;
    }
    if (m_options.children_by_index) {
        fetch_children_by_index(index);
        return;
    }
    m_batch.add({n.ref.bus, n.ref.path, IFACE_ACCESSIBLE, "GetChildren"}, {}, [this, index](const Reply& r) {
        if (!r.ok()) {
            if (dbus_error_is_gone(r.error))
                m_nodes[static_cast<std::size_t>(index)]->gone = true;
            return;
        }
        std::vector<ObjectRef> kids;
        if (read_refs(r.message, kids) >= 0)
            add_children(index, kids);
    });
}

void TreeWalk::fetch_children_by_index(int index)
{
    const Node& n = *m_nodes[static_cast<std::size_t>(index)];
    // No more than the budget could still take: add_children stops there anyway.
    const auto budget = static_cast<std::int64_t>(m_limits.max_elements);
    const auto room = std::max<std::int64_t>(1, budget - above(n.depth + 1));
    const auto count = static_cast<std::size_t>(std::clamp<std::int64_t>(n.props.child_count, 0, room));
    struct Asked {
        std::vector<ObjectRef> kids;
        std::size_t left = 0;
        bool gone = false;
    };
    auto asked = std::make_shared<Asked>();
    asked->kids.resize(count);
    asked->left = count;
    for (std::size_t i = 0; i < count; ++i)
        m_batch.add({n.ref.bus, n.ref.path, IFACE_ACCESSIBLE, "GetChildAtIndex"},
                    [i](sd_bus_message* m) { return sd_bus_message_append(m, "i", static_cast<std::int32_t>(i)); },
                    [this, index, i, asked](const Reply& r) {
                        if (r.ok())
                            (void)read_ref(r.message, asked->kids[i]);
                        else if (dbus_error_is_gone(r.error))
                            asked->gone = true;
                        if (--asked->left > 0)
                            return;
                        if (asked->gone) {
                            m_nodes[static_cast<std::size_t>(index)]->gone = true;
                            return;
                        }
                        // A child that went between the count and its ask answers nothing: skipped.
                        add_children(index, asked->kids);
                    });
}

void TreeWalk::add_focused_child(int index, const std::vector<std::string>& part_keys)
{
    if (!m_focused_known)
        return;
    const auto known = m_focused_known->find(m_nodes[static_cast<std::size_t>(index)]->ref.key());
    if (known == m_focused_known->end() ||
        std::find(part_keys.begin(), part_keys.end(), known->second) != part_keys.end())
        return;
    const auto key = parse_child_key(known->second);
    if (!key)
        return;
    fetch_child(m_batch, *key, [this, index, stable = known->second](ObjectRef live) {
        if (live.null())
            return;
        m_batch.add({live.bus, live.path, IFACE_ACCESSIBLE, "GetState"}, {}, [this, index, live, stable](const Reply& r) {
            AtspiStates states;
            if (!r.ok() || read_states(r.message, states) < 0 || !states.has(ATSPI_STATE_FOCUSED))
                return;
            Node& node = *m_nodes[static_cast<std::size_t>(index)];
            const auto first = node.children.size();
            add_children(index, {live}, true);
            if (node.children.size() > first)
                m_nodes[static_cast<std::size_t>(node.children.back())]->stable_key = stable;
        });
    });
}

TreeWalk::FocusedChildren TreeWalk::focused_children() const
{
    FocusedChildren out;
    for (const auto& n : m_nodes)
        if (n->visible_child && !n->gone && !n->stable_key.empty() && n->parent >= 0 &&
            n->states.has(ATSPI_STATE_FOCUSED))
            out[m_nodes[static_cast<std::size_t>(n->parent)]->ref.key()] = n->stable_key;
    return out;
}

void TreeWalk::add_children(int index, const std::vector<ObjectRef>& kids, bool visible_part)
{
    std::int32_t depth = m_nodes[static_cast<std::size_t>(index)]->depth + 1;
    const auto role = m_nodes[static_cast<std::size_t>(index)]->role;
    const bool positional = m_options.positional_item_views && !visible_part &&
                            (is_item_view_role(role) || (m_options.positional_label_panels && is_panel_role(role)));
    for (std::size_t k = 0; k < kids.size(); ++k) {
        const auto& kid = kids[k];
        if (kid.null() || m_seen.count(kid))
            continue; // a cycle or a duplicate would make the preorder infinite
        int child = add_node(kid, index, depth, k);
        if (child < 0) {
            m_nodes[static_cast<std::size_t>(index)]->cut = true;
            return;
        }
        m_nodes[static_cast<std::size_t>(index)]->children.push_back(child);
        m_nodes[static_cast<std::size_t>(child)]->visible_child = visible_part;
        if (positional)
            m_nodes[static_cast<std::size_t>(child)]->position = static_cast<std::int32_t>(k);
        if (m_nodes[static_cast<std::size_t>(child)]->deferred)
            m_deferred.push_back(child);
        else
            start(child);
    }
}

void TreeWalk::fetch_value(int index)
{
    Node& n = *m_nodes[static_cast<std::size_t>(index)];
    // Secure nodes and everything inside them are never read: not the text, not the number.
    if (n.secure)
        return;
    auto store = [this, index](std::string value) {
        Node& node = *m_nodes[static_cast<std::size_t>(index)];
        if (!node.secure)
            node.value = std::move(value);
    };
    if (is_value_role(n.role) && (n.interfaces & IF_VALUE)) {
        m_batch.add({n.ref.bus, n.ref.path, IFACE_PROPERTIES, "Get"},
                    get_property(IFACE_VALUE, "CurrentValue"),
                    [store](const Reply& r) {
                        double v = 0;
                        if (r.ok() && read_variant_double(r.message, v) >= 0)
                            store(format_number(v));
                    });
    } else if ((n.interfaces & IF_TEXT) && (is_text_role(n.role) || text_leaf(n) || n.visible_child) &&
               (n.role != ATSPI_ROLE_PAGE || showing(n.states))) {
        // A document viewer's page that is not on screen is not asked for its text: Evince (GTK3,
        // 43) extracts a page's text when first asked and crashes (SIGSEGV in libevview3) when
        // the pages it has not rendered are asked in quick succession, as a read asks them.
        // A cell of a sheet or a row of a long list shows its content as text (a Calc cell's name
        // is its address, "A1"; its text what it shows).
        m_batch.add({n.ref.bus, n.ref.path, IFACE_TEXT, "GetText"},
                    [](sd_bus_message* m) { return sd_bus_message_append(m, "ii", 0, -1); },
                    [store](const Reply& r) {
                        std::string text;
                        if (r.ok() && read_string(r.message, text) >= 0)
                            store(std::move(text));
                    });
    }
}

nd_core::Result<nd_core::RawTree> TreeWalk::read(const ObjectRef& root)
{
    if (root.null())
        return make_error(ErrorCode::window_target_not_found, "the window has no AT-SPI object");
    add_node(root, -1, 0);
    start(0);
    for (;;) {
        auto ran = m_batch.run();
        m_stats.calls = m_batch.sent();
        if (!ran)
            return std::move(ran).error();
        if (!resolve_deferred())
            break;
    }
    if (m_nodes[0]->gone)
        return make_error(ErrorCode::window_target_not_found, "the window's AT-SPI object went away during the read");
    return build();
}

nd_core::Result<std::vector<std::optional<nd_core::Element>>> TreeWalk::read_each(const std::vector<ObjectRef>& refs)
{
    m_facts_only = true;
    std::vector<int> indices;
    for (const auto& ref : refs)
        indices.push_back(ref.null() || m_seen.count(ref) ? -1 : add_node(ref, -1, 0));
    for (int index : indices)
        if (index >= 0)
            start(index);
    auto ran = m_batch.run();
    m_stats.calls = m_batch.sent();
    if (!ran)
        return std::move(ran).error();
    std::vector<std::optional<nd_core::Element>> out;
    for (int index : indices) {
        if (index < 0 || m_nodes[static_cast<std::size_t>(index)]->gone)
            out.emplace_back();
        else
            out.emplace_back(element_of(*m_nodes[static_cast<std::size_t>(index)]));
    }
    return out;
}

bool TreeWalk::positional_in(const Node& parent) const
{
    // An item view's children always; a panel's only when they are all labels (a Java table
    // header's entries), so that a form's panel keeps its widgets by path.
    if (!is_panel_role(parent.role))
        return true;
    return std::all_of(parent.children.begin(), parent.children.end(),
                       [this](int child) { return is_label_role(m_nodes[static_cast<std::size_t>(child)]->role); });
}

nd_core::Element TreeWalk::element_of(const Node& n) const
{
    nd_core::Element e;
    e.role = std::string(atspi_role_name(n.role));
    e.name = n.props.name.empty() ? n.landmark : n.props.name;
    e.description = n.props.description;
    e.value = n.secure ? std::string() : n.value;
    e.states = map_states(n.role, n.states) | (n.secure ? nd_core::STATE_SECURE : 0u);
    e.level = n.level;
    if (showing(n.states))
        e.states |= nd_core::STATE_SHOWING;
    e.actions = n.actions;
    e.frame = n.frame;
    e.has_frame = n.has_frame;
    e.empty_frame = n.empty_frame;
    e.key = n.stable_key.empty() ? n.ref.key() : n.stable_key;
    if (n.position >= 0 && n.parent >= 0 && positional_in(*m_nodes[static_cast<std::size_t>(n.parent)]))
        e.key = positional_key(m_nodes[static_cast<std::size_t>(n.parent)]->ref, n.position, e.name);
    e.managed = n.managed;
    e.children_cut = n.cut;
    return e;
}

void add_extents(AtspiBatch& batch, const ObjectRef& ref, nd_core::Element& e)
{
    batch.add({ref.bus, ref.path, IFACE_COMPONENT, "GetExtents"},
              [](sd_bus_message* m) { return sd_bus_message_append(m, "u", COORD_SCREEN); },
              [&e](const Reply& r) {
                  nd_core::Frame f;
                  const auto place = read_place(r, f);
                  if (place.has_area) {
                      e.frame = f;
                      e.has_frame = true;
                  }
                  e.empty_frame = place.empty;
              });
}

// GetActions carries the localized names, which Chromium leaves empty; Action.GetName(i) has the
// real one ("press", "check", "jump"). Asked only for the rows a full view returns: a read of every
// element would pay one call per action (about 20 µs pipelined; a Chromium page has two a node).
// Once asked, the element says so (Element::action_names_asked): a name the app leaves empty in both
// (LibreOffice's menus) is not asked again at the next read. A batch that does not finish fails the
// view, whose copy of the rows is then dropped.
std::size_t name_actions(AtspiBatch& batch, const ObjectRef& ref, nd_core::Element& e, std::size_t count)
{
    std::size_t asked = 0;
    e.action_names_asked = true;
    for (std::size_t i = 0; i < std::min(count, e.actions.size()); ++i) {
        if (!e.actions[i].empty())
            continue;
        const auto at = static_cast<std::int32_t>(i);
        batch.add({ref.bus, ref.path, IFACE_ACTION, "GetName"},
                  [at](sd_bus_message* m) { return sd_bus_message_append(m, "i", at); },
                  [&e, i](const Reply& r) {
                      std::string name;
                      // An error is an answer too (an index the app does not serve): the name stays empty.
                      if (r.ok() && read_string(r.message, name) >= 0 && i < e.actions.size())
                          e.actions[i] = cut_utf8(name, 256);
                  });
        ++asked;
    }
    return asked;
}

std::size_t AlikeActionNames::add(AtspiBatch& batch, const ObjectRef& ref, nd_core::Element& e)
{
    if (e.actions.size() < 2)
        return name_actions(batch, ref, e);
    auto [first, inserted] = m_first.try_emplace({e.role, e.actions.size()}, &e);
    if (inserted)
        return name_actions(batch, ref, e);
    m_followers.emplace_back(&e, first->second);
    return name_actions(batch, ref, e, 1);
}

void AlikeActionNames::fill()
{
    for (auto [e, first] : m_followers)
        for (std::size_t i = 1; i < e->actions.size() && i < first->actions.size(); ++i)
            if (e->actions[i].empty())
                e->actions[i] = first->actions[i];
    m_followers.clear();
    m_first.clear();
}

} // namespace nd_linux
