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
