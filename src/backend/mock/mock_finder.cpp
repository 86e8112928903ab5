#include "backend/mock/mock_finder.h"

#include "backend/mock/mock_tree_reader.h"

#include <vector>

namespace nd_mock {

nd_core::Result<nd_core::FindResult> MockFinder::find(const nd_core::WindowInfo& info, const nd_core::FindQuery& query)
{
    TRY_VOID(nd_core::check_query(query));
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    if (window->answer_time > query.deadline)
        return nd_core::make_error(nd_core::ErrorCode::timed_out,
                                   "the app of window " + std::to_string(info.window_id) + " did not answer within " +
                                       std::to_string(query.deadline.count()) + " ms");
    nd_core::FindResult result;
    // Preorder with an explicit stack: fixture trees may be deep, and the order must be a read's.
    std::vector<const Node*> stack{window->root.get()};
    while (!stack.empty()) {
        const Node* node = stack.back();
        stack.pop_back();
        if (nd_core::query_matches(query, node->role, node->name)) {
            if (static_cast<std::int64_t>(result.elements.size()) >= query.max_results) {
                result.truncated = true;
                break;
            }
            nd_core::Element e = to_element(*node);
            e.value.clear(); // a finder never carries values (element_finder.h)
            if (!e.is(nd_core::STATE_SHOWING))
                e.has_frame = false; // nor frames of what is not on screen
            result.elements.push_back(std::move(e));
        }
        for (auto it = node->children.rbegin(); it != node->children.rend(); ++it)
            stack.push_back(it->get());
    }
    return result;
}

} // namespace nd_mock
