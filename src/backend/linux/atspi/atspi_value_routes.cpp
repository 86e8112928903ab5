#include "backend/linux/atspi/atspi_value_routes.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"
#include "backend/linux/atspi/atspi_text_lag.h"
#include "core/encode/utf8.h"
#include "core/model/act_actions.h"
#include "core/model/views.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <thread>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

// How long a route waits for its effect to read back. Gecko carries the call to the page's
// process and back, and a loaded machine is slow; a value that has not changed in a second
// will not change.
constexpr std::chrono::milliseconds READBACK_WAIT{1000};
constexpr std::chrono::milliseconds READBACK_POLL{20};

constexpr const char* TYPE_IN_TAKEOVER =
    "a foreground type_text in a takeover session may work (to replace the text, clear it first: a foreground "
    "click, hotkey ctrl+a, press_key BackSpace)";
constexpr const char* EDIT_IN_TAKEOVER =
    "in a takeover session, a foreground click on the cell of a selected row may open its editor; then hotkey "
    "ctrl+a, press_key for each character and press_key Return";
// Why a text field takes no headless write: the toolkits seen offering none.
constexpr const char* NO_EDITABLE_TEXT =
    "it has no EditableText interface (Chromium's web text fields and Qt Quick's text fields offer none)";
constexpr const char* SLIDE_IN_TAKEOVER =
    "in a takeover session, a foreground click on the slider's handle, then press_key Right or Left (Home, End, "
    "Page_Up and Page_Down take bigger steps) until it reads the value, may work";

// Characters, as AT-SPI's text offsets count them.
std::int32_t char_count(std::string_view s) { return static_cast<std::int32_t>(nd_core::utf8_length(s)); }

bool same_number(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(a)); }

} // namespace

nd_core::Error no_route(nd_core::ErrorCode code, EditKind kind, std::string_view role, std::string_view why, const char* takeover)
{
    nd_core::Error err(code, "the element is a " + std::string(edit_kind_name(kind)) + " field (" + std::string(role) +
                                 ") and this app offers no headless route to write it: " + std::string(why));
    err.escalation_reason = takeover;
    return err;
}

EditKind edit_kind(const LiveObject& o)
{
    const auto role = atspi_role_name(o.role);
    const bool editable = o.states.has(ATSPI_STATE_EDITABLE);
    if (role == "date_editor")
        return EditKind::date;
    if (is_value_role(o.role) && (o.interfaces & IF_VALUE))
        return EditKind::number;
    if ((role == "combo_box" || role == "list_box") && !editable)
        return EditKind::choice;
    if (role == "table_cell" && (o.interfaces & IF_VALUE) && !(o.interfaces & IF_EDITABLE_TEXT))
        return EditKind::cell;
    // Gecko puts EditableText on every text container, buttons included: only an editable one,
    // or a text role, is a text field.
    if (editable || ((o.interfaces & IF_EDITABLE_TEXT) && is_text_role(o.role)))
        return EditKind::text;
    return EditKind::none;
}

std::string_view edit_kind_name(EditKind kind)
{
    switch (kind) {
    case EditKind::number: return "number";
    case EditKind::choice: return "select";
    case EditKind::date: return "date";
    case EditKind::text: return "text";
    case EditKind::cell: return "cell";
    case EditKind::none: return "non-editable";
    }
    return "non-editable";
}

nd_core::Result<std::vector<std::string>> live_action_names(AtspiBus& bus, const ObjectRef& ref, Deadline deadline)
{
    auto reply = TRY(bus.call({ref.bus, ref.path, IFACE_ACTION, "GetActions"}, {}, deadline));
    std::vector<std::string> names;
    if (read_action_names(reply.get(), names) < 0)
        return make_error(ErrorCode::action_failed, "GetActions sent a malformed list");
    AtspiBatch batch(bus, deadline);
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (!names[i].empty())
            continue;
        batch.add({ref.bus, ref.path, IFACE_ACTION, "GetName"},
                  [i](sd_bus_message* m) { return sd_bus_message_append(m, "i", static_cast<std::int32_t>(i)); },
                  [&names, i](const Reply& r) {
                      if (r.ok())
                          (void)read_string(r.message, names[i]);
                  });
    }
    TRY_VOID(batch.run());
    return names;
}

