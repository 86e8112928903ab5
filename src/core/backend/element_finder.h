#pragma once

// Finds elements of one window by name and role without reading the whole tree, where the platform
// can search on the app's side (AT-SPI's Collection.GetMatches); otherwise by reading the window and
// filtering. Owner: the backend.
//
// Contract:
// - Results come in preorder, the window's root first when it matches, at most `max_results` of
//   them; `truncated` says more may match. Where the app searches itself, siblings come in the
//   app's own child order, which can differ from a read's (docs/linux-atspi.md); the set is the same.
// - Each element carries role, name, states and key, its frame when it is showing, and its actions
//   where the backend has them. It is a search hit, not a tree: parent = -1, depth 0, no counts.
// - `value` is always empty. A backend can rule out a secure field only from the element's
//   ancestry (a text object inside a password field is the field), which a search does not have,
//   so a finder never reads values; a read of the element's subtree does.
// - Every search has a deadline: an app that does not answer yields app_not_responding or
//   timed_out, a window that is gone window_target_not_found.

#include "core/model/element.h"
#include "core/result.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

struct FindQuery {
    std::string name; // case-insensitive substring of the element's name; empty = any
    std::string role; // snake_case role as in Element::role; empty = any
    std::int32_t max_results = 50;
    std::chrono::milliseconds deadline{3000};
};

struct FindResult {
    std::vector<Element> elements;
    bool truncated = false; // more elements may match than were returned
};

// True when `name` contains `fragment`, ASCII letters compared without case (names are untrusted
// UTF-8; other bytes compare exactly, so a fragment never matches half a character). An empty
// fragment matches every name.
inline bool name_contains(std::string_view name, std::string_view fragment)
{
    auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (fragment.size() > name.size())
        return false;
    for (std::size_t start = 0; start + fragment.size() <= name.size(); ++start) {
        std::size_t i = 0;
        while (i < fragment.size() && fold(name[start + i]) == fold(fragment[i]))
            ++i;
        if (i == fragment.size())
            return true;
    }
    return false;
}

// Whether an element of this role and name answers the query (the one rule every finder applies).
inline bool query_matches(const FindQuery& query, std::string_view role, std::string_view name)
{
    return (query.role.empty() || query.role == role) && name_contains(name, query.name);
}

// invalid_arguments unless max_results and the deadline are positive.
inline Result<void> check_query(const FindQuery& query)
{
    if (query.max_results <= 0 || query.deadline.count() <= 0)
        return make_error(ErrorCode::invalid_arguments, "a search needs max_results > 0 and a positive deadline");
    return {};
}

class ElementFinder {
public:
    virtual ~ElementFinder() = default;
    virtual Result<FindResult> find(const WindowInfo&, const FindQuery&) = 0;
};

} // namespace nd_core
