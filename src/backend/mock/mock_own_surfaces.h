#pragma once

// nish-driver's own surfaces on the mock desktop: rectangles a test places (MockBackend's
// place_own_surface) that lie above every window, as the consent dialog and the takeover indicator
// do on a real desktop, and the keyboard focus on one of them. Nothing draws them and the mock's
// input does not stop at them: what matters is that the guards ask before sending.

#include "backend/mock/desktop_state.h"
#include "core/backend/own_surfaces.h"

namespace nd_mock {

class MockOwnSurfaces final : public nd_core::OwnSurfaces {
public:
    explicit MockOwnSurfaces(DesktopState& state) : m_state(state) {}
    nd_core::Result<std::optional<nd_core::OwnSurface>> at(nd_core::Point) override;
    nd_core::Result<std::optional<nd_core::OwnSurface>> focused() override;

private:
    DesktopState& m_state;
};

} // namespace nd_mock
