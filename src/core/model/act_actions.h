#pragma once

// Which of an element's own actions a semantic act runs headless: one table for every toolkit.
//
// Toolkits name the same act differently: GTK3 "click", Chromium its default action verb ("press",
// "check", "jump", "open", "clickAncestor", plus "showContextMenu"), Gecko its own verbs ("press",
// "check", "select", "open", "close", "expand", "switch", "activate", "click", "clickAncestor"), Qt
// "Press", "Toggle", "ShowMenu", "SetFocus"; GTK4 "Click", "Toggle" and its widgets' own commands
// ("clipboard.copy", "menu.popup"). The driver's click, double_click and right_click and the
// desk's press and act all choose from this table, so a toolkit learned once works everywhere.
// Names compare case-insensitively with '-', '_' and ' ' alike (same_action_name).

#include "core/model/element.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

enum class ActKind : std::uint8_t { click, double_click, right_click };

struct ActActions {
    ActKind kind;
    std::string_view name;    // the act, as the tools call it
    std::string_view used_by; // who chooses through this row (for the docs)
    std::vector<std::string_view> names; // in order of preference, across toolkits
    // When no name fits: the first (default) action of the element, unless it is clearly not a
    // click (not_click_action).
    bool default_fallback = false;
    // When no name fits either: the click row's choice this many times (a double click).
    std::int32_t click_repeat = 0;
};

// The whole table, one row per ActKind in enum order.
const std::vector<ActActions>& act_action_table();
const ActActions& act_actions(ActKind);

// Lower case, with '-' and ' ' read as '_': "click-ancestor" == "Click Ancestor" == "click_ancestor".
std::string normalize_action_name(std::string_view);
bool same_action_name(std::string_view, std::string_view);
// A context-menu, focus, increase/decrease or scroll action, or a GTK4 widget action ("group.name",
// such as "clipboard.copy"): never a click, even when it is first.
bool not_click_action(std::string_view);
// True when no action of the list can be a click: each is a not_click_action (an empty list too). An
// unnamed one (Chromium's, before its names are asked) may be.
bool only_not_click(const std::vector<std::string>& actions);

struct ActionChoice {
    std::string action;      // the element's own spelling
    std::int32_t repeat = 1; // how often to run it
};

// What the choice knows of the element besides its actions.
struct ActTarget {
    std::string_view role;
    bool checked = false;    // STATE_CHECKED
    bool selectable = false; // STATE_SELECTABLE: a row, cell, item or tab that a person's click selects
    // The element's toolkit runs a text field's "activate" as the Enter key in it (GTK: the
    // dialog's default button answers), not as a click (activate_is_enter).
    bool activate_is_enter = false;
};
ActTarget act_target(const Element&, std::string_view toolkit);

// Toolkits (as background_routes names them: "GTK3", "GTK4"; GTK 2's bridge says "GAIL") whose
// text fields' "activate" is the Enter key.
bool activate_is_enter(std::string_view toolkit);

// The action `kind` runs among `actions` (names as the element reports them), or nothing. With the
// element's `role`: a click on a menu bar's entry ("menu_item" or "menu") that has only a menu
// action runs that one, since the menu it opens is the entry's own (Qt: "ShowMenu"); and a click on
// a checkable control that offers both "Press" and "Toggle" (Qt Quick; Qt 5's Press only signals
// a click and leaves the state) runs Toggle, as a person's click flips it, unless the control is a
// radio button already `checked`, which a person's click leaves checked (Press then).
// A selectable element's "activate" is what a double click does (GTK3's tree cells and icon view
// items, GTK4's list rows open what they show): a click never runs it, nor a selectable element's
// first action unnamed in the table (GTK3's cell says "expand or contract" first); the caller
// selects the element instead (Actuator::select). A text field's "activate" where it is the Enter
// key is neither a click nor a double click.
std::optional<ActionChoice> choose_action(ActKind, const std::vector<std::string>& actions, const ActTarget&);
inline std::optional<ActionChoice> choose_action(ActKind kind, const std::vector<std::string>& actions,
                                                 std::string_view role = {}, bool checked = false)
{
    return choose_action(kind, actions, ActTarget{.role = role, .checked = checked});
}
// Why `kind` runs none of `actions` though the element has one a toolkit means otherwise (a text
// field's Enter), for the act's error; empty when nothing was held back.
std::string held_back_action(ActKind, const std::vector<std::string>& actions, const ActTarget&);
// A line break at the end of the text typed into a single-line field is the Enter key a person
// presses after typing (a search, a dialog's answer). Where the toolkit runs the field's "activate"
// as Enter (GTK's entries), that action is the headless Enter: the text goes in without the line
// break, then the action runs. Elsewhere (no such action, a multi-line field, a line break inside
// the text) the text goes in as it is.
struct TypedEnter {
    std::string_view text; // what to insert: the text, without its last line break when `action` is set
    std::string action;    // the field's own action that is its Enter; empty when none is run

    // Whether the field's text interface is asked at all: not for an Enter alone.
    bool inserts() const { return !text.empty() || action.empty(); }
    // The message of an Enter that failed after the text went in (`why`: the actuator's message),
    // so the caller does not type the text again.
    std::string failed_enter(std::string_view why) const;
};
TypedEnter typed_enter(std::string_view text, const Element& field, std::string_view toolkit);
// A person's click on what only shows (a label, static text, an image or icon without actions or
// focus) lands on what holds it: the index of the nearest of its ACT_HOLDER_LEVELS ancestors that
// takes `kind` (an action for it, or, for a click, a row or item to select: a GTK3 list box row's
// label), else -1. Not for a right click, whose menu is the element's own. `elements` is a
// snapshot's preorder array (parents before children).
inline constexpr int ACT_HOLDER_LEVELS = 2;
std::int32_t act_holder(ActKind, const std::vector<Element>& elements, std::int32_t index, bool activate_is_enter);
// A GTK 4 menu button or drop-down is a control without actions around the button that takes a
// person's click (gnome-text-editor's "Menu" around its toggle button, a drop-down around its
// arrow): the index of the only enabled button among the control's at most ACT_INNER_ELEMENTS
// descendants that takes `kind`, else -1. `elements` as act_holder's.
inline constexpr std::int32_t ACT_INNER_ELEMENTS = 8;
std::int32_t act_inner(ActKind, const std::vector<Element>& elements, std::int32_t index, bool activate_is_enter);
// The roles of a menu bar's or a menu's entries (role names as the read gives them).
bool is_menu_entry(std::string_view role);
// Roles a click checks or unchecks (check boxes, switches, toggle buttons, radio buttons, their menu
// items), and of those the radio buttons, which a click only checks.
bool is_checkable_role(std::string_view role);
bool is_radio_role(std::string_view role);

// `["press", "showContextMenu"]`, or `none` (for messages that tell what an element offers).
std::string describe_actions(const std::vector<std::string>& actions);

} // namespace nd_core
