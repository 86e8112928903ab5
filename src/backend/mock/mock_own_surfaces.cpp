#include "backend/mock/mock_own_surfaces.h"

namespace nd_mock {

namespace {

nd_core::Error unanswered() { return nd_core::make_error(nd_core::ErrorCode::timed_out, "the mock display did not answer in time"); }

} // namespace

nd_core::Result<std::optional<nd_core::OwnSurface>> MockOwnSurfaces::at(nd_core::Point p)
{
    std::lock_guard lock(m_state.mutex);
    if (m_state.own_surfaces_fail)
        return unanswered();
    for (const auto& s : m_state.own_surfaces)
        if (s.frame.contains(p.x, p.y))
            return std::optional<nd_core::OwnSurface>(s);
    return std::optional<nd_core::OwnSurface>{};
}

nd_core::Result<std::optional<nd_core::OwnSurface>> MockOwnSurfaces::focused()
{
    std::lock_guard lock(m_state.mutex);
    if (m_state.own_surfaces_fail)
        return unanswered();
    if (!m_state.focused_surface || *m_state.focused_surface >= m_state.own_surfaces.size())
        return std::optional<nd_core::OwnSurface>{};
    return std::optional<nd_core::OwnSurface>(m_state.own_surfaces[*m_state.focused_surface]);
}

} // namespace nd_mock
