#include "backend/linux/atspi/atspi_finder.h"

#include "backend/linux/atspi/atspi_locator.h"
#include "backend/linux/atspi/atspi_match_fetch.h"
#include "backend/linux/atspi/atspi_matches.h"
#include "backend/linux/atspi/atspi_visible_part.h"

#include <algorithm>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

constexpr std::size_t MAX_REMEMBERED_APPS = 4096;

void remember(std::unordered_set<std::string>& apps, const std::string& bus_name)
{
    // Unique bus names are never reused; the bound only keeps a long-lived driver small.
    if (apps.size() >= MAX_REMEMBERED_APPS)
        apps.clear();
    apps.insert(bus_name);
}

} // namespace

AtspiFinder::AtspiFinder(AtspiBus& bus) : m_bus(bus), m_reader(bus) {}

nd_core::Result<nd_core::FindResult> AtspiFinder::find(const nd_core::WindowInfo& window,
                                                       const nd_core::FindQuery& query)
{
    TRY_VOID(nd_core::check_query(query));
    Deadline deadline = deadline_in(query.deadline);
    if (m_bus.generation() != m_bus_generation) {
        m_no_collection.clear();
        m_bus_generation = m_bus.generation();
    }
    auto located = TRY(m_reader.locate(window, deadline));

    std::optional<std::uint32_t> role;
    if (!query.role.empty()) {
        role = atspi_role_from_name(query.role);
        if (!role) {
            // No AT-SPI object can have a role outside the table: nothing matches.
            m_last = {};
            return nd_core::FindResult{};
        }
    }
    if (m_no_collection.count(located.app.bus))
        return read_and_filter(window, located, query, deadline);
    // GetMatches walks every child, also of a container that makes them on demand: on a Calc sheet
    // (2^31-1 cells) it never ends. The read reads only such a container's visible part.
    if (located.cache && TRY(any_too_many_children(m_bus, located.cache->managing_descendants(), deadline)))
        return read_and_filter(window, located, query, deadline);

    // Without a fragment the app's own count does the limiting (one more than asked tells
    // truncation); with one, names are filtered here, so every role match is needed.
    const std::int32_t count =
        query.name.empty() ? std::min(query.max_results, MAX_CANDIDATES - 1) + 1 : MAX_CANDIDATES;
    std::vector<std::uint32_t> roles;
    if (role)
        roles.push_back(*role);
    auto matches = TRY(get_matches(m_bus, located.top.ref, roles, count, deadline));
    if (!matches.supported) {
        if (matches.no_such_method)
            remember(m_no_collection, located.app.bus);
        return read_and_filter(window, located, query, deadline);
    }

    MatchFetch fetch(m_bus, deadline, located.cache, query, role, located.top);
    const bool capped = matches.refs.size() >= static_cast<std::size_t>(count);
    auto result = TRY(fetch.run(matches.refs, capped));
    if (Clock::now() > deadline)
        return make_error(ErrorCode::timed_out, "the search finished after its deadline");
    m_last = {};
    m_last.used_matches = true;
    m_last.matches = matches.refs.size();
    m_last.calls = fetch.calls() + 1;
    m_last.from_cache = fetch.from_cache();
    m_last.elements = result.elements.size();
    return result;
}

nd_core::Result<nd_core::FindResult> AtspiFinder::read_and_filter(const nd_core::WindowInfo& window,
                                                                  const LocatedWindow& located,
                                                                  const nd_core::FindQuery& query, Deadline deadline)
{
    if (Clock::now() >= deadline)
        return make_error(ErrorCode::timed_out, "the search's deadline passed before the window could be read");
    nd_core::ReadLimits limits;
    limits.max_elements = FALLBACK_MAX_ELEMENTS;
    auto tree = TRY(m_reader.read_located(located, limits, deadline));
    m_reader.to_screen(window, tree.elements, deadline);

    nd_core::FindResult result;
    // A read cut at its limits may have left matches out.
    result.truncated = tree.truncated;
    for (auto& e : tree.elements) {
        if (!nd_core::query_matches(query, e.role, e.name))
            continue;
        if (static_cast<std::int64_t>(result.elements.size()) >= query.max_results) {
            result.truncated = true;
            break;
        }
        e.value.clear(); // a finder never carries values (element_finder.h)
        e.parent = -1;
        e.depth = 0;
        e.child_count = 0;
        e.descendant_count = 0;
        if (!e.is(nd_core::STATE_SHOWING))
            e.has_frame = false;
        result.elements.push_back(std::move(e));
    }
    m_last = {};
    m_last.calls = m_reader.last_read().calls;
    m_last.read_elements = tree.elements.size();
    m_last.elements = result.elements.size();
    return result;
}

} // namespace nd_linux
