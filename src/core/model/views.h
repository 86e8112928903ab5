#pragma once

// Views are projections of one snapshot (§3): the full view, the skeleton view, and either of them
// drilled down from a root element. A view never reads the app; it picks rows of the snapshot, so
// a row's element_index (and token) is the same in every view of the same structure.

#include "core/model/snapshot.h"

#include <string>
#include <vector>

namespace nd_core {

enum class ViewKind : std::uint8_t { full, skeleton };

// Defaults and caps (docs/tokens.md). The contract lost the skeleton's default depth; we chose 4.
inline constexpr std::int32_t FULL_DEFAULT_MAX_ELEMENTS = 250;
inline constexpr std::int32_t FULL_DEFAULT_MAX_DEPTH = 25;
inline constexpr std::int32_t SKELETON_DEFAULT_MAX_ELEMENTS = 60;
inline constexpr std::int32_t SKELETON_MAX_ELEMENTS = 200;
inline constexpr std::int32_t SKELETON_DEFAULT_MAX_DEPTH = 4;
inline constexpr std::int32_t LABEL_MAX_CHARS = 80;
inline constexpr std::size_t HOLDS_MAX = 3;          // names an unnamed skeleton row says it holds
inline constexpr std::int32_t HOLDS_MAX_CHARS = 24;  // of each
inline constexpr std::int32_t HOLDS_SCAN = 400;      // elements looked at for them
inline constexpr std::int32_t NAME_MAX_CHARS = 200;
inline constexpr std::int32_t VALUE_MAX_CHARS = 1000;

struct ViewRequest {
    ViewKind kind = ViewKind::full;
    std::int32_t root = 0; // element index of the view's root
    std::int32_t max_elements = FULL_DEFAULT_MAX_ELEMENTS;
    std::int32_t max_depth = FULL_DEFAULT_MAX_DEPTH; // levels below the root
};

struct ViewRow {
    std::int32_t index = 0;         // element_index in the snapshot
    std::int32_t parent_index = -1; // nearest ancestor that is also a row; -1 for the view's root
    std::int32_t depth = 0;         // depth in the view (skeleton levels for a skeleton)
    // A skeleton row that stands for a run of alike siblings: how many (0 when it stands for itself)
    // and the element_index of the run's last one. The row is the run's first element.
    std::int32_t fold_count = 0;
    std::int32_t fold_last = -1;
    // A skeleton row of a document's heading: how many elements its section holds, what a
    // drill-down from it reads (section_end). 0 for any other row.
    std::int32_t section = 0;
    // A full view's row that has no line in its text: a hidden shell, or an element inside a hidden
    // one (hides_below). Its JSON row stays, so that a whole read's elements[i] stays element i.
    bool unlisted = false;
    // A full view's hidden element (STATE_HIDDEN) below the view's root and inside no other: its
    // line says so and how many lie below it, which have none (docs/tokens.md, "Full reads").
    bool hides_below = false;
    // A full view's row of an element inside a document that is no control yet runs a click as its
    // default action (is_clickable: a page's `<div onclick>`): its line says so. Outside documents
    // Gecko's own boxes answer clicks everywhere, and toolkits' controls carry their roles.
    bool clickable = false;
    // A full view's row below unnamed wrappers that have no line (unlisted): a box around one named
    // text leaf (a `paragraph ""` or `static ""`, Chromium's way with `<p>` and `<strong>`), a
    // page's list item around one control (`<li><a>`). The wrapper's child takes its place: its
    // line, and those below it, go this many levels up in the text.
    std::int32_t lift = 0;
    // An unnamed skeleton row below the root: the first names a person reads inside it (at most
    // HOLDS_MAX, none hidden or secure), so that a model can tell its groups apart without a
    // drill-down; holds_more when it holds other names too.
    std::vector<std::string> holds;
    bool holds_more = false;

    bool operator==(const ViewRow&) const = default;
};

struct View {
    ViewKind kind = ViewKind::full;
    std::int32_t root = 0;
    std::vector<ViewRow> rows;
    bool truncated = false; // cut by max_elements or max_depth
    std::int32_t unlisted = 0; // rows without a line in the text (ViewRow::unlisted)
};

View project(const Snapshot&, const ViewRequest&);
View project_skeleton(const Snapshot&, const ViewRequest&); // views_skeleton.cpp

// The skeleton's row rule (§3): the window, landmark roles with children, and named generic
// containers with children. Secure fields never qualify. The skeleton adds unnamed groups of
// controls, which depend on what lies below them; which rows it shows first, and how runs of alike
// siblings fold, is docs/tokens.md's "Skeleton" (views_skeleton.cpp).
bool is_landmark_role(std::string_view role);
bool is_generic_container_role(std::string_view role);
bool qualifies_for_skeleton(const Element&);

// A control a model acts on: a button of any kind, a check box, radio, combo box, spin button,
// slider, entry, editable text or link.
bool is_control(const Element&);
// An element that is none of those, yet whose default action is a click: a web page's box with a
// click handler (`<div onclick>`: Chromium and Gecko name that action `click`, a plain box's
// `doDefault` or none; Chromium names actions only for the rows of a full read, so the skeleton
// cannot count them). Menu items, whose default action is a click in GTK 3, are not.
bool is_clickable(const Element&);
// An element no one sees and nothing can be done with: no name, text, description or children,
// not showing, not focused, no control and no secure field (Gecko's closed popups, 34 of
// Thunderbird's 72 elements; Chromium's hidden notification views). A full view's text leaves it
// out below the view's root, and the view counts it; its JSON rows keep it, so that a whole read's
// elements[i] stays element i (docs/tokens.md, "Full reads").
bool is_hidden_shell(const Element&);
// A text leaf with no text: Chromium's whitespace between a page's inline links (`static ""`,
// showing, a few pixels wide). Not editable, not focused, not secure. A full view's text leaves it out below the view's root too, counted with the shells.
bool is_blank_text(const Element&);
// Whether the snapshot's hidden states may be trusted below `root`: the window's root and `root`
// are not hidden themselves (a toolkit that never says visible would hide everything), so that a
// drill-down into a hidden page shows it whole.
bool hides_hidden(const Snapshot&, std::int32_t root);

// A document's outline (docs/tokens.md, "Headings"): a heading inside a document, with a name
// or a text, is a skeleton row, and a view drilled down from it reads its section: the heading and what follows
// it in page order up to the next heading of its level or higher (a lower number), or the box
// around that heading that begins after this one, within the nearest landmark, named container
// or document that holds it.
bool is_document_role(std::string_view role);
bool in_document(const Snapshot&, std::int32_t index);
// in_document of each element from `root` to one past `end`, in one pass, indexed from `root`:
// an element whose parent lies before `root` (a heading's section) is asked on its own.
std::vector<char> document_flags(const Snapshot&, std::int32_t root, std::int32_t end);
bool is_outline_heading(const Snapshot&, std::int32_t index);
// What a skeleton row shows as its label: the element's name; for a heading without one (a word
// processor's heading paragraph, whose text is its value), its text.
std::string_view skeleton_label(const Element&);
// One past the section's last element; for an element that is no outline heading, one past its
// last descendant.
std::int32_t section_end(const Snapshot&, std::int32_t index);

// Cuts UTF-8 text to at most max_chars characters; a cut text ends with "…" (counted).
std::string cut_text(std::string_view text, std::int32_t max_chars);

} // namespace nd_core
