#include "backend/mock/mock_services.h"

namespace nd_mock {

nd_core::Result<std::vector<nd_core::WindowInfo>> MockWindowSource::list_windows()
{
    std::lock_guard lock(m_state.mutex);
    m_state.drop_closed_windows(); // a closing window's time in the list may be up
    std::vector<nd_core::WindowInfo> out;
    out.reserve(m_state.windows.size());
    for (const auto& window : m_state.windows) {
        out.push_back(window.info);
        out.back().active = out.size() == 1;
    }
    return out;
}

nd_core::Result<std::string> MockClipboard::read_text()
{
    std::lock_guard lock(m_state.mutex);
    return m_state.clipboard;
}

nd_core::Result<void> MockClipboard::write_text(std::string_view text)
{
    std::lock_guard lock(m_state.mutex);
    m_state.clipboard = std::string(text);
    m_state.clipboard_ours = true;
    return {};
}

void MockClipboard::release()
{
    std::lock_guard lock(m_state.mutex);
    if (m_state.clipboard_ours)
        m_state.clipboard.clear();
    m_state.clipboard_ours = false;
}

nd_core::Result<void> MockOverlay::show_indicator()
{
    std::lock_guard lock(m_state.mutex);
    if (m_state.indicator_fails)
        return nd_core::make_error(nd_core::ErrorCode::backend_unavailable,
                                   "the mock takeover indicator could not be shown");
    m_state.indicator_shown = true;
    m_state.indicator_paused = false;
    m_state.indicator_destroyed = false;
    return {};
}

void MockOverlay::set_paused(bool paused)
{
    std::lock_guard lock(m_state.mutex);
    m_state.indicator_paused = paused;
}

void MockOverlay::hide_indicator()
{
    std::lock_guard lock(m_state.mutex);
    m_state.indicator_shown = false;
    m_state.indicator_paused = false;
}

bool MockOverlay::indicator_alive()
{
    std::lock_guard lock(m_state.mutex);
    return m_state.indicator_shown && !m_state.indicator_destroyed;
}

void MockOverlay::set_continue_handler(std::function<void()> handler)
{
    std::lock_guard lock(m_handler_mutex);
    m_continue = std::move(handler);
}

bool MockOverlay::click_continue()
{
    {
        std::lock_guard lock(m_state.mutex);
        if (!m_state.indicator_shown || m_state.indicator_destroyed || !m_state.indicator_paused)
            return false;
    }
    std::function<void()> handler;
    {
        std::lock_guard lock(m_handler_mutex);
        handler = m_continue;
    }
    // The handler takes the engine's lock and calls set_paused(): no mock lock may be held here.
    if (!handler)
        return false;
    handler();
    return true;
}

} // namespace nd_mock
