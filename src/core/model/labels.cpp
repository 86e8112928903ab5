#include "core/model/labels.h"

#include "core/model/policy.h"
#include "core/model/views.h"

#include <algorithm>
#include <utility>

namespace nd_core {

namespace {

// How far below an element its label is looked for: a button's label sits one or two levels down
// (button > box > label); farther than that it belongs to something else.
inline constexpr std::int32_t LABEL_SEARCH_ELEMENTS = 24;
inline constexpr std::int32_t LABEL_SEARCH_DEPTH = 3;

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_word(char c) { return is_upper(c) || is_lower(c) || (c >= '0' && c <= '9'); }

// The last words of the type names apps give their own widgets (EditorPage, EditorSourceView,
// NautilusWindowSlot): a name made of two or more capitalised words run together that ends in one
// of these is a class name whatever its prefix. A person's label of that shape ("GitHub",
// "PowerPoint", "JavaScript") does not end in one of them.
inline constexpr std::string_view WIDGET_WORDS[] = {
    "Area", "Bar", "Bin", "Box", "Button", "Cell", "Chooser", "Column", "Container", "Controls",
    "Dialog", "Entry", "Frame", "Grid", "Header", "Indicator", "Item", "Label", "List", "Menu",
    "Overlay", "Page", "Pane", "Paned", "Popover", "Revealer", "Row", "Scale", "Selector", "Sidebar",
    "Slot", "Stack", "Switcher", "Tab", "Toolbar", "View", "Widget", "Window"};

// The last word of an app's own widget type used as a name ("Page" of "EditorPage"), else empty:
// CamelCase of at least two words, letters and digits only, ending in a widget word. A word starts
// at a capital after a small letter or digit, or at the last capital of a run that a small letter
// follows ("HTMLView": "HTML", "View").
std::string_view app_class_tail(std::string_view name)
{
    if (name.size() < 4 || !is_upper(name[0]) || !std::all_of(name.begin(), name.end(), is_word))
        return {};
    std::size_t last = 0, words = 0;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (is_upper(name[i]) &&
            (i == 0 || !is_upper(name[i - 1]) || (i + 1 < name.size() && is_lower(name[i + 1])))) {
            last = i;
            ++words;
        }
    if (words < 2 || last == 0)
        return {};
    const auto tail = name.substr(last);
    const bool widget = std::find(std::begin(WIDGET_WORDS), std::end(WIDGET_WORDS), tail) != std::end(WIDGET_WORDS);
    return widget ? tail : std::string_view{};
}

bool is_app_class_name(std::string_view name) { return !app_class_tail(name).empty(); }

// A toolkit's own class: Gtk*, Gdk*, Adw*, Hdy*, Qt's Q* (QPushButton, QWidget; not "QR code" or
// "Quit") and a GJS app's own, which GJS registers as "Gjs_" and the class ("Gjs_SidebarRow" in
// gnome-characters).
bool is_toolkit_class_name(std::string_view name)
{
    std::size_t prefix = 0;
    for (std::string_view p : {"Gtk", "Gdk", "Adw", "Hdy", "Gjs_"})
        if (name.substr(0, p.size()) == p)
            prefix = p.size();
    if (prefix == 0 && name.size() > 2 && name[0] == 'Q' && is_upper(name[1]) && is_lower(name[2]))
        prefix = 1;
    if (prefix == 0 || name.size() <= prefix || !is_upper(name[prefix]))
        return false;
    return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix), name.end(), is_word);
}

// Roles whose name is the text they show (a cell, an item, a label, a tab): an app's own text of a
// class name's shape ("MainWindow", "SettingsDialog" in a list of a program's parts) is what a
// person reads there. Such a name counts as a class name only when its last word names the
// element's own kind (a cell named "NautilusGridCell"); a toolkit's prefix (Gtk*, Q*) always counts.
struct ContentRole {
    std::string_view role;
    std::string_view kinds[3];
};
inline constexpr ContentRole CONTENT_ROLES[] = {
    {"table_cell", {"Cell", "Item", "Row"}}, {"list_item", {"Cell", "Item", "Row"}},
    {"tree_item", {"Cell", "Item", "Row"}}, {"table_row", {"Row", "Item", ""}},
    {"table_column_header", {"Header", "Cell", ""}}, {"table_row_header", {"Header", "Cell", ""}},
    {"column_header", {"Header", "Cell", ""}}, {"row_header", {"Header", "Cell", ""}},
    {"label", {"Label", "", ""}}, {"static", {"Label", "", ""}}, {"caption", {"Label", "", ""}},
    {"heading", {"", "", ""}}, {"paragraph", {"", "", ""}}, {"link", {"", "", ""}},
    {"page_tab", {"Tab", "Page", ""}}, {"menu_item", {"Item", "", ""}},
    {"check_menu_item", {"Item", "", ""}}, {"radio_menu_item", {"Item", "", ""}}};

