#include "core/model/views.h"

#include "core/encode/utf8.h"

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

// Nothing in the subtree of elements[at] has a name, a text or a description, a focus or a secure
// field: a hidden one such says nothing a model could use (Chromium keeps dozens of unnamed hidden
// buttons in its toolbar, each with an unnamed image).
bool says_nothing(const Snapshot& s, std::int32_t at)
{
    const auto end = std::min<std::int32_t>(at + s.elements[at].descendant_count + 1, s.size());
    for (auto k = at; k < end; ++k) {
        const auto& e = s.elements[k];
        if (!e.name.empty() || !e.value.empty() || !e.description.empty() || e.is(STATE_FOCUSED) || e.secure() ||
            e.managed.on || e.children_cut)
            return false;
    }
    return true;
}

// A text leaf that may be read, and so left out: a static text or label (or text no one edits) with
// no children, none of them cut, and no secure field.
bool plain_text_leaf(const Element& e)
{
    const bool text = e.role == "static" || e.role == "label" || (e.role == "text" && !e.is(STATE_EDITABLE));
    return text && e.child_count == 0 && !e.children_cut && !e.secure();
}

// A box with one child that says nothing itself: no name, text or description, no focus, no secure
// field, not hidden, no click handler, its children neither cut nor managed. The two wrappers
// below add what their kind needs.
bool box_says_nothing(const Snapshot& s, std::int32_t at)
{
    const auto& e = s.elements[at];
    return e.child_count == 1 && at + 1 < s.size() && !e.children_cut && !e.managed.on && e.name.empty() &&
           e.value.empty() && e.description.empty() && !e.secure() && !e.is(STATE_FOCUSED) && !e.is(STATE_HIDDEN) &&
           !is_clickable(e);
}

// An unnamed box around one named text leaf and nothing else (Chromium gives `<strong>`, `<p>` and
// plain boxes their text as such a child: `paragraph ""`, then `static "the text"`, about 900 of
// the chat page's lines): the text's line says all, in the box's place. A box that says anything
// itself (a name, text, description, focus, a level, a click) or acts keeps its line.
bool is_text_wrapper(const Snapshot& s, std::int32_t at)
{
    using namespace std::string_view_literals;
    static constexpr std::array roles = {"static"sv, "label"sv, "paragraph"sv, "section"sv, "panel"sv, "filler"sv};
    const auto& e = s.elements[at];
    return box_says_nothing(s, at) && e.descendant_count == 1 && e.level <= 0 && contains(roles, e.role) &&
           plain_text_leaf(s.elements[at + 1]) && !s.elements[at + 1].name.empty();
}

// A named text leaf that says its parent's name again (Chromium gives a link or a heading its text
// as such a child: `link "Install"`, then `static "Install"`, 289 of a documentation page's 989
// lines): the parent's line says it.
bool repeats_parent(const Snapshot& s, std::int32_t at)
{
    const auto& e = s.elements[at];
    return e.parent >= 0 && plain_text_leaf(e) && !e.name.empty() && (e.value.empty() || e.value == e.name) &&
           e.description.empty() && !e.is(STATE_FOCUSED) && !is_clickable(e) && s.elements[e.parent].name == e.name;
}

// An unnamed item of a page's list around one control and nothing else it says (`<li><a>`: the
// Rust book's table of contents, 142 of its 700 lines): the control's line says all, in the
// item's place. An item that is selected, expanded, checked or focused, or says or does anything
// itself, keeps its line; so do native windows' items (a GTK or Qt row is what a click selects).
bool is_item_wrapper(const Snapshot& s, std::int32_t at, bool in_page)
{
    const auto& e = s.elements[at];
    return in_page && e.role == "list_item" && box_says_nothing(s, at) && !e.is(STATE_SELECTED) &&
           !e.is(STATE_EXPANDED) && !e.is(STATE_CHECKED) && is_control(s.elements[at + 1]);
}

