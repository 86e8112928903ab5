#pragma once

// AT-SPI's role numbers, state bits and interface names, mapped to the model's values (element.h):
// every role number to a snake_case name, every state we model to our bits, and the interfaces an
// object offers to a small bit set. Numbers are those of at-spi2-core's atspi-constants.h.

#include <cstdint>
#include <optional>
#include <string_view>

namespace nd_linux {

// "push_button", "page_tab_list", ...; "unknown" for numbers past the table.
std::string_view atspi_role_name(std::uint32_t role);
// The role number of a snake_case name (the inverse of atspi_role_name); nullopt for a name no
// AT-SPI role has. "unknown" gives ROLE_UNKNOWN (67) only, not the numbers past the table.
std::optional<std::uint32_t> atspi_role_from_name(std::string_view name);

// AT-SPI role numbers this backend treats specially.
enum AtspiRole : std::uint32_t {
    ATSPI_ROLE_DIALOG = 16,
    ATSPI_ROLE_FRAME = 23,
    ATSPI_ROLE_PAGE_TAB = 37,
    ATSPI_ROLE_PAGE_TAB_LIST = 38,
    ATSPI_ROLE_PASSWORD_TEXT = 40,
    ATSPI_ROLE_TABLE_CELL = 56,
    ATSPI_ROLE_WINDOW = 69,
    ATSPI_ROLE_APPLICATION = 75,
    ATSPI_ROLE_PAGE = 84,
    ATSPI_ROLE_DOCUMENT_WEB = 95,
};

// An AT-SPI state set as sent on the bus: two 32-bit words (states 0–31, 32–63).
struct AtspiStates {
    std::uint32_t low = 0;
    std::uint32_t high = 0;
    bool has(std::uint32_t state) const
    {
        return state < 32 ? (low >> state) & 1u : state < 64 ? (high >> (state - 32)) & 1u : false;
    }
};

// AT-SPI state numbers this backend reads.
enum AtspiState : std::uint32_t {
    ATSPI_STATE_ACTIVE = 1,
    ATSPI_STATE_BUSY = 3,
    ATSPI_STATE_CHECKED = 4,
    ATSPI_STATE_DEFUNCT = 6,
    ATSPI_STATE_EDITABLE = 7,
    ATSPI_STATE_ENABLED = 8,
    ATSPI_STATE_EXPANDABLE = 9,
    ATSPI_STATE_EXPANDED = 10,
    ATSPI_STATE_FOCUSABLE = 11,
    ATSPI_STATE_FOCUSED = 12,
    ATSPI_STATE_MODAL = 16,
    ATSPI_STATE_MULTI_LINE = 17,
    ATSPI_STATE_PRESSED = 20,
    ATSPI_STATE_SELECTABLE = 22,
    ATSPI_STATE_SELECTED = 23,
    ATSPI_STATE_SENSITIVE = 24,
    ATSPI_STATE_SHOWING = 25,
    ATSPI_STATE_VISIBLE = 30,
    ATSPI_STATE_MANAGES_DESCENDANTS = 31,
    ATSPI_STATE_CHECKABLE = 41,
};

// Our state bits (nd_core::State) for an object of `role` with AT-SPI states `states`. Password
// roles get STATE_SECURE; roles that are toggles by nature get STATE_CHECKABLE even when the
// toolkit does not set AT-SPI's checkable state (GTK3 does not).
std::uint32_t map_states(std::uint32_t role, AtspiStates states);

// The interfaces an object offers, as bits.
enum Interface : std::uint32_t {
    IF_ACCESSIBLE = 1u << 0,
    IF_ACTION = 1u << 1,
    IF_COMPONENT = 1u << 2,
    IF_TEXT = 1u << 3,
    IF_EDITABLE_TEXT = 1u << 4,
    IF_VALUE = 1u << 5,
    IF_SELECTION = 1u << 6,
    IF_COLLECTION = 1u << 7,
    IF_TABLE = 1u << 8,
    IF_DOCUMENT = 1u << 9,
    IF_IMAGE = 1u << 10,
    IF_HYPERTEXT = 1u << 11,
};
std::uint32_t interface_bit(std::string_view name);

// What value an element shows, by role: its text (Text.GetText) or its number (Value).
bool is_text_role(std::uint32_t role);
// The views of items whose children are cells or rows: list, table, tree, tree_table, list_box.
bool is_item_view_role(std::uint32_t role);
bool is_panel_role(std::uint32_t role);
bool is_label_role(std::uint32_t role);
bool is_value_role(std::uint32_t role);
// A heading's level from its `level` attribute ("2"; aria-level may say up to 9 and more): 1 to
// 99, else 0 (not a level).
std::int32_t heading_level(std::string_view attribute);
// Password roles, and any role the policy reads as secure (errs towards secure).
bool is_secure_role(std::uint32_t role);

} // namespace nd_linux
