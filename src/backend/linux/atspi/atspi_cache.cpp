#include "backend/linux/atspi/atspi_cache.h"

#include <algorithm>
#include <cstring>

namespace nd_linux {

namespace {

constexpr const char* ITEMS_SIGNATURE = "a((so)(so)(so)iiassusau)";
constexpr const char* ITEM_SIGNATURE = "((so)(so)(so)iiassusau)"; // an array's element
constexpr const char* ITEM_FIELDS = "(so)(so)(so)iiassusau";      // inside one element

int read_item(sd_bus_message* m, ObjectRef& self, CachedItem& item)
{
    ObjectRef app;
    int r = read_ref(m, self);
    if (r >= 0)
        r = read_ref(m, app);
    if (r >= 0)
        r = read_ref(m, item.parent);
    if (r >= 0)
        r = sd_bus_message_read(m, "ii", &item.index, &item.child_count);
    if (r >= 0)
        r = read_interfaces(m, item.interfaces);
    if (r >= 0)
        r = read_string(m, item.name);
    if (r >= 0)
        r = sd_bus_message_read_basic(m, 'u', &item.role);
    if (r >= 0)
        r = read_string(m, item.description);
    if (r >= 0)
        r = read_states(m, item.states);
    return r;
}

} // namespace

bool ItemCache::parse(sd_bus_message* reply)
{
    m_items.clear();
    m_children.clear();
    m_managing.clear();
    const char* signature = sd_bus_message_get_signature(reply, 1);
    if (signature == nullptr || std::strcmp(signature, ITEMS_SIGNATURE) != 0)
        return false;
    if (sd_bus_message_enter_container(reply, SD_BUS_TYPE_ARRAY, ITEM_SIGNATURE) < 0)
        return false;
    // Parents in app order, so children with unknown indexes keep the app's order.
    std::vector<std::pair<ObjectRef, ObjectRef>> links;
    for (;;) {
        int r = sd_bus_message_enter_container(reply, SD_BUS_TYPE_STRUCT, ITEM_FIELDS);
        if (r < 0)
            return false;
        if (r == 0)
            break;
        ObjectRef self;
        CachedItem item;
        if (read_item(reply, self, item) < 0 || sd_bus_message_exit_container(reply) < 0)
            return false;
        // A defunct object is out of the tree, though the bridge holds it until it is freed: Gecko's
        // first document of a new tab, replaced by the page, stays its frame's one cached child for
        // a second or two, where GetChildren already lists the page. It is not held here, so that
        // neither the walk nor the choice of an outline takes it for part of the window.
        if (item.states.has(ATSPI_STATE_DEFUNCT))
            continue;
        ObjectRef parent = item.parent;
        if (item.states.has(ATSPI_STATE_MANAGES_DESCENDANTS) && m_managing.size() < 256)
            m_managing.push_back(self);
        auto [it, inserted] = m_items.try_emplace(self, std::move(item));
        if (inserted && !parent.null() && parent != self)
            links.emplace_back(std::move(parent), std::move(self));
    }
    sd_bus_message_exit_container(reply);
    for (auto& [parent, child] : links)
        m_children[parent].push_back(child);
    for (auto& [parent, kids] : m_children) {
        std::stable_sort(kids.begin(), kids.end(), [this](const ObjectRef& a, const ObjectRef& b) {
            auto ia = static_cast<std::uint32_t>(m_items.at(a).index); // -1 sorts last
            auto ib = static_cast<std::uint32_t>(m_items.at(b).index);
            return ia < ib;
        });
    }
    return true;
}

const CachedItem* ItemCache::find(const ObjectRef& ref) const
{
    auto it = m_items.find(ref);
    return it == m_items.end() ? nullptr : &it->second;
}

bool ItemCache::holds_below(const ObjectRef& top, std::uint32_t role, std::uint32_t state) const
{
    // Parent links may loop in a broken app: a chain is followed no further than the cache is big.
    for (const auto& [ref, item] : m_items) {
        if (item.role != role || !item.states.has(state))
            continue;
        const CachedItem* at = &item;
        for (std::size_t steps = 0; at != nullptr && steps < m_items.size(); ++steps) {
            if (at->parent == top)
                return true;
            at = find(at->parent);
        }
    }
    return false;
}

const std::vector<ObjectRef>* ItemCache::children(const ObjectRef& parent) const
{
    auto it = m_children.find(parent);
    return it == m_children.end() ? nullptr : &it->second;
}

} // namespace nd_linux
