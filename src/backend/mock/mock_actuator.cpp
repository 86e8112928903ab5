#include "backend/mock/mock_actuator.h"

#include "backend/mock/effects.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>

namespace nd_mock {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

constexpr std::array<std::string_view, 7> SELECTABLE_ROLES = {
    "page_tab", "list_item", "table_cell", "table_row", "tree_item", "menu_item", "radio_button",
};

nd_core::Result<void> check_enabled(const Node& node)
{
    if (!(node.states & nd_core::STATE_ENABLED))
        return make_error(ErrorCode::element_not_ready, "the element is disabled");
    return {};
}

nd_core::Result<void> refuse_secure(const Node& node)
{
    if (node.secure())
        return make_error(ErrorCode::secure_field_refused, "the element is a secure field");
    return {};
}

std::string format_number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

void record(DesktopState& state, const MockWindow& window, const Node& node, std::string kind, std::string detail)
{
    DesktopState::append(state.semantic_log, SemanticEvent{window.info.window_id, node.key, std::move(kind), std::move(detail)});
}

} // namespace

nd_core::Result<void> MockActuator::do_action(const nd_core::WindowInfo& info, const nd_core::Element& element,
                                              std::string_view action)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    Node* node = TRY(live_node(*window, element));
    if (!node->has_action(action))
        return make_error(ErrorCode::action_not_offered,
                          "the element has no action \"" + std::string(action.substr(0, 64)) + "\"");
    TRY_VOID(check_enabled(*node));
    std::string key = node->key;
    std::string name(action);
    // Effects may remove the node itself (an OK button closing its dialog), so log from copies.
    TRY_VOID(apply_action_effects(*window, *node, name));
    DesktopState::append(m_state.semantic_log, SemanticEvent{window->info.window_id, key, "action", name});
    m_state.drop_closed_windows();
    return {};
}

nd_core::Result<void> MockActuator::set_value(const nd_core::WindowInfo& info, const nd_core::Element& element,
                                              std::string_view value)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    Node* node = TRY(live_node(*window, element));
    TRY_VOID(refuse_secure(*node));
    TRY_VOID(check_enabled(*node));
    if (node->range) {
        double v = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (value.empty() || ec != std::errc() || end != value.data() + value.size())
            return make_error(ErrorCode::invalid_arguments, "the element takes a number");
        if (v < node->range->first || v > node->range->second)
            return make_error(ErrorCode::invalid_arguments, "the value is outside the element's range " +
                                                            format_number(node->range->first) + ".." +
                                                            format_number(node->range->second));
        node->value = format_number(v);
    } else if (node->states & nd_core::STATE_EDITABLE) {
        node->value = apply_filter(*node, value);
    } else {
        return make_error(ErrorCode::action_not_offered, "the element is not editable");
    }
    record(m_state, *window, *node, "set_value", std::to_string(value.size()) + " bytes");
    return {};
}

nd_core::Result<void> MockActuator::insert_text(const nd_core::WindowInfo& info, const nd_core::Element& element,
                                                std::string_view text)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    Node* node = TRY(live_node(*window, element));
    TRY_VOID(refuse_secure(*node));
    TRY_VOID(check_enabled(*node));
    if (!(node->states & nd_core::STATE_EDITABLE))
        return make_error(ErrorCode::action_not_offered, "the element is not editable text");
    // The mock keeps no caret: text goes at the end, as the interface allows.
    node->value += apply_filter(*node, text);
    record(m_state, *window, *node, "insert_text", std::to_string(text.size()) + " bytes");
    return {};
}

nd_core::Result<void> MockActuator::select(const nd_core::WindowInfo& info, const nd_core::Element& element)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    Node* node = TRY(live_node(*window, element));
    bool selectable = (node->states & nd_core::STATE_SELECTABLE) ||
                      std::find(SELECTABLE_ROLES.begin(), SELECTABLE_ROLES.end(), node->role) != SELECTABLE_ROLES.end();
    if (!selectable || !node->parent)
        return make_error(ErrorCode::action_not_offered, "the element cannot be selected");
    TRY_VOID(check_enabled(*node));
    std::string key = node->key;
    TRY_VOID(select_node(*window, *node));
    DesktopState::append(m_state.semantic_log, SemanticEvent{window->info.window_id, key, "select", ""});
    m_state.drop_closed_windows();
    return {};
}

nd_core::Result<std::string> MockActuator::read_value(const nd_core::WindowInfo& info,
                                                      const nd_core::Element& element)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    Node* node = TRY(live_node(*window, element));
    TRY_VOID(refuse_secure(*node));
    return node->value;
}

nd_core::Result<bool> MockActuator::is_focused_now(const nd_core::WindowInfo& info, const nd_core::Element& element)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    Node* node = TRY(live_node(*window, element));
    return (node->states & nd_core::STATE_FOCUSED) != 0;
}

nd_core::Result<bool> MockActuator::is_secure_now(const nd_core::WindowInfo& info, const nd_core::Element& element)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    Node* node = TRY(live_node(*window, element));
    return node->secure();
}

nd_core::Result<std::vector<std::string>> MockActuator::action_names(const nd_core::WindowInfo& info,
                                                                     const nd_core::Element& element)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    Node* node = TRY(live_node(*window, element));
    return node->actions;
}

nd_core::Result<void> MockActuator::grab_focus(const nd_core::WindowInfo& info, const nd_core::Element& element)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    Node* node = TRY(live_node(*window, element));
    if (!(node->states & nd_core::STATE_FOCUSABLE) && !(node->states & nd_core::STATE_EDITABLE))
        return make_error(ErrorCode::action_not_offered, "the element cannot take the keyboard focus (not focusable)");
    TRY_VOID(check_enabled(*node));
    // One focus per window, as a toolkit keeps it.
    std::vector<Node*> stack{window->root.get()};
    while (!stack.empty()) {
        Node* n = stack.back();
        stack.pop_back();
        n->states &= ~nd_core::STATE_FOCUSED;
        for (auto& child : n->children)
            stack.push_back(child.get());
    }
    node->states |= nd_core::STATE_FOCUSED;
    record(m_state, *window, *node, "grab_focus", "");
    return {};
}

} // namespace nd_mock