bool shows_its_text(std::string_view role)
{
    return std::any_of(std::begin(CONTENT_ROLES), std::end(CONTENT_ROLES), [&](const ContentRole& c) { return c.role == role; });
}

// Whether `name`, read on an element of `role`, is a class name rather than the text it shows.
bool names_a_class(std::string_view role, std::string_view name)
{
    if (is_toolkit_class_name(name))
        return true;
    const auto tail = app_class_tail(name);
    if (tail.empty())
        return false;
    const auto content = std::find_if(std::begin(CONTENT_ROLES), std::end(CONTENT_ROLES),
                                      [&](const ContentRole& c) { return c.role == role; });
    if (content == std::end(CONTENT_ROLES))
        return true;
    return std::any_of(std::begin(content->kinds), std::end(content->kinds),
                       [&](std::string_view kind) { return !kind.empty() && kind == tail; });
}

bool is_label_role(std::string_view role)
{
    return role == "label" || role == "static" || role == "heading" || role == "caption" || role == "paragraph";
}

// Names a toolkit gives every element of a kind, saying only what the role says: GTK4 names each
// notebook tab "Tab" and puts what a person reads ("Info", "Source") in the label inside it.
struct Placeholder {
    std::string_view role;
    std::string_view name;
};
inline constexpr Placeholder PLACEHOLDERS[] = {
    {"page_tab", "Tab"}, {"push_button", "Button"}, {"toggle_button", "Button"}, {"list_item", "Item"},
    {"list_item", "List item"}, {"table_cell", "Cell"}, {"menu_item", "Item"}, {"menu_item", "Menu item"}};

bool is_placeholder(std::string_view role, std::string_view name)
{
    return std::any_of(std::begin(PLACEHOLDERS), std::end(PLACEHOLDERS),
                       [&](const Placeholder& p) { return p.role == role && p.name == name; });
}

// Whether a label below the element is its own (a button's, a cell's, a tab's) rather than the
// first of the many things a container holds: a list that GTK4 names "GtkListView" is not named by
// its first item.
bool labelled_from_below(std::string_view role)
{
    if (role == "page_tab" || role == "tab")
        return true;
    return !is_landmark_role(role) && !is_generic_container_role(role);
}

// The first readable name among the element's first descendants, or empty. `widget_labels_only`
// takes a toolkit's label widget only (role label), not a page's text.
std::string_view child_label(const std::vector<Element>& elements, std::size_t index, bool widget_labels_only = false)
{
    const auto& e = elements[index];
    if (!labelled_from_below(e.role))
        return {};
    const std::size_t end = index + 1 + static_cast<std::size_t>(std::min(e.descendant_count, LABEL_SEARCH_ELEMENTS));
    for (std::size_t i = index + 1; i < end && i < elements.size(); ++i) {
        const auto& d = elements[i];
        // Below the element, so not rewritten yet: trimmed here.
        const auto name = trim_space(d.name);
        if (d.depth - e.depth > LABEL_SEARCH_DEPTH || !is_label_role(d.role) || name.empty() || names_a_class(d.role, name))
            continue;
        if (widget_labels_only && d.role != "label")
            continue;
        return name;
    }
    return {};
}

// Rows a toolkit leaves unnamed though a person reads them by the label they hold: a GTK list box's
// row (Nautilus's sidebar, gedit's colour schemes), a GTK 4 list view's item. Only a toolkit's
// label widget names them: a web page's list item says its text in its own children, read already.
bool named_by_its_label(std::string_view role) { return role == "list_item" || role == "tree_item"; }

// Fields a label names from beside them when the toolkit does not relate the two (a Qt QLabel
// without a buddy, a GTK label without a mnemonic widget): the field's value is what it holds, never
// its name.
bool is_field_role(std::string_view role)
{
    return role == "text" || role == "entry" || role == "password_text" || role == "spin_button" ||
           role == "combo_box" || role == "slider" || role == "date_editor" || role == "calendar" ||
           role == "autocomplete";
}

// Controls a person tells apart by their tooltip when they show an icon and no text (a tool
// button, a search bar's check boxes): GTK3, GTK4 and Qt put the tooltip in the description.
// Not fields: what their description says may be their value (GTK3's scale describes itself "50.0").
bool named_by_tooltip(std::string_view role)
{
    return role == "push_button" || role == "toggle_button" || role == "check_box" ||
           role == "radio_button" || role == "menu_item" || role == "check_menu_item" ||
           role == "radio_menu_item" || role == "link" || role == "page_tab" || role == "image" || role == "icon";
}

