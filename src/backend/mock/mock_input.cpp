#include "backend/mock/mock_input.h"

#include "backend/mock/effects.h"
#include "core/model/act_actions.h"
#include "core/encode/utf8.h"

#include <algorithm>

namespace nd_mock {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

Node* deepest_at(Node& node, nd_core::Point p)
{
    // Later siblings are drawn over earlier ones, so they are hit first.
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it)
        if ((*it)->has_frame && (*it)->frame.contains(p.x, p.y))
            return deepest_at(**it, p);
    return &node;
}

void clear_focus(Node& node)
{
    node.states &= ~nd_core::STATE_FOCUSED;
    for (auto& child : node.children)
        clear_focus(*child);
}

Node* focused(Node& node)
{
    if (node.states & nd_core::STATE_FOCUSED)
        return &node;
    for (auto& child : node.children)
        if (Node* f = focused(*child))
            return f;
    return nullptr;
}

std::string utf8(char32_t c)
{
    std::string out;
    nd_core::append_utf8(out, c);
    return out;
}

void pop_utf8(std::string& s)
{
    while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80)
        s.pop_back();
    if (!s.empty())
        s.pop_back();
}

// The window system's part of a left click: raise, focus, then the element's own click.
void click_at(DesktopState& state, nd_core::Point p)
{
    auto hit = std::find_if(state.windows.begin(), state.windows.end(),
                            [&](const MockWindow& w) { return w.info.frame.contains(p.x, p.y); });
    if (hit == state.windows.end() || hit->hung)
        return;
    std::int64_t id = hit->info.window_id;
    raise_in_stack(state, id);
    MockWindow& window = *state.find_window(id);
    Node* node = deepest_at(*window.root, p);
    if (node->states & nd_core::STATE_EDITABLE) {
        clear_focus(*window.root);
        node->states |= nd_core::STATE_FOCUSED;
        return;
    }
    for (Node* n = node; n; n = n->parent) {
        // The element's click as the act table names it for its toolkit ("click", "press", "Toggle").
        if (auto click = nd_core::choose_action(nd_core::ActKind::click, n->actions, n->role,
                                                  (n->states & nd_core::STATE_CHECKED) != 0)) {
            // A click on a disabled element does nothing; an effect that fails leaves the app as it
            // is, and the engine sees the outcome when it reads the window again.
            if (n->states & nd_core::STATE_ENABLED)
                (void)apply_action_effects(window, *n, click->action);
            state.drop_closed_windows();
            return;
        }
    }
}

void log(DesktopState& state, SyntheticEvent event)
{
    state.chars_typed += event.kind == SyntheticEvent::Kind::type_char;
    DesktopState::append(state.synthetic_log, std::move(event));
}

} // namespace

bool raise_in_stack(DesktopState& state, std::int64_t window_id)
{
    auto it = std::find_if(state.windows.begin(), state.windows.end(),
                           [&](const MockWindow& w) { return w.info.window_id == window_id; });
    if (it == state.windows.end())
        return false;
    std::rotate(state.windows.begin(), it, it + 1);
    return true;
}

nd_core::Result<void> MockInput::move_pointer(nd_core::Point p)
{
    std::lock_guard lock(m_state.mutex);
    SyntheticEvent event;
    event.kind = SyntheticEvent::Kind::move;
    event.point = p;
    log(m_state, event);
    m_state.pointer = p;
    return {};
}

nd_core::Result<void> MockInput::button(nd_core::MouseButton b, bool press)
{
    std::lock_guard lock(m_state.mutex);
    SyntheticEvent event;
    event.kind = SyntheticEvent::Kind::button;
    event.button = b;
    event.press = press;
    log(m_state, event);
    if (b == nd_core::MouseButton::left && !press)
        click_at(m_state, m_state.pointer);
    return {};
}

nd_core::Result<void> MockInput::key(std::string_view keysym, bool press)
{
    if (keysym.empty() || keysym.size() > 64)
        return make_error(ErrorCode::invalid_arguments, "a keysym name is 1..64 characters");
    std::lock_guard lock(m_state.mutex);
    SyntheticEvent event;
    event.kind = SyntheticEvent::Kind::key;
    event.keysym = std::string(keysym);
    event.press = press;
    log(m_state, event);
    if (press && keysym == "BackSpace" && !m_state.windows.empty() && !m_state.windows.front().hung)
        if (Node* f = focused(*m_state.windows.front().root); f && (f->states & nd_core::STATE_EDITABLE))
            pop_utf8(f->secure() ? f->secret : f->value);
    return {};
}

nd_core::Result<void> MockInput::type_char(char32_t c)
{
    if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return make_error(ErrorCode::invalid_arguments, "not a Unicode scalar value");
    std::lock_guard lock(m_state.mutex);
    SyntheticEvent event;
    event.kind = SyntheticEvent::Kind::type_char;
    event.ch = c;
    log(m_state, event);
    if (m_state.windows.empty() || m_state.windows.front().hung)
        return {};
    if (Node* f = focused(*m_state.windows.front().root); f && (f->states & nd_core::STATE_EDITABLE)) {
        if (f->secure())
            f->secret += utf8(c);
        else
            f->value += apply_filter(*f, utf8(c));
    }
    return {};
}

nd_core::Result<void> MockInput::scroll(std::int32_t dx, std::int32_t dy)
{
    std::lock_guard lock(m_state.mutex);
    SyntheticEvent event;
    event.kind = SyntheticEvent::Kind::scroll;
    event.dx = dx;
    event.dy = dy;
    log(m_state, event);
    return {};
}

nd_core::Result<void> MockInput::raise_window(const nd_core::WindowInfo& info)
{
    std::lock_guard lock(m_state.mutex);
    SyntheticEvent event;
    event.kind = SyntheticEvent::Kind::raise;
    event.window_id = info.window_id;
    log(m_state, event);
    if (!raise_in_stack(m_state, info.window_id))
        return make_error(ErrorCode::window_target_not_found,
                          "window " + std::to_string(info.window_id) + " is gone");
    return {};
}

nd_core::Result<nd_core::Point> MockInput::pointer_position()
{
    std::lock_guard lock(m_state.mutex);
    return m_state.pointer;
}

void MockWatcher::reset()
{
    std::lock_guard lock(m_state.mutex);
    m_state.person_input.clear();
}

std::optional<nd_core::PersonInput> MockWatcher::poll()
{
    std::lock_guard lock(m_state.mutex);
    if (m_state.person_input.empty())
        return std::nullopt;
    auto input = m_state.person_input.front();
    m_state.person_input.pop_front();
    return input;
}

} // namespace nd_mock