nd_core::Result<bool> ValueRoutes::call_bool(const Method& method, const ArgWriter& args)
{
    auto reply = TRY(m_bus.call(method, args, m_deadline));
    int ok = 0;
    if (sd_bus_message_read_basic(reply.get(), 'b', &ok) < 0)
        return make_error(ErrorCode::action_failed, std::string(method.member) + " sent no answer");
    return ok != 0;
}

nd_core::Result<bool> ValueRoutes::settle(const std::function<nd_core::Result<bool>()>& check)
{
    const auto until = std::min(m_deadline, Clock::now() + READBACK_WAIT);
    for (;;) {
        if (TRY(check()))
            return true;
        if (Clock::now() + READBACK_POLL >= until)
            return false;
        std::this_thread::sleep_for(READBACK_POLL);
    }
}

nd_core::Result<double> ValueRoutes::read_number(const ObjectRef& ref, const char* property)
{
    auto reply = TRY(m_bus.call({ref.bus, ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_VALUE, property),
                                m_deadline));
    double number = 0;
    if (read_variant_double(reply.get(), number) < 0)
        return make_error(ErrorCode::action_failed, "the element's value is not a number");
    return number;
}

nd_core::Result<std::string> ValueRoutes::read_text(const ObjectRef& ref)
{
    auto reply = TRY(m_bus.call({ref.bus, ref.path, IFACE_TEXT, "GetText"},
                                [](sd_bus_message* m) { return sd_bus_message_append(m, "ii", 0, -1); }, m_deadline));
    std::string text;
    if (read_string(reply.get(), text) < 0)
        return make_error(ErrorCode::action_failed, "the element's text could not be read");
    return text;
}

nd_core::Result<void> ValueRoutes::set(const LiveObject& o, std::string_view value)
{
    const EditKind kind = edit_kind(o);
    switch (kind) {
    case EditKind::number:
    case EditKind::cell: // headless, a cell takes a number only, through its Value
        return set_number(o, value);
    case EditKind::choice:
        return set_choice(o, value);
    case EditKind::text:
        return set_text(o, value);
    case EditKind::date: {
        // No engine here writes a date headless: Chromium's day, month and year fields ignore
        // Value and the field has no EditableText; Gecko's EditableText on it changes nothing.
        // An EditableText is still tried, for an engine that does better.
        const bool tried = o.interfaces & IF_EDITABLE_TEXT;
        if (tried) {
            auto done = set_text(o, value);
            if (done || done.error().code != ErrorCode::action_failed)
                return done;
        }
        return no_route(tried ? ErrorCode::action_failed : ErrorCode::action_not_offered, kind,
                        atspi_role_name(o.role),
                        "its day, month and year fields ignore Value and it takes no text through EditableText",
                        TYPE_IN_TAKEOVER);
    }
    case EditKind::none:
        break;
    }
    const std::string role(atspi_role_name(o.role));
    // A cell a person edits in place (GTK3's tree view cells offer `Edit`, whose editor only a
    // click opens, and which GTK 3.24 itself cannot run): the takeover is the way.
    if (o.interfaces & IF_ACTION) {
        auto names = live_action_names(m_bus, o.ref, m_deadline);
        if (names && std::any_of(names->begin(), names->end(),
                                 [](const std::string& n) { return nd_core::same_action_name(n, "edit"); })) {
            nd_core::Error err(ErrorCode::action_not_offered,
                               "the element (" + role + ") offers Edit but takes neither text nor a value headless");
            err.escalation_reason = EDIT_IN_TAKEOVER;
            return err;
        }
    }
    return make_error(ErrorCode::action_not_offered, "the element (" + role + ") takes neither text nor a value");
}

