// TreeWalk's budget (atspi_walker.h): a read keeps the window's first max_elements nodes
// breadth-first, whatever order the replies came in (docs/linux-atspi.md, "Limits and deadlines").

#include "backend/linux/atspi/atspi_walker.h"

#include "backend/linux/atspi/atspi_walker_node.h"

#include <algorithm>
#include <limits>

namespace nd_linux {

std::int64_t TreeWalk::above(std::int32_t depth) const
{
    std::int64_t n = 0;
    for (std::size_t level = 0; level < m_levels.size() && static_cast<std::int32_t>(level) < depth; ++level)
        n += m_levels[level];
    return n;
}

std::vector<int> TreeWalk::breadth_first(std::int32_t to_depth) const
{
    // Level by level, each level in its parents' order and each parent's children in theirs;
    // what went away or was dropped leaves with everything below it.
    std::vector<int> order;
    if (m_nodes.empty() || m_nodes.front()->gone)
        return order;
    std::vector<int> level{0};
    std::vector<int> next;
    for (std::int32_t depth = 0; depth <= to_depth && !level.empty(); ++depth, level.swap(next)) {
        next.clear();
        for (int at : level) {
            order.push_back(at);
            if (depth < to_depth)
                for (int child : m_nodes[static_cast<std::size_t>(at)]->children) {
                    const Node& c = *m_nodes[static_cast<std::size_t>(child)];
                    if (!c.gone && !c.dropped)
                        next.push_back(child);
                }
        }
    }
    return order;
}

bool TreeWalk::resolve_deferred()
{
    if (m_deferred.empty())
        return false;
    // Every node started has been read: the levels above the shallowest waiting node are whole,
    // and so is its level. Its nodes' places breadth-first are known now.
    std::int32_t shallowest = std::numeric_limits<std::int32_t>::max();
    for (int at : m_deferred)
        shallowest = std::min(shallowest, m_nodes[static_cast<std::size_t>(at)]->depth);
    std::vector<std::int64_t> place(m_nodes.size(), -1);
    const auto order = breadth_first(shallowest);
    for (std::size_t i = 0; i < order.size(); ++i)
        place[static_cast<std::size_t>(order[i])] = static_cast<std::int64_t>(i);
    const auto budget = static_cast<std::int64_t>(m_limits.max_elements);
    bool dropped = false;
    std::vector<int> started;
    std::vector<int> still;
    for (int at : m_deferred) {
        Node& n = *m_nodes[static_cast<std::size_t>(at)];
        if (n.depth != shallowest) {
            still.push_back(at);
        } else if (place[static_cast<std::size_t>(at)] >= 0 && place[static_cast<std::size_t>(at)] < budget) {
            n.deferred = false;
            started.push_back(at);
        } else {
            n.dropped = true;
            dropped = true;
        }
    }
    // A level the budget ends in leaves no room below it.
    if (dropped) {
        m_truncated = true;
        for (int at : still)
            m_nodes[static_cast<std::size_t>(at)]->dropped = true;
        still.clear();
    }
    m_deferred = std::move(still);
    for (int at : started)
        start(at);
    return !started.empty() || !m_deferred.empty();
}

nd_core::RawTree TreeWalk::build() const
{
    nd_core::RawTree tree;
    tree.truncated = m_truncated;
    // The first max_elements nodes breadth-first: level by level, each level in its parents'
    // order and each parent's children in theirs. Replies come back in any order (an app's calls
    // spread over several connections, AtspiBus::route), so the walk may hold more; what it keeps
    // does not depend on that order.
    std::vector<char> keep(m_nodes.size(), 0);
    std::vector<char> cut(m_nodes.size(), 0);
    const auto order = breadth_first(std::numeric_limits<std::int32_t>::max());
    const auto kept = std::min<std::size_t>(order.size(), static_cast<std::size_t>(std::max(m_limits.max_elements, 0)));
    for (std::size_t i = 0; i < kept; ++i)
        keep[static_cast<std::size_t>(order[i])] = 1;
    for (std::size_t i = 0; i < kept; ++i)
        for (int child : m_nodes[static_cast<std::size_t>(order[i])]->children)
            if (!m_nodes[static_cast<std::size_t>(child)]->gone && !keep[static_cast<std::size_t>(child)]) {
                cut[static_cast<std::size_t>(order[i])] = 1;
                tree.truncated = true;
            }
    tree.elements.reserve(m_nodes.size());
    // Iterative preorder; the stack holds (node, parent's element index).
    std::vector<std::pair<int, std::int32_t>> stack{{0, -1}};
    while (!stack.empty()) {
        auto [index, parent] = stack.back();
        stack.pop_back();
        const Node& n = *m_nodes[static_cast<std::size_t>(index)];
        if (n.gone || !keep[static_cast<std::size_t>(index)])
            continue;
        nd_core::Element e = element_of(n);
        e.children_cut = e.children_cut || cut[static_cast<std::size_t>(index)];
        e.parent = parent;
        e.depth = parent < 0 ? 0 : tree.elements[static_cast<std::size_t>(parent)].depth + 1;
        auto self = static_cast<std::int32_t>(tree.elements.size());
        if (parent >= 0)
            ++tree.elements[static_cast<std::size_t>(parent)].child_count;
        tree.elements.push_back(std::move(e));
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it)
            stack.emplace_back(*it, self);
    }
    return tree;
}

} // namespace nd_linux
