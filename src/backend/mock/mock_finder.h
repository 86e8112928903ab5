#pragma once

// The ElementFinder of the mock desktop: filters the window's live nodes in preorder, with the same
// checks as a read (a closed window, a hung app, an answer slower than the deadline).

#include "backend/mock/desktop_state.h"
#include "core/backend/element_finder.h"

namespace nd_mock {

class MockFinder final : public nd_core::ElementFinder {
public:
    explicit MockFinder(DesktopState& state) : m_state(state) {}
    nd_core::Result<nd_core::FindResult> find(const nd_core::WindowInfo&, const nd_core::FindQuery&) override;

private:
    DesktopState& m_state;
};

} // namespace nd_mock