nd_core::Result<void> ValueRoutes::set_number(const LiveObject& o, std::string_view value)
{
    double number = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(number))
        return make_error(ErrorCode::invalid_arguments, "the element takes a number");
    const ObjectRef& ref = o.ref;
    const auto before = read_number(ref); // what an app that ignores the write keeps (none: not told)
    TRY_VOID(m_bus.call({ref.bus, ref.path, IFACE_PROPERTIES, "Set"},
                        [number](sd_bus_message* m) {
                            return sd_bus_message_append(m, "ssv", IFACE_VALUE, "CurrentValue", "d", number);
                        },
                        m_deadline));
    double got = 0;
    bool matched = TRY(settle([&]() -> nd_core::Result<bool> {
        got = TRY(read_number(ref));
        return same_number(got, number);
    }));
    if (matched)
        return {};
    const auto low = read_number(ref, "MinimumValue");
    const auto high = read_number(ref, "MaximumValue");
    std::string why = "the app took Value.CurrentValue but reads back " + format_number(got);
    if (low && high && (number < *low || number > *high))
        why += ": the value is outside its range, " + format_number(*low) + " to " + format_number(*high);
    else if (before && same_number(got, *before))
        why += ", as before: it ignores Value writes (Java's sliders do)";
    else
        why += " (a step of its own?)";
    nd_core::Error err(ErrorCode::action_failed, why);
    const auto role = atspi_role_name(o.role);
    err.escalation_reason = role == "slider" || role == "scroll_bar" ? SLIDE_IN_TAKEOVER : TYPE_IN_TAKEOVER;
    return err;
}

nd_core::Result<void> ValueRoutes::set_text(const LiveObject& o, std::string_view value)
{
    const auto role = atspi_role_name(o.role);
    if (!(o.interfaces & IF_EDITABLE_TEXT))
        return no_route(ErrorCode::action_not_offered, EditKind::text, role,
                        NO_EDITABLE_TEXT, TYPE_IN_TAKEOVER);
    const ObjectRef& ref = o.ref;
    const bool readable = o.interfaces & IF_TEXT;
    std::string before;
    if (readable)
        before = TRY(read_text(ref));
    std::string copy(value);
    auto set_contents = [&]() {
        return call_bool({ref.bus, ref.path, IFACE_EDITABLE_TEXT, "SetTextContents"},
                         [&copy](sd_bus_message* m) { return sd_bus_message_append(m, "s", copy.c_str()); });
    };
    if (!TRY(set_contents())) {
        nd_core::Error err(ErrorCode::action_failed, "EditableText.SetTextContents was refused by the app");
        err.escalation_reason = TYPE_IN_TAKEOVER;
        return err;
    }
    if (!readable)
        return {};
    std::string got;
    auto reads_back = [&]() {
        return settle([&]() -> nd_core::Result<bool> {
            got = TRY(read_text(ref));
            return got == value;
        });
    };
    bool matched = TRY(reads_back());
    if (!matched && got != before) {
        // The app replaced only the text it had reported, which lagged what it holds
        // (atspi_text_lag.h); the edit brought its text up to date, so once more.
        if (!TRY(set_contents()))
            return make_error(ErrorCode::action_failed,
                              "the element's text changed but reads back different from the value, and the app "
                              "refused EditableText.SetTextContents when asked again");
        matched = TRY(reads_back());
    }
    if (matched)
        return {};
    if (got == before)
        return no_route(ErrorCode::action_failed, EditKind::text, role,
                        "it took EditableText.SetTextContents but its text did not change (Gecko's EditableText does "
                        "nothing on web text fields)",
                        TYPE_IN_TAKEOVER);
    return make_error(ErrorCode::action_failed,
                      "the element's text changed but reads back different from the value (a length limit or filter "
                      "of the field?)");
}

nd_core::Result<bool> ValueRoutes::insert_text(const ObjectRef& ref, std::int32_t position, std::string_view text)
{
    std::string copy(text);
    const std::int32_t length = char_count(text);
    return call_bool({ref.bus, ref.path, IFACE_EDITABLE_TEXT, "InsertText"},
                     [position, &copy, length](sd_bus_message* m) {
                         return sd_bus_message_append(m, "isi", position, copy.c_str(), length);
                     });
}

