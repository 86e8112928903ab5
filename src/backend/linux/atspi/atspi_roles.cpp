#include "backend/linux/atspi/atspi_roles.h"

#include "core/model/element.h"
#include "core/model/policy.h"

#include <array>
#include <utility>

namespace nd_linux {

namespace {

// Index = AT-SPI role number (AtspiRole in atspi-constants.h), spelled snake_case.
constexpr std::array<std::string_view, 130> ROLE_NAMES = {
    "invalid", "accelerator_label", "alert", "animation", "arrow", "calendar", "canvas", "check_box",
    "check_menu_item", "color_chooser", "column_header", "combo_box", "date_editor", "desktop_icon",
    "desktop_frame", "dial", "dialog", "directory_pane", "drawing_area", "file_chooser", "filler",
    "focus_traversable", "font_chooser", "frame", "glass_pane", "html_container", "icon", "image",
    "internal_frame", "label", "layered_pane", "list", "list_item", "menu", "menu_bar", "menu_item",
    "option_pane", "page_tab", "page_tab_list", "panel", "password_text", "popup_menu", "progress_bar",
    "push_button", "radio_button", "radio_menu_item", "root_pane", "row_header", "scroll_bar", "scroll_pane",
    "separator", "slider", "spin_button", "split_pane", "status_bar", "table", "table_cell",
    "table_column_header", "table_row_header", "tearoff_menu_item", "terminal", "text", "toggle_button",
    "tool_bar", "tool_tip", "tree", "tree_table", "unknown", "viewport", "window", "extended", "header",
    "footer", "paragraph", "ruler", "application", "autocomplete", "editbar", "embedded", "entry", "chart",
    "caption", "document_frame", "heading", "page", "section", "redundant_object", "form", "link",
    "input_method_window", "table_row", "tree_item", "document_spreadsheet", "document_presentation",
    "document_text", "document_web", "document_email", "comment", "list_box", "grouping", "image_map",
    "notification", "info_bar", "level_bar", "title_bar", "block_quote", "audio", "video", "definition",
    "article", "landmark", "log", "marquee", "math", "rating", "timer", "static", "math_fraction", "math_root",
    "subscript", "superscript", "description_list", "description_term", "description_value", "footnote",
    "content_deletion", "content_insertion", "mark", "suggestion", "push_button_menu",
};

constexpr std::uint32_t ROLE_CHECK_BOX = 7;
constexpr std::uint32_t ROLE_CHECK_MENU_ITEM = 8;
constexpr std::uint32_t ROLE_RADIO_BUTTON = 44;
constexpr std::uint32_t ROLE_RADIO_MENU_ITEM = 45;
constexpr std::uint32_t ROLE_TOGGLE_BUTTON = 62;

// AT-SPI state → our bit, for the states that map one to one.
constexpr std::array<std::pair<std::uint32_t, std::uint32_t>, 14> STATE_MAP = {{
    {ATSPI_STATE_FOCUSED, nd_core::STATE_FOCUSED},
    {ATSPI_STATE_FOCUSABLE, nd_core::STATE_FOCUSABLE},
    {ATSPI_STATE_CHECKED, nd_core::STATE_CHECKED},
    {ATSPI_STATE_CHECKABLE, nd_core::STATE_CHECKABLE},
    {ATSPI_STATE_SELECTED, nd_core::STATE_SELECTED},
    {ATSPI_STATE_SELECTABLE, nd_core::STATE_SELECTABLE},
    {ATSPI_STATE_EXPANDED, nd_core::STATE_EXPANDED},
    {ATSPI_STATE_EXPANDABLE, nd_core::STATE_EXPANDABLE},
    {ATSPI_STATE_EDITABLE, nd_core::STATE_EDITABLE},
    {ATSPI_STATE_SHOWING, nd_core::STATE_SHOWING},
    {ATSPI_STATE_MODAL, nd_core::STATE_MODAL},
    {ATSPI_STATE_MULTI_LINE, nd_core::STATE_MULTI_LINE},
    {ATSPI_STATE_BUSY, nd_core::STATE_BUSY},
    {ATSPI_STATE_PRESSED, nd_core::STATE_PRESSED},
}};

constexpr std::array<std::pair<std::string_view, std::uint32_t>, 12> INTERFACES = {{
    {"org.a11y.atspi.Accessible", IF_ACCESSIBLE},
    {"org.a11y.atspi.Action", IF_ACTION},
    {"org.a11y.atspi.Component", IF_COMPONENT},
    {"org.a11y.atspi.Text", IF_TEXT},
    {"org.a11y.atspi.EditableText", IF_EDITABLE_TEXT},
    {"org.a11y.atspi.Value", IF_VALUE},
    {"org.a11y.atspi.Selection", IF_SELECTION},
    {"org.a11y.atspi.Collection", IF_COLLECTION},
    {"org.a11y.atspi.Table", IF_TABLE},
    {"org.a11y.atspi.Document", IF_DOCUMENT},
    {"org.a11y.atspi.Image", IF_IMAGE},
    {"org.a11y.atspi.Hypertext", IF_HYPERTEXT},
}};

} // namespace

std::string_view atspi_role_name(std::uint32_t role)
{
    return role < ROLE_NAMES.size() ? ROLE_NAMES[role] : std::string_view("unknown");
}

std::optional<std::uint32_t> atspi_role_from_name(std::string_view name)
{
    // Names are unique in the table, so the first hit is the only one.
    for (std::uint32_t role = 0; role < ROLE_NAMES.size(); ++role)
        if (ROLE_NAMES[role] == name)
            return role;
    return std::nullopt;
}

std::uint32_t map_states(std::uint32_t role, AtspiStates states)
{
    std::uint32_t out = 0;
    for (auto [atspi, ours] : STATE_MAP)
        if (states.has(atspi))
            out |= ours;
    // Toolkits differ on which of the two they set for a usable widget; either counts.
    if (states.has(ATSPI_STATE_ENABLED) || states.has(ATSPI_STATE_SENSITIVE))
        out |= nd_core::STATE_ENABLED;
    switch (role) {
    case ROLE_CHECK_BOX:
    case ROLE_CHECK_MENU_ITEM:
    case ROLE_RADIO_BUTTON:
    case ROLE_RADIO_MENU_ITEM:
    case ROLE_TOGGLE_BUTTON:
        out |= nd_core::STATE_CHECKABLE;
        break;
    default:
        break;
    }
    if (is_secure_role(role))
        out |= nd_core::STATE_SECURE;
    // Neither visible nor showing: not displayed at all (a tab widget's other pages), where an
    // object scrolled out of view stays visible.
    if (!states.has(ATSPI_STATE_VISIBLE) && !states.has(ATSPI_STATE_SHOWING))
        out |= nd_core::STATE_HIDDEN;
    return out;
}

std::uint32_t interface_bit(std::string_view name)
{
    for (auto [iface, bit] : INTERFACES)
        if (iface == name)
            return bit;
    return 0;
}

bool is_item_view_role(std::uint32_t role)
{
    switch (role) {
    case 31:  // list
    case 55:  // table
    case 65:  // tree
    case 66:  // tree_table
    case 98:  // list_box
        return true;
    default:
        return false;
    }
}

bool is_panel_role(std::uint32_t role) { return role == 39; }

bool is_label_role(std::uint32_t role) { return role == 29; }

bool is_text_role(std::uint32_t role)
{
    switch (role) {
    case 61:  // text
    case 79:  // entry
    case 77:  // editbar
    case 76:  // autocomplete
    case 60:  // terminal
    case 94:  // document_text
    case 52:  // spin_button (when it offers no Value)
        return true;
    default:
        return false;
    }
}

bool is_value_role(std::uint32_t role)
{
    switch (role) {
    case 51:  // slider
    case 52:  // spin_button
    case 48:  // scroll_bar
    case 42:  // progress_bar
    case 15:  // dial
    case 103: // level_bar
    case 114: // rating
        return true;
    default:
        return false;
    }
}

bool is_secure_role(std::uint32_t role)
{
    return role == ATSPI_ROLE_PASSWORD_TEXT || nd_core::is_secure_element(atspi_role_name(role), 0);
}

std::int32_t heading_level(std::string_view attribute)
{
    if (attribute.empty() || attribute.size() > 2)
        return 0;
    std::int32_t level = 0;
    for (char c : attribute) {
        if (c < '0' || c > '9')
            return 0;
        level = level * 10 + (c - '0');
    }
    return level;
}

} // namespace nd_linux