View project_full(const Snapshot& s, const ViewRequest& req)
{
    View v{ViewKind::full, req.root, {}, false};
    const std::int32_t end = section_end(s, req.root);
    v.rows.reserve(static_cast<std::size_t>(std::min(req.max_elements, end - req.root)));
    // A heading's section holds elements outside the heading's subtree: a row's parent is the
    // element's parent when that is a row of the view, else none, and its depth follows from that.
    // For a subtree, in preorder, a row's parent is always a row too: cuts skip whole subtrees.
    std::vector<std::int32_t> view_depth(static_cast<std::size_t>(end - req.root), -1);
    // Inside a hidden element below the root (its own row lists it; what lies below has no line).
    std::vector<char> inside_hidden(static_cast<std::size_t>(end - req.root), 0);
    // Inside a document, itself included (ViewRow::clickable).
    const auto in_page = document_flags(s, req.root, end);
    // A wrapper whose line is its one child's (ViewRow::lift), and how many levels up a row's
    // line goes for the wrappers above it.
    std::vector<char> lifts(static_cast<std::size_t>(end - req.root), 0);
    std::vector<std::int32_t> lift_of(static_cast<std::size_t>(end - req.root), 0);
    const bool hides = hides_hidden(s, req.root);
    for (std::int32_t i = req.root; i < end;) {
        const auto& e = s.elements[i];
        const auto local = static_cast<std::size_t>(i - req.root);
        const bool parent_in = i != req.root && e.parent >= req.root;
        const auto up = static_cast<std::size_t>(parent_in ? e.parent - req.root : 0);
        const bool hidden_above =
            parent_in && (inside_hidden[up] || (hides && e.parent != req.root && s.elements[e.parent].is(STATE_HIDDEN)));
        inside_hidden[local] = hidden_above;
        const bool parent_row = parent_in && view_depth[up] >= 0;
        const std::int32_t rel = parent_row ? view_depth[up] + 1 : 0;
        if (rel > req.max_depth) {
            v.truncated = true;
            i += e.descendant_count + 1;
            continue;
        }
        if (static_cast<std::int32_t>(v.rows.size()) >= req.max_elements) {
            v.truncated = true;
            break;
        }
        view_depth[local] = rel;
        ViewRow row{i, parent_row ? e.parent : -1, rel};
        const bool hidden_top = hides && !hidden_above && i != req.root && e.is(STATE_HIDDEN);
        // Only when its child is a row too: not past max_depth, nor past max_elements.
        const bool child_fits = rel < req.max_depth && static_cast<std::int32_t>(v.rows.size()) + 2 <= req.max_elements;
        lifts[local] = static_cast<char>(i != req.root && !hidden_above && !hidden_top && child_fits &&
                                         (is_text_wrapper(s, i) || is_item_wrapper(s, i, in_page[local] != 0)));
        row.lift = parent_row ? lift_of[up] + (lifts[up] ? 1 : 0) : 0;
        lift_of[local] = row.lift;
        row.unlisted = hidden_above || lifts[local] ||
                       (i != req.root && (is_hidden_shell(e) || is_blank_text(e) || (parent_row && repeats_parent(s, i)))) ||
                       (hidden_top && says_nothing(s, i));
        row.hides_below = hidden_top && !row.unlisted && e.descendant_count > 0;
        row.clickable = in_page[local] && is_clickable(e);
        v.unlisted += row.unlisted ? 1 : 0;
        v.rows.push_back(row);
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

bool is_control(const Element& e)
{
    static constexpr std::array roles = {"push_button"sv, "push_button_menu"sv, "toggle_button"sv, "radio_button"sv,
        "check_box"sv, "combo_box"sv, "spin_button"sv, "slider"sv, "entry"sv, "password_text"sv, "link"sv};
    return contains(roles, e.role) || (e.role == "text" && e.is(STATE_EDITABLE));
}

bool is_clickable(const Element& e)
{
    return !e.actions.empty() && e.actions.front() == "click" && !is_control(e) &&
           e.role.find("menu") == std::string::npos;
}

bool is_hidden_shell(const Element& e)
{
    return e.child_count == 0 && !e.children_cut && !e.managed.on && e.name.empty() && e.value.empty() &&
           e.description.empty() && !e.is(STATE_SHOWING) && !e.is(STATE_FOCUSED) && !e.secure() && !is_control(e);
}

bool is_blank_text(const Element& e)
{
    return plain_text_leaf(e) && e.name.empty() && e.value.empty() && e.description.empty() && !e.is(STATE_FOCUSED);
}

bool hides_hidden(const Snapshot& s, std::int32_t root)
{
    return s.size() > 0 && root >= 0 && root < s.size() && !s.elements[0].is(STATE_HIDDEN) &&
           !s.elements[root].is(STATE_HIDDEN);
}

bool is_document_role(std::string_view role) { return role == "document" || role.substr(0, 9) == "document_"; }

std::vector<char> document_flags(const Snapshot& s, std::int32_t root, std::int32_t end)
{
    std::vector<char> flags(static_cast<std::size_t>(std::max(end - root, 0)), 0);
    for (std::int32_t i = root; i < end; ++i) {
        const auto& e = s.elements[i];
        flags[static_cast<std::size_t>(i - root)] = static_cast<char>(
            i != root && e.parent >= root ? is_document_role(e.role) || flags[static_cast<std::size_t>(e.parent - root)]
                                          : in_document(s, i));
    }
    return flags;
}

bool in_document(const Snapshot& s, std::int32_t index)
{
    for (auto at = index; at >= 0; at = s.elements[at].parent)
        if (is_document_role(s.elements[at].role))
            return true;
    return false;
}

std::string_view skeleton_label(const Element& e)
{
    if (e.name.empty() && e.role == "heading" && !e.secure())
        return e.value;
    return e.name;
}

bool is_outline_heading(const Snapshot& s, std::int32_t index)
{
    const auto& e = s.elements[index];
    return e.role == "heading" && !e.secure() && !skeleton_label(e).empty() && in_document(s, index);
}

std::int32_t section_end(const Snapshot& s, std::int32_t index)
{
    const auto& h = s.elements[index];
    const std::int32_t own_end = index + h.descendant_count + 1;
    if (!is_outline_heading(s, index))
        return own_end;
    // The section stays inside the region that holds the heading.
    std::int32_t bound = s.size();
    for (auto up = h.parent; up >= 0; up = s.elements[up].parent) {
        const auto& a = s.elements[up];
        if (qualifies_for_skeleton(a) || is_document_role(a.role)) {
            bound = up + a.descendant_count + 1;
            break;
        }
    }
    // A heading whose level is unknown ends, and is ended by, any heading. The section ends
    // before the next one's outermost container that begins after this heading: the box around
    // the next chapter's heading, the next card of a list whose cards each have a heading.
    for (std::int32_t j = own_end; j < bound; ++j) {
        const auto& e = s.elements[j];
        if (e.role != "heading" || (h.level > 0 && e.level > 0 && e.level > h.level))
            continue;
        std::int32_t end = j;
        for (auto up = e.parent; up >= own_end; up = s.elements[up].parent)
            end = up;
        return end;
    }
    return bound;
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
