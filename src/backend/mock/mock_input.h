#pragma once

// Synthetic input and the person's input on the mock desktop. Every synthetic call is recorded
// (DesktopState::synthetic_log) and also acts like a small window system: a left click raises the
// window under the pointer, focuses an editable element there or runs the "click" effects of the
// nearest clickable element; typed characters go into the focused editable element. A hung app
// ignores input. The person's input comes from test hooks and is reported once by the watcher.

#include "backend/mock/desktop_state.h"
#include "core/backend/input_watcher.h"
#include "core/backend/synthetic_input.h"

namespace nd_mock {

class MockInput final : public nd_core::SyntheticInput {
public:
    explicit MockInput(DesktopState& state) : m_state(state) {}

    nd_core::Result<void> move_pointer(nd_core::Point) override;
    nd_core::Result<void> button(nd_core::MouseButton, bool press) override;
    nd_core::Result<void> key(std::string_view keysym, bool press) override;
    nd_core::Result<void> type_char(char32_t) override;
    nd_core::Result<void> scroll(std::int32_t dx, std::int32_t dy) override;
    nd_core::Result<void> raise_window(const nd_core::WindowInfo&) override;
    nd_core::Result<nd_core::Point> pointer_position() override;

private:
    DesktopState& m_state;
};

class MockWatcher final : public nd_core::InputWatcher {
public:
    explicit MockWatcher(DesktopState& state) : m_state(state) {}
    void reset() override;
    std::optional<nd_core::PersonInput> poll() override;

private:
    DesktopState& m_state;
};

// Moves the window to the top of the stack, which makes it the active one. Mutex held.
bool raise_in_stack(DesktopState&, std::int64_t window_id);

} // namespace nd_mock