// The text a person reads in a tooltip: its first line, spaces collapsed, and of a rich-text one
// (it starts with a tag: Qt's "<p style='white-space:pre'>Calculate number of words\n(...)</p>"),
// without its markup. A plain one keeps what it says ("Zoom < 100%").
std::string tooltip_text(std::string_view description)
{
    const bool rich = trim_space(description).substr(0, 1) == "<";
    std::string out;
    bool in_tag = false, space = false;
    for (std::size_t i = 0; i < description.size(); ++i) {
        const char c = description[i];
        if (rich && c == '<' && description.find('>', i) != std::string_view::npos) {
            in_tag = true;
            continue;
        }
        if (in_tag) {
            in_tag = c != '>';
            continue;
        }
        if (c == '\n' || c == '\r') {
            if (!out.empty())
                break;
            continue;
        }
        if (c == ' ' || c == '\t') {
            space = !out.empty();
            continue;
        }
        if (std::exchange(space, false))
            out += ' ';
        out += c;
    }
    if (!rich)
        return out;
    for (const auto& [entity, text] : {std::pair<std::string_view, std::string_view>{"&amp;", "&"}, {"&lt;", "<"},
                                       {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&nbsp;", " "}})
        for (auto at = out.find(entity); at != std::string::npos; at = out.find(entity, at + text.size()))
            out.replace(at, entity.size(), text);
    return out;
}

// A form's box or grid is small; a parent with more children is a list, whose order pairs nothing.
inline constexpr std::int32_t FIELD_BOX_CHILDREN = 32;

// For an unnamed field, the label a person reads beside it, found by the order of its parent's
// children when that order leaves no doubt, else empty. The labels and fields among the children
// (others are skipped) must alternate, each pair side by side:
// - label first (a box "Translation [field] [button]", a GTK4 or Qt grid filled row by row): each
//   label names the field right after it;
// - field first, in two pairs or more (GTK3's grid lists its children last-added first, so zenity's
//   form reads "[entry] Name [password] Secret"): each field is named by the label right after it.
//   A single field and label ("[10] px") is a unit, not a name, unless the label ends in a colon
//   ("[8] Tab width:").
// A grid listed by columns (gtk3-widget-factory's "label label [spin] [spin]", qt6ct's five labels
// then their fields) names none: only the places on screen would pair them, and names must not
// depend on frames a read may defer. Only a label names: a paragraph or static text before a web
// form's field is prose.
std::string_view box_label(const std::vector<Element>& elements, std::size_t index)
{
    const auto parent = elements[index].parent;
    if (parent < 0 || static_cast<std::size_t>(parent) >= index)
        return {};
    const auto& box = elements[static_cast<std::size_t>(parent)];
    if (box.child_count > FIELD_BOX_CHILDREN)
        return {};
    struct Kid {
        std::size_t at;   // index in elements
        std::int32_t nth; // place among the parent's children
        bool label;
    };
    Kid kids[FIELD_BOX_CHILDREN];
    std::size_t count = 0;
    std::int32_t nth = 0;
    const std::size_t end = static_cast<std::size_t>(parent) + 1 + static_cast<std::size_t>(std::max(box.descendant_count, 0));
    // The parent's children, each subtree skipped by its descendant count.
    for (std::size_t c = static_cast<std::size_t>(parent) + 1; c < end && c < elements.size();
         c += 1 + static_cast<std::size_t>(std::max(elements[c].descendant_count, 0)), ++nth) {
        if (nth >= FIELD_BOX_CHILDREN)
            return {};
        const bool label = elements[c].role == "label";
        if (label || is_field_role(elements[c].role))
            kids[count++] = {c, nth, label};
    }
    if (count < 2 || count % 2 != 0)
        return {};
    const bool label_first = kids[0].label;
    // A single field before its label is a unit ("[10] px"), unless the label ends in a colon, which
    // only a name does ("[8] Tab width:": GTK3's grid listing gedit's one field of a row first).
    if (!label_first && count < 4 && !trim_space(elements[kids[1].at].name).ends_with(':'))
        return {};
    std::string_view found;
    for (std::size_t k = 0; k < count; k += 2) {
        const auto& a = kids[k];
        const auto& b = kids[k + 1];
        if (a.label != label_first || b.label == label_first || b.nth != a.nth + 1)
            return {};
        const auto& label = label_first ? a : b;
        const auto& field = label_first ? b : a;
        if (field.at == index) {
            const auto& named = elements[label.at];
            found = names_a_class(named.role, named.name) ? std::string_view{} : trim_space(named.name);
        }
    }
    return found;
}

bool has_descendant_named(const std::vector<Element>& elements, std::size_t index, std::string_view name)
{
    const auto& e = elements[index];
    const std::size_t end = index + 1 + static_cast<std::size_t>(std::min(e.descendant_count, LABEL_SEARCH_ELEMENTS));
    for (std::size_t i = index + 1; i < end && i < elements.size(); ++i)
        if (elements[i].name == name)
            return true;
    return false;
}

// The text a GTK label with `use-underline` shows: each single '_' marks the next character as a
// mnemonic and is not shown; "__" shows one '_'. GTK 4 leaves the marks in names taken from such
// labels ("_Inform", a stack page's "Page _1").
std::string without_mnemonics(std::string_view name)
{
    std::string out;
    out.reserve(name.size());
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '_' && i + 1 < name.size())
            ++i;
        out += name[i];
    }
    return out;
}

// A name longer than this is prose, not a button's label run together with itself.
inline constexpr std::size_t REPEAT_MAX = 256;

// The label a name repeats, when the name is one text twice: "7 7", or GTK 4's "_Inform Inform"
// (the button's mnemonic text, then its child label's). Empty when it is not.
std::string_view repeated_half(std::string_view name)
{
    if (name.size() > REPEAT_MAX)
        return {};
    for (auto space = name.find(' '); space != std::string_view::npos; space = name.find(' ', space + 1)) {
        const auto first = name.substr(0, space), second = name.substr(space + 1);
        if (first.size() < second.size())
            continue;
        if (first == second || (first.size() > second.size() && first.find('_') != std::string_view::npos &&
                                 without_mnemonics(first) == second))
            return second;
    }
    return {};
}

} // namespace

