#include "core/model/labels.h"

#include "core/model/policy.h"

#include <algorithm>

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
    "Area", "Bar", "Bin", "Box", "Button", "Cell", "Chooser", "Column", "Container", "Dialog",
    "Entry", "Frame", "Grid", "Header", "Indicator", "Item", "Label", "List", "Menu", "Overlay",
    "Page", "Pane", "Paned", "Popover", "Revealer", "Row", "Scale", "Sidebar", "Slot", "Stack",
    "Switcher", "Tab", "Toolbar", "View", "Widget", "Window"};

// CamelCase of at least two words ending in a widget word, letters and digits only.
bool is_app_class_name(std::string_view name)
{
    if (name.size() < 4 || !is_upper(name[0]) || !std::all_of(name.begin(), name.end(), is_word))
        return false;
    std::size_t last = 0, words = 0;
    for (std::size_t i = 0; i < name.size(); ++i)
        // A word starts at a capital after a small letter or digit, or at the last capital of a
        // run that a small letter follows ("HTMLView": "HTML", "View").
        if (is_upper(name[i]) &&
            (i == 0 || !is_upper(name[i - 1]) || (i + 1 < name.size() && is_lower(name[i + 1])))) {
            last = i;
            ++words;
        }
    if (words < 2 || last == 0)
        return false;
    const auto tail = name.substr(last);
    return std::find(std::begin(WIDGET_WORDS), std::end(WIDGET_WORDS), tail) != std::end(WIDGET_WORDS);
}

bool is_label_role(std::string_view role)
{
    return role == "label" || role == "static" || role == "heading" || role == "caption" || role == "paragraph";
}

// The first readable name among the element's first descendants, or empty.
std::string_view child_label(const std::vector<Element>& elements, std::size_t index)
{
    const auto& e = elements[index];
    const std::size_t end = index + 1 + static_cast<std::size_t>(std::min(e.descendant_count, LABEL_SEARCH_ELEMENTS));
    for (std::size_t i = index + 1; i < end && i < elements.size(); ++i) {
        const auto& d = elements[i];
        if (d.depth - e.depth > LABEL_SEARCH_DEPTH || !is_label_role(d.role) || d.name.empty() || is_class_name(d.name))
            continue;
        return d.name;
    }
    return {};
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

} // namespace

bool is_class_name(std::string_view name)
{
    std::size_t prefix = 0;
    for (std::string_view p : {"Gtk", "Gdk", "Adw", "Hdy"})
        if (name.substr(0, p.size()) == p)
            prefix = p.size();
    // Qt: QPushButton, QWidget; not "QR code" or "Quit".
    if (prefix == 0 && name.size() > 2 && name[0] == 'Q' && is_upper(name[1]) && is_lower(name[2]))
        prefix = 1;
    if (prefix == 0 || name.size() <= prefix || !is_upper(name[prefix]))
        return is_app_class_name(name);
    return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix), name.end(), is_word);
}

void humanize_names(std::vector<Element>& elements)
{
    for (std::size_t i = 0; i < elements.size(); ++i) {
        auto& e = elements[i];
        // Padding no one reads ("Undo      ": GTK3 menu items that leave room for a shortcut).
        if (const auto trimmed = trim_space(e.name); trimmed.size() != e.name.size())
            e.name = std::string(trimmed);
        if (e.name.empty())
            continue;
        if (is_class_name(e.name)) {
            if (!e.description.empty() && !is_class_name(e.description))
                e.name = e.description;
            else
                e.name = std::string(child_label(elements, i));
            continue;
        }
        // "7 7": the button's name and its child label, run together.
        const std::size_t half = e.name.size() / 2;
        if (e.name.size() % 2 == 1 && e.name[half] == ' ' &&
            std::string_view(e.name).substr(0, half) == std::string_view(e.name).substr(half + 1) &&
            has_descendant_named(elements, i, std::string_view(e.name).substr(0, half)))
            e.name.resize(half);
    }
}

} // namespace nd_core
