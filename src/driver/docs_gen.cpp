#include "driver/docs_gen.h"

#include "core/model/act_actions.h"
#include "core/errors.h"
#include "core/version.h"
#include "driver/tool_registry.h"
#include "mcp/tool_docs.h"

namespace nd_driver {

namespace {

std::string_view class_name(ToolClass c)
{
    switch (c) {
    case ToolClass::read: return "read";
    case ToolClass::act: return "act";
    case ToolClass::session: return "session";
    case ToolClass::info: return "info";
    }
    return "read";
}

using nd_mcp::markdown_cell;

// A GTK single-line text field as the act table sees it, for the typed Enter's sentence.
nd_core::Element field_with_activate()
{
    nd_core::Element e;
    e.role = "text";
    e.actions = {"activate"};
    return e;
}

} // namespace

std::string errors_markdown()
{
    std::string out = "# Error codes\n\n"
                      "Generated from `src/core/errors.def` by `nish-docgen`; do not edit by hand.\n\n"
                      "Every failed tool call is an MCP result with `isError: true` whose structuredContent is\n"
                      "`{\"ok\": false, \"error\": {code, message, disposition: {retry}, suggestion, ...}}` and whose "
                      "text is\n`<code>: <message> [retry: <disposition>] <suggestion>` (contract §2). Where the driver recommends the\n"
                      "takeover, a second line says so as an act's result does: `escalation: takeover (<reason>)`, the\n"
                      "reason with the recipe where one is known.\n\n"
                      "A disposition tells the truth about what reached the app. A call refused before anything was "
                      "sent is never\n`unsafe`: an element that is not ready yet (disabled, hidden, off screen) is "
                      "`element_not_ready`\n(`after_refresh`: wait, read again, retry), one that does not offer the "
                      "act is `action_not_offered`\n(`never`). `action_failed` (`unsafe`) means the driver sent "
                      "something and the app did not do it\nas asked, so the app may have changed.\n\n"
                      "| code | retry | suggestion |\n|---|---|---|\n";
    for (const auto& row : nd_core::error_table())
        out += "| `" + std::string(row.name) + "` | " + std::string(nd_core::retry_name(row.retry)) + " | "
            + markdown_cell(row.suggestion) + " |\n";
    return out;
}

std::string tools_markdown()
{
    std::string out = "# Tools\n\nGenerated from the tool registry (`src/driver/tools/`) by `nish-docgen`; do not "
                      "edit by hand. Contract "
        + std::string(nd_core::CONTRACT_VERSION)
        + ".\n\nClasses: *read* tools work while a takeover is paused; *act* tools are refused then and accept "
          "`observe`; *session* and *info* tools need no session.\n\n"
          "| tool | class | arguments |\n|---|---|---|\n";
    for (const auto& def : all_tools()) {
        std::string args;
        for (const auto& a : def.decl.args)
            args += (args.empty() ? "" : ", ") + a.name + (a.required ? "" : "?");
        out += "| `" + def.decl.name + "` | " + std::string(class_name(def.cls)) + " | " + markdown_cell(args) + " |\n";
    }
    for (const auto& def : all_tools())
        out += nd_mcp::tool_section_markdown(def.decl, def.decl.name);
    return out;
}

std::string act_actions_markdown()
{
    std::string out = "# Which action an act runs\n\n"
                      "Generated from `src/core/model/act_actions.cpp` by `nish-docgen`; do not edit by hand.\n\n"
                      "A headless act runs one of the element's own actions, chosen by name: the first name of its "
                      "row that the element has, in the row's order. Names compare without case and with `-`, `_` "
                      "and ` ` alike (`click-ancestor` = `Click Ancestor`). Chromium and Gecko name an element's "
                      "default action by its verb, each its own: a radio is `check` in Chromium and `select` in "
                      "Gecko, a `<summary>` `clickAncestor` and `expand`; Gecko also says `cycle` (a mixed check box), "
                      "`close` (an open select), `switch` (a browser tab) and `click` (an element with a click "
                      "listener). GTK3 says `click`, Qt `Press` and `Toggle`, GTK4 `Click` or `Toggle`; GTK4 also lists "
                      "a widget's own commands as actions, named `group.name` (a label's `clipboard.copy`, "
                      "`menu.popup`; a window's `win.dark`).\n\n"
                      "| act | used by | names, in order | else |\n|---|---|---|---|\n";
    for (const auto& row : nd_core::act_action_table()) {
        std::string names;
        for (auto n : row.names)
            names += (names.empty() ? "`" : ", `") + std::string(n) + "`";
        std::string otherwise = "fails with `action_not_offered` naming the element's actions";
        if (row.default_fallback)
            otherwise = "the element's first (default) action, unless that one is no click (below)";
        else if (row.click_repeat > 0)
            otherwise = "the click's choice, " + std::to_string(row.click_repeat) + " times";
        out += "| `" + std::string(row.name) + "` | " + markdown_cell(row.used_by) + " | " + names + " | " + otherwise + " |\n";
    }
    out += "\nNever a click, even as the first action: ";
    std::string never;
    for (auto n : {"showContextMenu", "ShowMenu", "menu", "popup", "SetFocus", "Increase", "Decrease", "Scroll Up",
             "Next Page", "menu.popup", "clipboard.copy"})
        if (nd_core::not_click_action(n))
            never += (never.empty() ? "`" : ", `") + std::string(n) + "`";
    out += never + ", nor any other `group.name` (`not_click_action`), except that a click on a menu bar's entry "
                   "(`menu_item`, `menu`) with nothing else runs its menu action: the menu it opens is its own (Qt's "
                   "`ShowMenu`). The click tool then selects a selectable tab or row "
                   "(`Selection.SelectChild`, or the row of a table's cell through `Table.AddRowSelection`; a select "
                   "the app refuses fails with `action_failed` and recommends a takeover, GTK 4.8's list box rows); "
                   "otherwise the act fails with `action_not_offered`, naming the actions the element has, and "
                   "recommends a foreground act in a takeover.\n";
    // The rules of what an action means on an element, as choose_action answers them.
    const std::vector<std::string> cell = {"expand or contract", "edit", "activate"};
    const nd_core::ActTarget row{.role = "table_cell", .selectable = true};
    const auto cell_click = nd_core::choose_action(nd_core::ActKind::click, cell, row);
    const auto cell_double = nd_core::choose_action(nd_core::ActKind::double_click, cell, row);
    out += "\nA selectable element (a row, cell, item or tab) is selected by a click: its `activate` opens what it shows, "
           "as a double click does (GTK3's tree cells `expand or contract`, `edit`, `activate`: a click runs " +
           std::string(cell_click ? "`" + cell_click->action + "`" : "none of them and selects the row") +
           ", a double click `" + (cell_double ? cell_double->action : std::string("-")) +
           "`), and its first action counts as a click only when the table names it. What only shows (a `label`, "
           "`static`, `image` or `icon` without actions or focus; GTK4's widget commands on a label, such as "
           "`clipboard.copy`, count as none) passes a click or double click to the nearest of its " +
           std::to_string(nd_core::ACT_HOLDER_LEVELS) +
           " ancestors that takes it, as a person's click on it lands there (a GTK3 list box row's label selects the "
           "row; Chromium and Gecko do the same themselves with `clickAncestor`). A button, toggle button or combo "
           "box without actions whose subtree (at most " + std::to_string(nd_core::ACT_INNER_ELEMENTS) +
           " elements) holds exactly one enabled button that takes the act passes the act to that button "
           "(`act_inner`): GTK 4's menu button is an action-less button around the toggle button that opens its "
           "menu (gnome-calculator's `Primary menu`), its drop-down an action-less combo box around the arrow that "
           "pops it up. With two such buttons inside, the act fails: which one is the model's choice.\n";
    std::vector<std::string> toolkits;
    for (auto t : {"GTK3", "GTK4", "GAIL", "Chromium", "Gecko", "Qt"})
        if (nd_core::activate_is_enter(t))
            toolkits.emplace_back(t);
    std::string enter;
    for (std::size_t i = 0; i < toolkits.size(); ++i)
        enter += (i == 0 ? "" : i + 1 == toolkits.size() ? " and " : ", ") + toolkits[i];
    const bool field_click = nd_core::choose_action(nd_core::ActKind::click, {"activate"},
                                                    {.role = "text", .activate_is_enter = true}).has_value();
    const bool typed_enter = !nd_core::typed_enter("x\n", field_with_activate(), "GTK3").action.empty();
    out += "\nIn " + enter + " (GAIL is GTK 2's bridge) a text field's `activate` is the Enter key in it, which may "
           "submit its dialog: a click or double click on a `text`, `entry`, `spin_button` or `password_text` " +
           (field_click ? std::string("runs it") : std::string("does not run it and fails saying so")) +
           " (type_text and set_value need no focus). A line break ending the text that type_text or the desk's "
           "type puts into a single-line field of these toolkits " +
           (typed_enter ? std::string("runs it, after the text") : std::string("goes in as text")) +
           " (`typed_enter`). Chromium's and Gecko's text fields keep their `activate`, "
           "which focuses the field and dispatches a click the page hears.\n";
    // The checkable rule, as choose_action answers it, so the text cannot drift from the code.
    const std::vector<std::string> quick = {"Toggle", "Press", "SetFocus"};
    const auto unchecked = nd_core::choose_action(nd_core::ActKind::click, quick, "check_box");
    const auto radio = nd_core::choose_action(nd_core::ActKind::click, quick, "radio_button", true);
    out += "\nA checkable control (";
    std::string roles;
    for (auto r : {"check_box", "switch", "toggle_button", "radio_button", "check_menu_item", "radio_menu_item"})
        if (nd_core::is_checkable_role(r))
            roles += (roles.empty() ? "`" : ", `") + std::string(r) + "`";
    out += roles + ") that offers both `Press` and `Toggle` (Qt Quick; Qt 5's `Press` only signals a click) runs `" +
           (unchecked ? unchecked->action : "-") + "`, as a person's click flips it, except a radio button already "
           "`checked`, which a person's click leaves checked: `" + (radio ? radio->action : "-") + "` then.\n";
    return out;
}

} // namespace nd_driver