bool is_class_name(std::string_view name) { return is_toolkit_class_name(name) || is_app_class_name(name); }

void humanize_names(std::vector<Element>& elements)
{
    // Names with mnemonic marks whose shown text a label below proved: (marked, shown).
    std::vector<std::pair<std::string, std::string>> unmarked;
    for (std::size_t i = 0; i < elements.size(); ++i) {
        auto& e = elements[i];
        // Padding no one reads ("Undo      ": GTK3 menu items that leave room for a shortcut).
        if (const auto trimmed = trim_space(e.name); trimmed.size() != e.name.size())
            e.name = std::string(trimmed);
        if (e.name.empty()) {
            if (is_field_role(e.role))
                e.name = std::string(box_label(elements, i));
            if (e.name.empty() && named_by_tooltip(e.role) && !e.description.empty() && !is_class_name(e.description))
                e.name = tooltip_text(e.description);
            if (e.name.empty() && named_by_its_label(e.role))
                e.name = std::string(child_label(elements, i, true));
            continue;
        }
        if (names_a_class(e.role, e.name)) {
            // A row, cell, item or tab shows its label: that is what a person reads, before any
            // description (gnome-characters describes its rows "Animals & Nature Sidebar Row").
            const auto below = child_label(elements, i);
            if (shows_its_text(e.role) && !below.empty())
                e.name = std::string(below);
            else if (!e.description.empty() && !is_class_name(e.description))
                e.name = e.description;
            else
                e.name = std::string(below);
            continue;
        }
        // "Tab": the label inside says which (a button labelled "Button" keeps it: its label says so too).
        if (is_placeholder(e.role, e.name)) {
            if (const auto below = child_label(elements, i); !below.empty())
                e.name = std::string(below);
            continue;
        }
        // "7 7", "_Inform Inform": the button's name and its child label, run together.
        if (const auto half = repeated_half(e.name); !half.empty() && has_descendant_named(elements, i, half)) {
            const auto raw = e.name;
            e.name = std::string(half);
            if (raw.find('_') != std::string::npos)
                unmarked.emplace_back(raw, e.name);
            continue;
        }
        // "Page _1" over a label "Page 1": the label shows the text without its mnemonic mark.
        if (e.name.find('_') != std::string::npos) {
            if (auto shown = without_mnemonics(e.name); shown != e.name && has_descendant_named(elements, i, shown)) {
                unmarked.emplace_back(e.name, shown);
                e.name = std::move(shown);
            }
        }
    }
    // The same marked text elsewhere in the window is the same label (GTK 4's stack page "Page _1",
    // whose switcher's tab showed "Page 1"), though no label below it shows it.
    if (unmarked.empty())
        return;
    for (auto& e : elements) {
        if (e.name.find('_') == std::string::npos)
            continue;
        const auto it = std::find_if(unmarked.begin(), unmarked.end(), [&](const auto& m) { return m.first == e.name; });
        if (it != unmarked.end())
            e.name = it->second;
    }
}

} // namespace nd_core
