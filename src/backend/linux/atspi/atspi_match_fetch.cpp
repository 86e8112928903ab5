#include "backend/linux/atspi/atspi_match_fetch.h"

#include "backend/linux/atspi/atspi_names.h"

#include <unordered_set>

namespace nd_linux {

struct MatchFetch::Candidate {
    ObjectRef ref;
    const CachedItem* cached = nullptr;
    bool is_root = false;
    bool name_known = false; // decided on: its name is in, or the query names no fragment
    bool accepted = false;
    bool gone = false;

    std::string name;
    std::uint32_t role = 0;
    AtspiStates states;
    nd_core::Frame frame;
    bool has_frame = false;
    std::vector<std::string> actions;
};


MatchFetch::MatchFetch(AtspiBus& bus, Deadline deadline, std::shared_ptr<const ItemCache> cache,
                       const nd_core::FindQuery& query, std::optional<std::uint32_t> role, const TopLevel& root)
    : m_batch(bus, deadline), m_cache(std::move(cache)), m_query(query), m_role(role), m_root(root)
{
    // GTK 4 marks nothing showing, only visible; the walker reads a frame that is visible but not
    // showing the same way.
    m_visible_means_showing = root.states.has(ATSPI_STATE_VISIBLE) && !root.states.has(ATSPI_STATE_SHOWING);
}

MatchFetch::~MatchFetch() = default;

nd_core::Result<nd_core::FindResult> MatchFetch::run(const std::vector<ObjectRef>& matches, bool capped)
{
    // GetMatches never names the object it was asked on; a read lists the frame first, so a
    // search does too when the frame fits. Its facts came with the locator.
    if (!m_role || *m_role == m_root.role) {
        auto root = std::make_unique<Candidate>();
        root->ref = m_root.ref;
        root->is_root = true;
        root->name_known = true;
        root->name = m_root.name;
        root->role = m_root.role;
        root->states = m_root.states;
        root->frame = m_root.frame;
        root->has_frame = m_root.has_frame;
        m_candidates.push_back(std::move(root));
    }
    std::unordered_set<ObjectRef, ObjectRefHash> seen{m_root.ref};
    for (const auto& ref : matches) {
        if (ref.null() || !seen.insert(ref).second)
            continue;
        auto c = std::make_unique<Candidate>();
        c->ref = ref;
        c->cached = m_cache ? m_cache->find(ref) : nullptr;
        m_from_cache += c->cached != nullptr;
        // Without a fragment every candidate fits by name; names come with the other facts.
        c->name_known = m_query.name.empty();
        m_candidates.push_back(std::move(c));
    }

    pump_names();
    TRY_VOID(m_batch.run());

    nd_core::FindResult result;
    result.truncated = m_done || capped;
    for (const auto& c : m_candidates) {
        if (!c->accepted || c->gone)
            continue;
        nd_core::Element e;
        e.role = std::string(atspi_role_name(c->role));
        e.name = c->name;
        e.states = map_states(c->role, c->states);
        bool shows = showing(c->states);
        if (shows)
            e.states |= nd_core::STATE_SHOWING;
        if (shows && c->has_frame) {
            e.frame = c->frame;
            e.has_frame = true;
        }
        e.actions = c->actions;
        e.key = c->ref.key();
        result.elements.push_back(std::move(e));
    }
    return result;
}

void MatchFetch::pump_names()
{
    while (!m_done && m_names_in_flight < NAME_WINDOW && m_next_name < m_candidates.size()) {
        std::size_t index = m_next_name++;
        Candidate& c = at(index);
        if (c.name_known)
            continue;
        if (c.cached) {
            c.name = c.cached->name;
            c.name_known = true;
            continue;
        }
        ++m_names_in_flight;
        // Properties.Get, not GetAll: Qt5 crashes on GetAll of the Accessible interface.
        m_batch.add({c.ref.bus, c.ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "Name"),
                    [this, index](const Reply& r) {
                        --m_names_in_flight;
                        Candidate& cand = at(index);
                        if (r.ok())
                            (void)read_string_variant(r.message, cand.name);
                        else if (dbus_error_is_gone(r.error))
                            cand.gone = true;
                        cand.name_known = true;
                        advance();
                        pump_names();
                    });
    }
    advance();
}

void MatchFetch::advance()
{
    const auto max = static_cast<std::size_t>(m_query.max_results);
    for (; !m_done && m_frontier < m_candidates.size(); ++m_frontier) {
        Candidate& c = at(m_frontier);
        if (!c.name_known)
            return;
        if (c.gone || !nd_core::name_contains(c.name, m_query.name))
            continue;
        if (m_accepted >= max) {
            m_done = true; // one fitting candidate past the limit: say so, ask nothing more
            return;
        }
        accept(m_frontier);
    }
}

void MatchFetch::accept(std::size_t index)
{
    Candidate& c = at(index);
    c.accepted = true;
    ++m_accepted;
    if (c.is_root)
        return;
    const std::string& bus = c.ref.bus;
    const std::string& path = c.ref.path;
    // Every fact's handler drops the candidate when its object is gone.
    auto fact = [this, index](auto&& read) {
        return [this, index, read](const Reply& r) {
            Candidate& cand = at(index);
            if (r.ok())
                (void)read(cand, r.message);
            else if (dbus_error_is_gone(r.error))
                cand.gone = true;
        };
    };
    const CachedItem* item = c.cached;
    if (m_role)
        c.role = *m_role;
    else if (item)
        c.role = item->role;
    else
        m_batch.add({bus, path, IFACE_ACCESSIBLE, "GetRole"}, {}, fact([](Candidate& cand, sd_bus_message* m) {
                        return sd_bus_message_read_basic(m, 'u', &cand.role);
                    }));
    if (m_query.name.empty()) {
        if (item)
            c.name = item->name;
        else
            m_batch.add({bus, path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_ACCESSIBLE, "Name"),
                        fact([](Candidate& cand, sd_bus_message* m) { return read_string_variant(m, cand.name); }));
    }
    if (!item || (item->interfaces & IF_ACTION))
        m_batch.add({bus, path, IFACE_ACTION, "GetActions"}, {},
                    fact([](Candidate& cand, sd_bus_message* m) { return read_action_names(m, cand.actions); }));
    if (item) {
        c.states = item->states;
        states_known(index);
        return;
    }
    m_batch.add({bus, path, IFACE_ACCESSIBLE, "GetState"}, {}, [this, index](const Reply& r) {
        Candidate& cand = at(index);
        if (r.ok())
            (void)read_states(r.message, cand.states);
        else if (dbus_error_is_gone(r.error))
            cand.gone = true;
        states_known(index);
    });
}

void MatchFetch::states_known(std::size_t index)
{
    Candidate& c = at(index);
    if (c.states.has(ATSPI_STATE_DEFUNCT))
        c.gone = true;
    // Extents cost GTK3 an X round trip each, and what is not showing has no real place: only
    // showing objects are asked, as in a read.
    if (c.gone || !showing(c.states) || (c.cached && !(c.cached->interfaces & IF_COMPONENT)))
        return;
    m_batch.add({c.ref.bus, c.ref.path, IFACE_COMPONENT, "GetExtents"},
                [](sd_bus_message* m) { return sd_bus_message_append(m, "u", COORD_SCREEN); },
                [this, index](const Reply& r) {
                    Candidate& cand = at(index);
                    cand.has_frame = read_place(r, cand.frame).has_area;
                    if (!r.ok() && dbus_error_is_gone(r.error))
                        cand.gone = true;
                });
}

} // namespace nd_linux
