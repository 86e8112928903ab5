#include "backend/mock/desktop_state.h"

#include <cstdio>

namespace nd_mock {

namespace {

std::string_view button_name(nd_core::MouseButton b)
{
    switch (b) {
    case nd_core::MouseButton::left:
        return "left";
    case nd_core::MouseButton::middle:
        return "middle";
    case nd_core::MouseButton::right:
        return "right";
    }
    return "unknown";
}

} // namespace

std::string SyntheticEvent::to_string() const
{
    std::string press_text = press ? "press" : "release";
    switch (kind) {
    case Kind::move:
        return "move " + std::to_string(point.x) + "," + std::to_string(point.y);
    case Kind::button:
        return "button " + std::string(button_name(button)) + " " + press_text;
    case Kind::key:
        return "key " + keysym + " " + press_text;
    case Kind::type_char: {
        char buf[16];
        std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(ch));
        return std::string("char ") + buf;
    }
    case Kind::scroll:
        return "scroll " + std::to_string(dx) + "," + std::to_string(dy);
    case Kind::raise:
        return "raise " + std::to_string(window_id);
    }
    return "unknown";
}

std::string SemanticEvent::to_string() const
{
    return kind + " " + detail + " " + std::to_string(window_id) + "/" + key;
}

void DesktopState::drop_closed_windows()
{
    const auto now = std::chrono::steady_clock::now();
    for (auto& w : windows)
        if (w.closing && w.listed_ms > 0) {
            w.closing = false;
            w.tree_gone = true;
            w.listed_until = now + std::chrono::milliseconds(w.listed_ms);
        }
    std::erase_if(windows, [now](const MockWindow& w) { return w.closing || (w.tree_gone && now >= w.listed_until); });
}

MockWindow* DesktopState::find_window(std::int64_t window_id)
{
    for (auto& w : windows)
        if (w.info.window_id == window_id)
            return &w;
    return nullptr;
}

nd_core::Result<MockWindow*> live_window(DesktopState& state, const nd_core::WindowInfo& info)
{
    MockWindow* window = state.find_window(info.window_id);
    if (!window || (info.pid != 0 && info.pid != window->info.pid))
        return nd_core::make_error(nd_core::ErrorCode::window_target_not_found,
                                   "window " + std::to_string(info.window_id) + " is gone");
    if (window->tree_gone)
        return nd_core::make_error(nd_core::ErrorCode::window_target_not_found,
                                   "window " + std::to_string(info.window_id) + " has no accessible tree (its app is closing it)");
    if (window->hung)
        return nd_core::make_error(nd_core::ErrorCode::app_not_responding,
                                   "the app of window " + std::to_string(info.window_id) + " does not respond");
    return window;
}

nd_core::Result<Node*> live_node(MockWindow& window, const nd_core::Element& element)
{
    Node* node = element.key.empty() ? nullptr : find_node(*window.root, element.key);
    if (!node)
        return nd_core::make_error(nd_core::ErrorCode::element_not_found,
                                   "element " + element.key.substr(0, 64) + " is no longer in window " +
                                       std::to_string(window.info.window_id));
    return node;
}

} // namespace nd_mock
