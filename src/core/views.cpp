#include "core/views.h"

#include "core/utf8.h"

#include <algorithm>
#include <array>

namespace nd_core {

namespace {

using namespace std::string_view_literals;

constexpr std::array LANDMARK_ROLES = {
    "tool_bar"sv, "menu_bar"sv, "status_bar"sv, "tablist"sv, "page_tab_list"sv, "list"sv, "list_box"sv,
    "tree"sv, "table"sv, "tree_table"sv, "document"sv, "document_frame"sv, "document_web"sv, "document_text"sv,
    "split_pane"sv, "scroll_pane"sv, "landmark"sv, "navigation"sv, "form"sv, "article"sv, "header"sv, "footer"sv,
    "info_bar"sv, "notification"sv, "dialog"sv, "alert"sv, "file_chooser"sv,
};

constexpr std::array GENERIC_ROLES = {
    "panel"sv, "filler"sv, "section"sv, "group"sv, "grouping"sv, "layered_pane"sv, "internal_frame"sv,
    "viewport"sv, "tab"sv, "page_tab"sv,
};

template<typename Array>
bool contains(const Array& roles, std::string_view role)
{
    return std::find(roles.begin(), roles.end(), role) != roles.end();
}

View project_full(const Snapshot& s, const ViewRequest& req)
{
    View v{ViewKind::full, req.root, {}, false};
    const auto& root = s.elements[req.root];
    const std::int32_t end = req.root + root.descendant_count + 1;
    v.rows.reserve(static_cast<std::size_t>(std::min(req.max_elements, end - req.root)));
    for (std::int32_t i = req.root; i < end;) {
        const auto& e = s.elements[i];
        const std::int32_t rel = e.depth - root.depth;
        if (rel > req.max_depth) {
            v.truncated = true;
            i += e.descendant_count + 1;
            continue;
        }
        if (static_cast<std::int32_t>(v.rows.size()) >= req.max_elements) {
            v.truncated = true;
            break;
        }
        // In preorder a row's parent is always a row too: depth and count cuts skip whole subtrees.
        v.rows.push_back({i, i == req.root ? -1 : e.parent, rel});
        ++i;
    }
    return v;
}

View project_skeleton(const Snapshot& s, const ViewRequest& req)
{
    View v{ViewKind::skeleton, req.root, {}, false};
    const auto& root = s.elements[req.root];
    const std::int32_t end = req.root + root.descendant_count + 1;
    const auto count = static_cast<std::size_t>(end - req.root);
    // For each element: its nearest skeleton ancestor-or-self and that row's skeleton depth.
    std::vector<std::int32_t> anchor(count, -1);
    std::vector<std::int32_t> anchor_depth(count, -1);
    for (std::int32_t i = req.root; i < end;) {
        const auto& e = s.elements[i];
        const auto local = static_cast<std::size_t>(i - req.root);
        std::int32_t parent_anchor = -1;
        std::int32_t parent_depth = -1;
        if (i != req.root) {
            const auto pl = static_cast<std::size_t>(e.parent - req.root);
            parent_anchor = anchor[pl];
            parent_depth = anchor_depth[pl];
        }
        // The root is a row even when it is no container, but never when it is a secure field.
        const bool row = (i == req.root && !e.secure()) || qualifies_for_skeleton(e);
        if (!row) {
            anchor[local] = parent_anchor;
            anchor_depth[local] = parent_depth;
            ++i;
            continue;
        }
        const std::int32_t depth = parent_depth + 1;
        if (depth > req.max_depth) {
            // Everything below is deeper still.
            v.truncated = true;
            i += e.descendant_count + 1;
            continue;
        }
        if (static_cast<std::int32_t>(v.rows.size()) >= req.max_elements) {
            v.truncated = true;
            break;
        }
        anchor[local] = i;
        anchor_depth[local] = depth;
        v.rows.push_back({i, parent_anchor, depth});
        ++i;
    }
    return v;
}

} // namespace

bool is_landmark_role(std::string_view role) { return contains(LANDMARK_ROLES, role); }

bool is_generic_container_role(std::string_view role) { return contains(GENERIC_ROLES, role); }

bool qualifies_for_skeleton(const Element& e)
{
    // A container that manages its descendants counts even when none of them is on screen.
    if (e.secure() || (e.child_count == 0 && !e.managed.on))
        return false;
    if (is_landmark_role(e.role))
        return true;
    return is_generic_container_role(e.role) && !e.name.empty();
}

View project(const Snapshot& s, const ViewRequest& req)
{
    if (req.root < 0 || req.root >= s.size())
        return View{req.kind, req.root, {}, false};
    return req.kind == ViewKind::skeleton ? project_skeleton(s, req) : project_full(s, req);
}

std::string cut_text(std::string_view text, std::int32_t max_chars)
{
    if (max_chars <= 0)
        return {};
    std::int32_t chars = 0;
    std::size_t cut_at = 0;
    for (std::size_t i = 0; i < text.size(); ++chars) {
        if (chars == max_chars - 1)
            cut_at = i;
        if (chars == max_chars)
            return std::string(text.substr(0, cut_at)) + "\xE2\x80\xA6";
        // An invalid byte counts as one character (the JSON writer shows it as U+FFFD).
        auto len = utf8_sequence_length(text, i);
        i += len == 0 ? 1 : len;
    }
    return std::string(text);
}

} // namespace nd_core
