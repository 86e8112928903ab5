#include "core/model/act_actions.h"

#include <algorithm>

namespace nd_core {

namespace {

// Context-menu actions: right_click's names, and never a click. Chromium "showContextMenu", Qt
// "ShowMenu", older GTK "menu" / "popup", GTK4 "menu.popup" (a widget action, below).
constexpr std::string_view MENU_NAMES[] = {"showcontextmenu", "show_context_menu", "showmenu", "show_menu",
    "context_menu", "contextmenu", "menu", "popup", "popup_menu", "menu.popup"};

// Actions that a click must not run even as the element's default: they move focus, step a value
// or scroll (Qt "SetFocus", "Increase", "Scroll Up", "Next Page").
constexpr std::string_view NOT_CLICK_NAMES[] = {"setfocus", "set_focus", "focus", "increase", "decrease",
    "scroll_left", "scroll_right", "scroll_up", "scroll_down", "previous_page", "next_page"};

std::vector<ActActions> build_table()
{
    std::vector<ActActions> table;
    table.push_back({
        .kind = ActKind::click,
        .name = "click",
        .used_by = "click; double_click's fallback; shuttle press and act action",
        // GTK3 "click" before "press": a GTK3 button's "press" alone would leave it pressed.
        // Chromium and Gecko name the default action by its verb; Qt "Press" and "Toggle". Gecko
        // also says "cycle" (a mixed check box) and "close" (an open select).
        .names = {"click", "press", "activate", "toggle", "check", "uncheck", "cycle", "jump", "open", "close",
            "select", "switch", "expand", "collapse", "click_ancestor", "clickancestor"},
        .default_fallback = true,
    });
    table.push_back({
        .kind = ActKind::double_click,
        .name = "double_click",
        .used_by = "double_click",
        // A row's "activate" is what a double click does (GTK3 tree rows, GTK4 list rows).
        .names = {"activate", "doubleclick", "double_click"},
        .click_repeat = 2,
    });
    ActActions right{.kind = ActKind::right_click, .name = "right_click", .used_by = "right_click"};
    for (auto n : MENU_NAMES)
        right.names.push_back(n);
    table.push_back(std::move(right));
    return table;
}

template <typename List> bool listed(const List& list, std::string_view normalized)
{
    return std::find(std::begin(list), std::end(list), normalized) != std::end(list);
}

// The element's own spelling of the action normalized as `wanted`, or null.
const std::string* named(const std::vector<std::string>& actions, std::string_view wanted)
{
    for (const auto& a : actions)
        if (normalize_action_name(a) == wanted)
            return &a;
    return nullptr;
}

std::optional<std::string> first_named(const ActActions& row, const std::vector<std::string>& actions)
{
    // Preference is the table's order, not the element's: GTK3 may list "press" after "click".
    for (auto wanted : row.names)
        if (const auto* a = named(actions, wanted))
            return *a;
    return std::nullopt;
}

// Text fields, whose "activate" some toolkits run as the Enter key (GTK's entries and spin buttons).
bool is_text_field_role(std::string_view role)
{
    return role == "text" || role == "entry" || role == "password_text" || role == "spin_button";
}

} // namespace

const std::vector<ActActions>& act_action_table()
{
    static const std::vector<ActActions> table = build_table();
    return table;
}

const ActActions& act_actions(ActKind kind) { return act_action_table()[static_cast<std::size_t>(kind)]; }

std::string normalize_action_name(std::string_view name)
{
    std::string out(name);
    for (auto& c : out) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        else if (c == '-' || c == ' ')
            c = '_';
    }
    return out;
}

bool same_action_name(std::string_view a, std::string_view b) { return normalize_action_name(a) == normalize_action_name(b); }

bool only_not_click(const std::vector<std::string>& actions)
{
    return std::all_of(actions.begin(), actions.end(), [](const std::string& a) { return !a.empty() && not_click_action(a); });
}

bool not_click_action(std::string_view name)
{
    const auto n = normalize_action_name(name);
    // GTK4 lists a widget's own commands as its actions, named "group.name": a label's first is
    // "clipboard.copy", a window's "win.<anything the app installed>". Running one is not a click.
    return listed(MENU_NAMES, n) || listed(NOT_CLICK_NAMES, n) || n.find('.') != std::string::npos;
}

ActTarget act_target(const Element& e, std::string_view toolkit)
{
    return {.role = e.role,
        .checked = e.is(STATE_CHECKED),
        .selectable = e.is(STATE_SELECTABLE),
        .activate_is_enter = activate_is_enter(toolkit)};
}

bool activate_is_enter(std::string_view toolkit) { return toolkit == "GTK3" || toolkit == "GTK4" || toolkit == "GAIL"; }

