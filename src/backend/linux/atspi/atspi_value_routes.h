#pragma once

// The headless routes that write an element's value (set_value) or add to its text (type_text),
// chosen by the kind of element, each read back before it counts.
//
// Engines differ more here than anywhere else: GTK3 writes text through EditableText; Chromium
// offers no EditableText at all on web text fields, and Gecko offers one whose calls answer true
// and change nothing. So a call the app accepted proves nothing: every route reads the value back
// (polling briefly, since Gecko answers across processes) and succeeds only when it matches. A
// kind with no route that works fails with action_failed, saying which kind and that this app
// has no headless route for it, and recommends the foreground act of a takeover (escalation).
// docs/linux-atspi.md has the table of kinds, routes and engines.

#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_message.h"
#include "core/result.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace nd_linux {

// What an operation knows of the live object, read in one round trip (AtspiActuator::live).
struct LiveObject {
    ObjectRef ref;
    std::uint32_t role = 0;
    AtspiStates states;
    std::uint32_t interfaces = 0;
    ObjectRef parent;
    std::int32_t index_in_parent = -1;
};

// The kinds of element set_value tells apart; each has its own chain of routes.
enum class EditKind {
    number, // a value role with Value: sliders, spin buttons, <input type=number|range>
    choice, // a select: combo_box or list_box whose options are its (grand)children
    date,   // date_editor: <input type=date>
    text,   // an editable text field: entries, textareas, contenteditable
    cell,   // a spreadsheet cell (LibreOffice Calc's): Value and Text but no EditableText
    none,
};
EditKind edit_kind(const LiveObject&);
std::string_view edit_kind_name(EditKind);

// The object's action names: Action.GetActions, then Action.GetName for each name it left empty
// (Chromium's localized names are all empty).
nd_core::Result<std::vector<std::string>> live_action_names(AtspiBus&, const ObjectRef&, Deadline);

// The error of a kind this app gives no working headless route, with the takeover's act in its
// escalation: action_not_offered when no route was there to try (nothing was sent), action_failed
// when one was tried and did nothing.
nd_core::Error no_route(nd_core::ErrorCode, EditKind, std::string_view role, std::string_view why, const char* takeover);

// set_value's routes by the element's kind (this file's .cpp; selects: atspi_choice_route.cpp).
class ValueRoutes {
public:
    ValueRoutes(AtspiBus& bus, Deadline deadline) : m_bus(bus), m_deadline(deadline) {}

    // Writes `value` by the first route of the element's kind whose read-back matches.
    nd_core::Result<void> set(const LiveObject&, std::string_view value);
    // Inserts `text` at the caret (else at the end: the real one when the field reported less
    // text than it held, atspi_text_lag.h) through EditableText and checks that the text changed.
    nd_core::Result<void> insert(const LiveObject&, std::string_view text);
    // The value as set compares it: a number, the text, or the selected option's name.
    nd_core::Result<std::string> read(const LiveObject&);

private:
    struct Option {
        ObjectRef ref;
        ObjectRef container;
        std::int32_t index = -1;
        std::string name;
        bool selected = false;
        bool listed = false; // in an option container, or a child of an option's role
        bool wrapped = false; // in a list the popup wraps (Java's), which only the select itself sets
    };
    nd_core::Result<void> set_number(const LiveObject&, std::string_view value);
    nd_core::Result<void> set_text(const LiveObject&, std::string_view value);
    nd_core::Result<void> set_choice(const LiveObject&, std::string_view value);
    nd_core::Result<std::vector<Option>> options(const LiveObject&);
    // The list a popup's lone child wraps (Java: popup_menu > scroll_pane > viewport > list), with
    // its items; none when the child is no such wrapper.
    struct WrappedList {
        ObjectRef list;
        std::vector<ObjectRef> items;
    };
    nd_core::Result<std::optional<WrappedList>> wrapped_list(const ObjectRef& lone_child);
    nd_core::Result<std::vector<ObjectRef>> children_of(const ObjectRef&);
    nd_core::Result<std::vector<std::uint32_t>> roles_of(const std::vector<ObjectRef>&);
    nd_core::Result<double> read_number(const ObjectRef&, const char* property = "CurrentValue");
    nd_core::Result<std::string> read_text(const ObjectRef&);
    nd_core::Result<bool> call_bool(const Method&, const ArgWriter&);
    // EditableText.InsertText of `text` at character `position`: whether the app took it.
    nd_core::Result<bool> insert_text(const ObjectRef&, std::int32_t position, std::string_view text);
    // After `text` went in at `position`, the reported end (`before`) of a field with no caret:
    // when the field held more text than it reported (atspi_text_lag.h), moves the text to the real end.
    nd_core::Result<void> move_to_end(const ObjectRef&, const std::string& before, const std::string& after,
                                      std::int32_t position, std::string_view text);
    // Polls `check` until it holds or the read-back wait ends; false when it never held.
    nd_core::Result<bool> settle(const std::function<nd_core::Result<bool>()>& check);
    // An object's accessible name.
    nd_core::Result<std::string> read_name(const ObjectRef&);
    // A select's name when it is one of its options' (GTK3 and Qt show their choice there).
    nd_core::Result<std::optional<std::string>> shown_choice(const LiveObject&, const std::vector<Option>&);

    AtspiBus& m_bus;
    Deadline m_deadline;
};

} // namespace nd_linux