nd_core::Result<void> ValueRoutes::insert(const LiveObject& o, std::string_view text)
{
    const auto role = atspi_role_name(o.role);
    if (!(o.interfaces & IF_EDITABLE_TEXT))
        return no_route(ErrorCode::action_not_offered, EditKind::text, role,
                        NO_EDITABLE_TEXT, TYPE_IN_TAKEOVER);
    const ObjectRef& ref = o.ref;
    const bool readable = o.interfaces & IF_TEXT;
    std::int32_t caret = -1, count = -1;
    std::string before;
    if (readable) {
        AtspiBatch batch(m_bus, m_deadline);
        batch.add({ref.bus, ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_TEXT, "CaretOffset"),
                  [&](const Reply& r) {
                      if (r.ok())
                          (void)sd_bus_message_read(r.message, "v", "i", &caret);
                  });
        batch.add({ref.bus, ref.path, IFACE_PROPERTIES, "Get"}, get_property(IFACE_TEXT, "CharacterCount"),
                  [&](const Reply& r) {
                      if (r.ok())
                          (void)sd_bus_message_read(r.message, "v", "i", &count);
                  });
        TRY_VOID(batch.run());
        before = TRY(read_text(ref));
    }
    // At the caret when there is one, else at the end (G_MAXINT-like offsets clamp in toolkits,
    // but a known count is exact).
    std::int32_t position = caret >= 0 ? caret : (count >= 0 ? count : INT32_MAX);
    if (!TRY(insert_text(ref, position, text))) {
        nd_core::Error err(ErrorCode::action_failed, "EditableText.InsertText was refused by the app");
        err.escalation_reason = TYPE_IN_TAKEOVER;
        return err;
    }
    if (!readable || text.empty())
        return {};
    // The inserted text may be filtered or cut by the field, so only a text that did not change
    // at all counts as not taken.
    std::string after;
    if (TRY(settle([&]() -> nd_core::Result<bool> {
            after = TRY(read_text(ref));
            return after != before;
        })))
        return caret >= 0 ? nd_core::Result<void>{} : move_to_end(ref, before, after, position, text);
    return no_route(ErrorCode::action_failed, EditKind::text, role,
                    "it took EditableText.InsertText but its text did not change (Gecko's EditableText does nothing "
                    "on web text fields)",
                    TYPE_IN_TAKEOVER);
}

nd_core::Result<void> ValueRoutes::move_to_end(const ObjectRef& ref, const std::string& before, const std::string& after,
                                               std::int32_t position, std::string_view text)
{
    if (!inserted_short_of_the_end(before, after, position, text))
        return {};
    // The field held text it had not reported (atspi_text_lag.h): the text goes in again at the
    // end it reports now, then comes out where it went in first, so that it is never lost.
    const std::int32_t length = char_count(text);
    const std::string expected = before + after.substr(before.size() + text.size()) + std::string(text);
    if (!TRY(insert_text(ref, char_count(after), text)))
        return make_error(ErrorCode::action_failed,
                          "the text went in at character " + std::to_string(position) +
                              ", short of the end: the field held more text than it reported, and it refused the "
                              "text again at its end");
    if (!TRY(call_bool({ref.bus, ref.path, IFACE_EDITABLE_TEXT, "DeleteText"},
                       [position, length](sd_bus_message* m) {
                           return sd_bus_message_append(m, "ii", position, position + length);
                       })))
        return make_error(ErrorCode::action_failed,
                          "the text went in at character " + std::to_string(position) +
                              " and again at the end (the field held more text than it reported), and the field "
                              "refused to take out the first");
    if (TRY(settle([&]() -> nd_core::Result<bool> { return TRY(read_text(ref)) == expected; })))
        return {};
    return make_error(ErrorCode::action_failed,
                      "the text went in short of the end (the field held more text than it reported) and, moved "
                      "to the end, reads back otherwise than expected");
}

nd_core::Result<std::string> ValueRoutes::read(const LiveObject& o)
{
    switch (edit_kind(o)) {
    case EditKind::number:
        return format_number(TRY(read_number(o.ref)));
    case EditKind::cell:
        // A cell's text is what it shows ("42.5", a date as formatted), so set_value's caller
        // compares against that; a cell without Text shows its number.
        if (o.interfaces & IF_TEXT)
            return read_text(o.ref);
        return format_number(TRY(read_number(o.ref)));
    case EditKind::choice: {
        auto all = TRY(options(o));
        if (auto shown = TRY(shown_choice(o, all)))
            return *shown;
        for (const auto& option : all)
            if (option.selected)
                return option.name;
        return std::string();
    }
    default:
        break;
    }
    if ((o.interfaces & IF_TEXT) && (is_text_role(o.role) || (o.interfaces & IF_EDITABLE_TEXT)))
        return read_text(o.ref);
    return std::string();
}

} // namespace nd_linux
