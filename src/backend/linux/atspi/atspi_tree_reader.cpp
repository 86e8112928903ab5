#include "backend/linux/atspi/atspi_tree_reader.h"

#include "backend/linux/atspi/atspi_locator.h"

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

AtspiTreeReader::AtspiTreeReader(AtspiBus& bus) : m_bus(bus) {}

nd_core::Result<nd_core::RawTree> AtspiTreeReader::read_window(const nd_core::WindowInfo& window,
                                                               const nd_core::ReadLimits& limits)
{
    if (limits.max_elements <= 0 || limits.max_depth < 0 || limits.deadline.count() <= 0)
        return make_error(ErrorCode::invalid_arguments, "read limits must be positive");
    Deadline deadline = deadline_in(limits.deadline);
    auto located = TRY(locate_window(m_bus, window, m_no_cache, deadline));
    if (located.cache_refused && m_no_cache.size() < 4096)
        m_no_cache.insert(located.app.bus);

    WalkOptions options = m_options;
    options.property_gets = located.cache == nullptr;
    TreeWalk walk(m_bus, limits, deadline, located.cache, options);
    auto tree = TRY(walk.read(located.top.ref));
    if (Clock::now() > deadline)
        return make_error(ErrorCode::timed_out, "the read finished after its deadline");
    m_last.elements = tree.elements.size();
    m_last.calls = walk.stats().calls;
    m_last.from_cache = walk.stats().from_cache;
    m_last.used_cache = located.cache != nullptr;
    m_last.used_peer = m_bus.has_peer(located.app.bus);
    return tree;
}

} // namespace nd_linux
