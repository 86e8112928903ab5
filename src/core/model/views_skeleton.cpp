// The skeleton view (docs/tokens.md, "Skeleton"). Literal §3 keeps every row that qualifies in
// preorder, which real pages defeat: a chat page spends its 60 rows on 33 "Reactions" groups and never
// reaches its composer. So the skeleton is built in four passes:
//   1. candidates: the rows that qualify (views.cpp), the headings of documents, and groups
//      of controls in unnamed containers, to max_depth skeleton levels (an unnamed
//      wrapper of one child that holds its only candidate gives way to that candidate), none of
//      them hidden or inside what is (STATE_HIDDEN);
//   2. folding: a run of alike siblings (same skeleton parent and role, and three or more with the
//      same label once digits are masked, or eight or more with the same child roles) becomes its
//      first element's row, which says how many and where the run ends; the rest of the run and what
//      lies below it go;
//   3. choosing: the root, then landmarks breadth-first, then named containers, then a document's
//      headings by level (its outline, views.h), then its unnamed lists and tables
//      (content_structure), then unnamed groups of controls (control_groups), until max_elements;
//   4. linking: the chosen rows in preorder, each under its nearest chosen ancestor.
// Row numbers stay the snapshot's, so tokens are shared with full views and drill-downs.

#include "core/model/views.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace nd_core {