std::optional<ActionChoice> choose_action(ActKind kind, const std::vector<std::string>& all, const ActTarget& target)
{
    const auto& row = act_actions(kind);
    const auto role = target.role;
    // The actions that are not this act's on this element (above, choose_action in the header).
    const bool enter = target.activate_is_enter && is_text_field_role(role);
    const bool opens = kind == ActKind::click && target.selectable;
    std::vector<std::string> actions;
    actions.reserve(all.size());
    for (const auto& a : all)
        if (!((enter || opens) && normalize_action_name(a) == "activate"))
            actions.push_back(a);
    if (kind == ActKind::click && is_checkable_role(role)) {
        const auto* toggle = named(actions, "toggle");
        const auto* press = named(actions, "press");
        if (toggle && press)
            return ActionChoice{target.checked && is_radio_role(role) ? *press : *toggle, 1};
    }
    if (auto named = first_named(row, actions))
        return ActionChoice{*named, 1};
    if (row.default_fallback && !opens && !actions.empty() && !actions.front().empty() &&
        !not_click_action(actions.front()))
        return ActionChoice{actions.front(), 1};
    if (row.click_repeat > 0)
        if (auto click = choose_action(ActKind::click, actions, target))
            return ActionChoice{click->action, row.click_repeat};
    if (kind == ActKind::click && is_menu_entry(role))
        if (auto menu = first_named(act_actions(ActKind::right_click), actions))
            return ActionChoice{*menu, 1};
    return std::nullopt;
}

std::string held_back_action(ActKind kind, const std::vector<std::string>& actions, const ActTarget& target)
{
    if (kind == ActKind::right_click || !target.activate_is_enter || !is_text_field_role(target.role) ||
        !named(actions, "activate"))
        return {};
    return "its \"activate\" is the Enter key in this toolkit (it may submit the form or dialog), not a " +
           std::string(act_actions(kind).name) +
           "; type_text and set_value reach a text field without focusing it first, and a line break ending "
           "type_text's text presses its Enter";
}

std::string TypedEnter::failed_enter(std::string_view why) const
{
    // The action's name is the app's: cut, as describe_actions cuts it.
    return "the text went in, but the field's Enter (its \"" + action.substr(0, 64) + "\") failed: " + std::string(why);
}

TypedEnter typed_enter(std::string_view text, const Element& field, std::string_view toolkit)
{
    TypedEnter out{text, {}};
    if (!text.ends_with('\n') || field.is(STATE_MULTI_LINE) || !is_text_field_role(field.role) || !activate_is_enter(toolkit))
        return out;
    const auto* activate = named(field.actions, "activate");
    if (!activate)
        return out;
    auto rest = text.substr(0, text.size() - 1);
    if (rest.ends_with('\r'))
        rest.remove_suffix(1);
    // Only the last line break is Enter: one inside the text is the field's to take or drop.
    return {rest, *activate};
}

std::int32_t act_holder(ActKind kind, const std::vector<Element>& elements, std::int32_t index, bool activate_is_enter)
{
    if (kind == ActKind::right_click || index <= 0 || static_cast<std::size_t>(index) >= elements.size())
        return -1;
    const auto& e = elements[static_cast<std::size_t>(index)];
    const bool only_shows = e.role == "label" || e.role == "static" || e.role == "image" || e.role == "icon";
    // GTK 4 gives a label its widget's commands ("clipboard.copy", "menu.popup"), none a click.
    if (!only_shows || !only_not_click(e.actions) || e.is(STATE_FOCUSABLE) || e.is(STATE_SELECTABLE))
        return -1;
    auto at = e.parent;
    for (int level = 0; level < ACT_HOLDER_LEVELS && at > 0 && at < index; ++level) {
        const auto& holder = elements[static_cast<std::size_t>(at)];
        auto target = act_target(holder, {});
        target.activate_is_enter = activate_is_enter;
        if (choose_action(kind, holder.actions, target) || (kind == ActKind::click && target.selectable))
            return at;
        at = holder.parent;
    }
    return -1;
}

std::int32_t act_inner(ActKind kind, const std::vector<Element>& elements, std::int32_t index, bool activate_is_enter)
{
    if (index < 0 || static_cast<std::size_t>(index) >= elements.size())
        return -1;
    const auto& e = elements[static_cast<std::size_t>(index)];
    const bool control = e.role == "push_button" || e.role == "toggle_button" || e.role == "combo_box";
    if (!control || !only_not_click(e.actions) || e.descendant_count <= 0 || e.descendant_count > ACT_INNER_ELEMENTS)
        return -1;
    std::int32_t found = -1;
    const auto end = std::min(static_cast<std::size_t>(index) + 1 + static_cast<std::size_t>(e.descendant_count), elements.size());
    for (auto i = static_cast<std::size_t>(index) + 1; i < end; ++i) {
        const auto& inner = elements[i];
        if ((inner.role != "push_button" && inner.role != "toggle_button") || !inner.is(STATE_ENABLED))
            continue;
        auto target = act_target(inner, {});
        target.activate_is_enter = activate_is_enter;
        if (!choose_action(kind, inner.actions, target))
            continue;
        if (found >= 0)
            return -1; // two buttons: which one a person meant is not the driver's guess
        found = static_cast<std::int32_t>(i);
    }
    return found;
}

bool is_menu_entry(std::string_view role) { return role == "menu_item" || role == "menu"; }

bool is_radio_role(std::string_view role) { return role == "radio_button" || role == "radio_menu_item"; }

bool is_checkable_role(std::string_view role)
{
    return is_radio_role(role) || role == "check_box" || role == "toggle_button" || role == "switch" ||
           role == "check_menu_item";
}

std::string describe_actions(const std::vector<std::string>& actions)
{
    if (actions.empty())
        return "none";
    std::string out = "[";
    for (std::size_t i = 0; i < actions.size(); ++i) {
        if (i > 0)
            out += ", ";
        // Names come from the app: cut them so a hostile one cannot flood a message.
        out += "\"" + actions[i].substr(0, 64) + "\"";
    }
    return out + "]";
}

} // namespace nd_core
