#pragma once

// The mock's semantic actions: an element's own actions run its scripted effects; set_value and
// insert_text change editable text or a ranged value; select picks a tab or an item. Secure fields
// are never read or written (secure_field_refused), whatever the engine has already checked.

#include "backend/mock/desktop_state.h"
#include "core/backend/actuator.h"

namespace nd_mock {

class MockActuator final : public nd_core::Actuator {
public:
    explicit MockActuator(DesktopState& state) : m_state(state) {}

    nd_core::Result<void> do_action(const nd_core::WindowInfo&, const nd_core::Element&,
                                    std::string_view action) override;
    nd_core::Result<void> set_value(const nd_core::WindowInfo&, const nd_core::Element&,
                                    std::string_view value) override;
    nd_core::Result<void> insert_text(const nd_core::WindowInfo&, const nd_core::Element&,
                                      std::string_view text) override;
    nd_core::Result<void> select(const nd_core::WindowInfo&, const nd_core::Element&) override;
    nd_core::Result<std::string> read_value(const nd_core::WindowInfo&, const nd_core::Element&) override;
    nd_core::Result<bool> is_secure_now(const nd_core::WindowInfo&, const nd_core::Element&) override;
    nd_core::Result<bool> is_focused_now(const nd_core::WindowInfo&, const nd_core::Element&) override;
    nd_core::Result<std::vector<std::string>> action_names(const nd_core::WindowInfo&,
                                                           const nd_core::Element&) override;
    // Moves the focused state to the element, off every other element of its window.
    nd_core::Result<void> grab_focus(const nd_core::WindowInfo&, const nd_core::Element&) override;

private:
    DesktopState& m_state;
};

} // namespace nd_mock