namespace {

// Alike by label folds from three in a run; alike by shape alone only from eight, so that a few
// tabs or panels with their own names (General, Network, Privacy) stay rows of their own.
inline constexpr std::size_t MIN_FOLD_RUN = 3;
inline constexpr std::size_t MIN_SHAPE_RUN = 8;

// Controls that make an unnamed container a group of them.
inline constexpr std::int32_t MIN_GROUP_CONTROLS = 3;

struct Candidate {
    std::int32_t index = 0;
    std::int32_t parent = -1; // position in the candidate list of the nearest candidate ancestor
    std::int32_t depth = 0;   // skeleton levels below the root
    std::int32_t fold_count = 0;
    std::int32_t fold_last = -1;
    bool folded_away = false; // inside a run that another candidate stands for
    bool chosen = false;
    bool group = false;       // an unnamed group of controls (control_groups)
    bool heading = false;     // a heading of a document: its outline (views.h)
    bool content = false;     // an unnamed list or table of a document's text (content_structure)
};

// The label with every run of digits made one '#': "3 unread" and "12 unread" are alike.
std::string masked_label(std::string_view name)
{
    std::string out;
    out.reserve(name.size());
    for (std::size_t i = 0; i < name.size(); ++i) {
        const bool digit = name[i] >= '0' && name[i] <= '9';
        if (!digit)
            out.push_back(name[i]);
        else if (i == 0 || name[i - 1] < '0' || name[i - 1] > '9')
            out.push_back('#');
    }
    return out;
}

// The roles of an element's children in order, hashed: two messages built alike have one shape
// whatever their text says.
std::uint64_t shape_of(const Snapshot& s, std::int32_t index)
{
    const auto& e = s.elements[index];
    std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(e.child_count);
    const std::int32_t end = index + e.descendant_count + 1;
    for (std::int32_t c = index + 1; c < end; c += s.elements[c].descendant_count + 1) {
        for (char ch : s.elements[c].role)
            h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
        h = (h ^ '/') * 1099511628211ull;
    }
    return h;
}

bool alike_by_label(const Snapshot& s, std::int32_t a, std::int32_t b)
{
    const auto& x = s.elements[a];
    const auto& y = s.elements[b];
    return x.role == y.role && masked_label(skeleton_label(x)) == masked_label(skeleton_label(y));
}

bool alike_by_shape(const Snapshot& s, std::int32_t a, std::int32_t b)
{
    const auto& x = s.elements[a];
    const auto& y = s.elements[b];
    return x.role == y.role && x.child_count > 0 && shape_of(s, a) == shape_of(s, b);
}

// The end of the run of siblings alike to kids[start]: by label if that gives a run long enough,
// else by shape if that does, else start + 1.
std::size_t run_end(const Snapshot& s, const std::vector<Candidate>& cands, const std::vector<std::int32_t>& kids,
                    std::size_t start)
{
    const auto index = [&](std::size_t k) { return cands[static_cast<std::size_t>(kids[k])].index; };
    // Groups of controls are unnamed: alike by their shape alone.
    const auto group = [&](std::size_t k) { return cands[static_cast<std::size_t>(kids[k])].group; };
    // Headings fold by their labels only: every heading of a page has the shape of a heading.
    const auto heading = [&](std::size_t k) { return cands[static_cast<std::size_t>(kids[k])].heading; };
    std::size_t by_label = start + 1;
    while (by_label < kids.size() && !group(start) && !group(by_label) &&
           alike_by_label(s, index(start), index(by_label)))
        ++by_label;
    if (by_label - start >= MIN_FOLD_RUN)
        return by_label;
    if (heading(start))
        return start + 1;
    std::size_t by_shape = start + 1;
    while (by_shape < kids.size() && alike_by_shape(s, index(start), index(by_shape)))
        ++by_shape;
    return by_shape - start >= MIN_SHAPE_RUN ? by_shape : start + 1;
}

// A page of the window that is not on screen: a document not showing in a window that shows, and
// no frame of another page (an iframe scrolled out of view is part of a page a person scrolls).
bool is_hidden_document(const Snapshot& s, std::int32_t index, const Element& root)
{
    const auto& e = s.elements[index];
    return is_document_role(e.role) && root.is(STATE_SHOWING) && !e.is(STATE_SHOWING) &&
           !(e.parent >= 0 && in_document(s, e.parent));
}

// Native toolkits leave most containers unnamed and untyped (GTK's header bars and button grids
// are `panel`s and `filler`s), so a window whose regions are such containers had a skeleton of
// its root and its scroll panes alone, and a web page built of plain boxes (no landmark, no
// heading, no list: a shop's grid of cards) one of its document alone. An unnamed generic
// container is a group when at least MIN_GROUP_CONTROLS controls lie loose in it (a box with a
// click handler is none: Chromium names its actions only for the rows of a full read):
// below it through containers and other rows, but not inside a control (a button's inner
// button), another row of the skeleton (a landmark, a named container, a smaller group) or a
// popup (a menu, a combo box's list). So a header bar whose buttons sit in a few unnamed boxes
// is one group, and the box that only wraps it is none. A container that holds regions (a
// landmark, a named container, a document: Chromium's boxes around its toolbars and the page) is
// a region of regions, not a group, whatever controls lie beside them: it would push the regions
// it holds a level deeper. Indexed from the view's root.
std::vector<char> control_groups(const Snapshot& s, const ViewRequest& req, std::int32_t end)
{
    const auto n = static_cast<std::size_t>(end - req.root);
    std::vector<char> group(n, 0), holds_region(n, 0);
    std::vector<std::int32_t> loose(n, 0);
    const bool hides = hides_hidden(s, req.root);
    for (std::int32_t i = end - 1; i >= req.root; --i) {
        const auto& e = s.elements[i];
        const auto at = static_cast<std::size_t>(i - req.root);
        std::int32_t up = 0; // what it gives its parent
        // Hidden controls (a tab widget's other pages) make no group of what shows.
        if (e.role == "menu" || e.role == "popup_menu" || (hides && e.is(STATE_HIDDEN)))
            up = 0;
        else if (is_control(e))
            up = 1;
        else if (i != req.root && qualifies_for_skeleton(e))
            up = 0;
        else if (is_generic_container_role(e.role) && e.name.empty() && !e.secure() && !holds_region[at] &&
                 loose[at] >= MIN_GROUP_CONTROLS)
            group[at] = 1;
        else
            up = loose[at];
        if (i != req.root) {
            const auto parent = static_cast<std::size_t>(e.parent - req.root);
            loose[parent] += up;
            holds_region[parent] = static_cast<char>(holds_region[parent] || holds_region[at] ||
                                                     (qualifies_for_skeleton(e) && !is_control(e)));
        }
    }
    return group;
}

// An unnamed list or table inside a document is part of the text (a page's bullet lists, a table
// of options in a manual): Node.js's API pages hold 49 in `main`, and as landmarks they took every
// row before the page's headings. They come after the outline. Named ones, and those of native
// windows (GTK's lists and trees are rarely named), are landmarks like any other.
bool content_structure(const Element& e, bool in_document)
{
    using namespace std::string_view_literals;
    static constexpr std::string_view roles[] = {"list"sv, "list_box"sv, "table"sv, "tree"sv, "tree_table"sv};
    return in_document && e.name.empty() && std::find(std::begin(roles), std::end(roles), e.role) != std::end(roles);
}

// Every row that qualifies, each linked to its nearest qualifying ancestor, in preorder; pages no
// one sees are one row each.
std::vector<Candidate> all_candidates(const Snapshot& s, const ViewRequest& req)
{
    std::vector<Candidate> out;
    const auto& root = s.elements[req.root];
    const std::int32_t end = req.root + root.descendant_count + 1;
    const auto documents = document_flags(s, req.root, end);
    const auto groups = control_groups(s, req, end);
    const bool hides = hides_hidden(s, req.root);
    // For each element of the subtree: the position of its nearest candidate ancestor-or-self.
    std::vector<std::int32_t> anchor(static_cast<std::size_t>(end - req.root), -1);
    for (std::int32_t i = req.root; i < end;) {
        const auto& e = s.elements[i];
        const auto local = static_cast<std::size_t>(i - req.root);
        const std::int32_t parent = i == req.root ? -1 : anchor[static_cast<std::size_t>(e.parent - req.root)];
        // The root is a row even when it is no container, but never when it is a secure field.
        const bool group = groups[local] != 0;
        // A region named by its heading (`<section aria-labelledby>`, as MDN builds its pages)
        // says what the heading would: the heading is no row of its own.
        const bool heading = i != req.root && is_outline_heading(s, i) &&
                             !(parent >= 0 &&
                                 s.elements[out[static_cast<std::size_t>(parent)].index].name == skeleton_label(e));
        // What the toolkit does not display at all (a tab widget's other pages: Qt keeps them in the
        // tree) is no part of the window's outline, nor anything inside it; a document no one sees
        // keeps its one row (below).
        if (hides && i != req.root && e.is(STATE_HIDDEN) && !is_document_role(e.role)) {
            anchor[local] = parent;
            i += e.descendant_count + 1;
            continue;
        }
        const bool row = (i == req.root && !e.secure()) || qualifies_for_skeleton(e) || group || heading;
        if (!row) {
            anchor[local] = parent;
            // A select's popup (Qt's list of a combo box's options, a browser's suggestions) is
            // part of the control, not a region of the window.
            i += i != req.root && e.role == "combo_box" ? e.descendant_count + 1 : 1;
            continue;
        }
        anchor[local] = static_cast<std::int32_t>(out.size());
        out.push_back({i, parent, 0});
        out.back().group = group && i != req.root;
        out.back().heading = heading;
        out.back().content = i != req.root && content_structure(e, documents[local] != 0);
        // A document of a window that shows, itself not showing, is a page no one sees (a tab in
        // the background, Firefox's preloaded New Tab): its row says it is there, and its
        // landmarks do not take the rows of the page on screen. Drill down to see them.
        if (i != req.root && is_hidden_document(s, i, root)) {
            i += e.descendant_count + 1;
            continue;
        }
        ++i;
    }
    return out;
}

// The candidates to max_depth skeleton levels. A wrapper (an unnamed container whose one child
// holds its only candidate: Firefox's scroll pane around the page) is no row of its own: its
// content's row takes its place and level, so a page reads as deep in Firefox as in Chromium.
std::vector<Candidate> find_candidates(const Snapshot& s, const ViewRequest& req, bool& truncated)
{
    auto all = all_candidates(s, req);
    std::vector<std::int32_t> below(all.size(), 0);
    for (const auto& c : all)
        if (c.parent >= 0)
            ++below[static_cast<std::size_t>(c.parent)];
    constexpr std::int32_t CUT = -2;
    std::vector<Candidate> out;
    std::vector<std::int32_t> kept(all.size(), CUT); // the row in out that stands for each candidate
    for (std::size_t c = 0; c < all.size(); ++c) {
        auto cand = all[c];
        if (cand.parent < 0) {
            kept[c] = static_cast<std::int32_t>(out.size());
            out.push_back(cand);
            continue;
        }
        const auto up = kept[static_cast<std::size_t>(cand.parent)];
        if (up == CUT)
            continue; // below a row deeper than max_depth
        const auto& e = s.elements[cand.index];
        if (below[c] == 1 && e.child_count == 1 && e.name.empty()) {
            kept[c] = up; // a wrapper: its content links to what it hangs from
            continue;
        }
        cand.parent = up;
        cand.depth = out[static_cast<std::size_t>(up)].depth + 1;
        if (cand.depth > req.max_depth) {
            truncated = true;
            continue;
        }
        kept[c] = static_cast<std::int32_t>(out.size());
        out.push_back(cand);
    }
    return out;
}

// Folds runs of alike siblings; a folded-away candidate's descendants go with it.
void fold_runs(const Snapshot& s, std::vector<Candidate>& cands)
{
    // The candidates under each parent, in order.
    std::vector<std::vector<std::int32_t>> children(cands.size());
    for (std::size_t c = 0; c < cands.size(); ++c)
        if (cands[c].parent >= 0)
            children[static_cast<std::size_t>(cands[c].parent)].push_back(static_cast<std::int32_t>(c));
    for (const auto& kids : children) {
        for (std::size_t start = 0; start < kids.size();) {
            const std::size_t stop = run_end(s, cands, kids, start);
            const auto first = static_cast<std::size_t>(kids[start]);
            if (stop - start > 1) {
                cands[first].fold_count = static_cast<std::int32_t>(stop - start);
                cands[first].fold_last = cands[static_cast<std::size_t>(kids[stop - 1])].index;
                for (std::size_t k = start + 1; k < stop; ++k)
                    cands[static_cast<std::size_t>(kids[k])].folded_away = true;
            }
            start = stop;
        }
    }
    // Parents come before children, so one pass carries a fold down each subtree.
    for (auto& c : cands)
        if (c.parent >= 0 && cands[static_cast<std::size_t>(c.parent)].folded_away)
            c.folded_away = true;
}

// Chooses up to max_elements candidates: the root, landmarks, named containers, headings, a
// document's unnamed lists and tables, then groups of controls, each class breadth-first (by
// skeleton depth, then preorder; headings by their level, then preorder). Says whether any
// candidate was left out.
bool choose(const Snapshot& s, std::vector<Candidate>& cands, std::int32_t max_elements)
{
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < cands.size(); ++c)
        if (!cands[c].folded_away)
            order.push_back(c);
    auto rank = [&](std::size_t c) {
        if (cands[c].parent < 0)
            return 0;
        if (cands[c].group)
            return 5;
        if (cands[c].content)
            return 4;
        if (cands[c].heading)
            return 3;
        return is_landmark_role(s.elements[cands[c].index].role) ? 1 : 2;
    };
    // A heading whose level is unknown comes after every level.
    auto breadth = [&](std::size_t c) {
        if (!cands[c].heading)
            return cands[c].depth;
        const auto level = s.elements[cands[c].index].level;
        return level > 0 ? level : std::numeric_limits<std::int32_t>::max();
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (rank(a) != rank(b))
            return rank(a) < rank(b);
        return breadth(a) < breadth(b);
    });
    const auto take = std::min(order.size(), static_cast<std::size_t>(std::max(max_elements, 0)));
    for (std::size_t k = 0; k < take; ++k)
        cands[order[k]].chosen = true;
    return take < order.size();
}

