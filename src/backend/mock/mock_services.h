#pragma once

// The mock's window list, clipboard and takeover indicator: small in-memory parts over the shared
// desktop state. The indicator can be told to fail or be destroyed by test hooks (MockBackend).

#include "backend/mock/desktop_state.h"
#include "core/backend/clipboard.h"
#include "core/backend/overlay.h"
#include "core/backend/window_source.h"

#include <functional>
#include <mutex>

namespace nd_mock {

class MockWindowSource final : public nd_core::WindowSource {
public:
    explicit MockWindowSource(DesktopState& state) : m_state(state) {}
    // Topmost first; the topmost window is the active one.
    nd_core::Result<std::vector<nd_core::WindowInfo>> list_windows() override;

private:
    DesktopState& m_state;
};

class MockClipboard final : public nd_core::Clipboard {
public:
    explicit MockClipboard(DesktopState& state) : m_state(state) {}
    nd_core::Result<std::string> read_text() override;
    nd_core::Result<void> write_text(std::string_view) override;
    // As on X11: the text the driver wrote goes with it; another app's copy stays.
    void release() override;

private:
    DesktopState& m_state;
};

class MockOverlay final : public nd_core::Overlay {
public:
    explicit MockOverlay(DesktopState& state) : m_state(state) {}
    nd_core::Result<void> show_indicator() override;
    void set_paused(bool) override;
    void hide_indicator() override;
    bool indicator_alive() override;
    void set_continue_handler(std::function<void()>) override;
    // The person clicks Continue: calls the handler when the indicator is shown and paused (the
    // button exists only then). Returns whether it was called. Takes no lock while calling it.
    bool click_continue();

private:
    DesktopState& m_state;
    std::mutex m_handler_mutex;
    std::function<void()> m_continue;
};

} // namespace nd_mock
