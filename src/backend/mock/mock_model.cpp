#include "backend/mock/mock_model.h"

#include "core/model/policy.h"

#include <algorithm>

namespace nd_mock {

bool Node::has_action(std::string_view action) const
{
    return std::find(actions.begin(), actions.end(), action) != actions.end();
}

// The engine's own rule, so a node holds a secret exactly when the policy would blank its value.
bool Node::secure() const { return nd_core::is_secure_element(role, states); }

Node* find_node(Node& root, std::string_view key)
{
    if (root.key == key)
        return &root;
    for (auto& child : root.children)
        if (Node* found = find_node(*child, key))
            return found;
    return nullptr;
}

namespace {

std::unique_ptr<Node> copy_tree(const Node& node, Node* parent)
{
    auto copy = std::make_unique<Node>();
    static_cast<NodeFacts&>(*copy) = node;
    copy->parent = parent;
    copy->children.reserve(node.children.size());
    for (const auto& child : node.children)
        copy->children.push_back(copy_tree(*child, copy.get()));
    return copy;
}

} // namespace

MockWindow copy_window(const MockWindow& window)
{
    MockWindow copy;
    copy.info = window.info;
    copy.root = window.root ? copy_tree(*window.root, nullptr) : nullptr;
    copy.hung = window.hung;
    copy.answer_time = window.answer_time;
    copy.next_auto_key = window.next_auto_key;
    copy.templates = window.templates; // shared and const
    return copy;
}

std::int64_t count_nodes(const Node& root)
{
    std::int64_t n = 1;
    for (const auto& child : root.children)
        n += count_nodes(*child);
    return n;
}

void shift_frames(Node& root, std::int32_t dx, std::int32_t dy)
{
    if (root.has_frame) {
        root.frame.x += dx;
        root.frame.y += dy;
    }
    for (auto& child : root.children)
        shift_frames(*child, dx, dy);
}

} // namespace nd_mock