// The first names inside an unnamed row (ViewRow::holds), in preorder, each once; what is hidden
// (when the view hides it) or secure, and what lies inside either, is passed over.
void find_holds(const Snapshot& s, std::int32_t at, bool hides, ViewRow& row)
{
    const auto end = std::min<std::int32_t>({at + s.elements[at].descendant_count + 1, at + 1 + HOLDS_SCAN, s.size()});
    for (auto k = at + 1; k < end;) {
        const auto& e = s.elements[k];
        if (e.secure() || (hides && e.is(STATE_HIDDEN))) {
            k += e.descendant_count + 1;
            continue;
        }
        const auto label = skeleton_label(e);
        if (!label.empty() && std::find(row.holds.begin(), row.holds.end(), label) == row.holds.end()) {
            if (row.holds.size() == HOLDS_MAX) {
                row.holds_more = true;
                return;
            }
            row.holds.emplace_back(label);
        }
        ++k;
    }
}

} // namespace

View project_skeleton(const Snapshot& s, const ViewRequest& req)
{
    View v{ViewKind::skeleton, req.root, {}, false};
    const bool hides = hides_hidden(s, req.root);
    auto cands = find_candidates(s, req, v.truncated);
    fold_runs(s, cands);
    if (choose(s, cands, req.max_elements))
        v.truncated = true;
    // Each chosen candidate's position in the view, for its children's links and depths.
    std::vector<std::int32_t> row_of(cands.size(), -1);
    for (std::size_t c = 0; c < cands.size(); ++c) {
        if (!cands[c].chosen)
            continue;
        std::int32_t up = cands[c].parent;
        while (up >= 0 && row_of[static_cast<std::size_t>(up)] < 0)
            up = cands[static_cast<std::size_t>(up)].parent;
        const auto index = cands[c].index;
        ViewRow row{index, -1, 0, cands[c].fold_count, cands[c].fold_last};
        if (is_outline_heading(s, index))
            row.section = section_end(s, index) - index;
        if (index != req.root && skeleton_label(s.elements[index]).empty())
            find_holds(s, index, hides, row);
        if (up >= 0) {
            const auto& above = v.rows[static_cast<std::size_t>(row_of[static_cast<std::size_t>(up)])];
            row.parent_index = above.index;
            row.depth = above.depth + 1;
        }
        row_of[c] = static_cast<std::int32_t>(v.rows.size());
        v.rows.push_back(row);
    }
    return v;
}

} // namespace nd_core
