#include "desk/desk_background.h"

#include "core/encode/utf8.h"
#include "core/model/act_actions.h"
#include "desk/desk.h"
#include "desk/desk_geometry.h"
#include "desk/desk_input.h"
#include "desk/desk_looks.h"
#include "desk/desk_nodes.h"
#include "desk/desk_targets.h"

#include <algorithm>
#include <cstdio>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

bool takes_text(const nd_core::Element& e)
{
    return e.is(nd_core::STATE_EDITABLE) && e.is(nd_core::STATE_SHOWING);
}

// The field background type writes into, in its fresh read.
nd_core::Result<nd_core::ElementRef> text_field(Desk& desk, const nlohmann::json& args)
{
    if (auto id = arg_string(args, "id")) {
        auto ref = TRY(resolve_node(desk, *id));
        if (names_window(args)) {
            const auto named = TRY(desk.pick_window(args));
            if (named.window_id != ref.window().window_id)
                return make_error(ErrorCode::invalid_arguments,
                    "id names a node of another window than window or pid; give one of them, or both of the same window");
        }
        return ref;
    }
    if (!names_window(args))
        return make_error(ErrorCode::background_refused,
            "background input needs its target: name the window (window or pid) or the field (id)");
    const auto window = TRY(desk.pick_window(args));
    const auto snap = TRY(desk.read(window));
    std::optional<std::int32_t> focused, only;
    int fields = 0;
    for (std::int32_t row = 1; row < snap->size(); ++row) {
        const auto& e = snap->elements[static_cast<std::size_t>(row)];
        if (e.is(nd_core::STATE_FOCUSED) && e.secure())
            return make_error(ErrorCode::secure_field_refused,
                "not sent: the focused field is a password field; leave it to the person");
        if (!takes_text(e) || e.secure())
            continue;
        if (e.is(nd_core::STATE_FOCUSED))
            focused = row;
        ++fields;
        only = row;
    }
    if (focused)
        return nd_core::ElementRef{snap, *focused};
    if (fields == 1)
        return nd_core::ElementRef{snap, *only};
    return make_error(ErrorCode::background_refused,
        "the window \"" + window.title + "\" has " + std::to_string(fields) +
            " text fields and none has the keyboard focus: name the field with id (a node id from desk_snapshot or desk_find)");
}

} // namespace

nd_core::Result<nd_core::WindowInfo> focus_field(Desk& desk, DeskInput& input, const nlohmann::json& args)
{
    const auto ref = TRY(text_field(desk, args));
    const auto& e = ref.element();
    auto window = ref.window();
    TRY_VOID(desk.check_allowed(window));
    if (e.secure())
        return make_error(ErrorCode::secure_field_refused, "not sent: the field is a password field; leave it to the person");
    if (!window.active) {
        TRY_VOID(input.raise(window));
        window.active = true;
    }
    auto lock = desk.lock_backend();
    auto* actuator = desk.backend().actuator();
    if (!actuator)
        return make_error(ErrorCode::backend_unavailable, "this desk has no element actions to focus the field with");
    TRY_VOID(actuator->grab_focus(window, e));
    return window;
}

nd_core::BackgroundRoutes routes_of(Desk& desk, const nd_core::WindowInfo& window)
{
    auto lock = desk.lock_backend();
    return desk.backend().background_routes(window);
}

nd_core::Error no_background_route(const nd_core::WindowInfo& window, const nd_core::BackgroundRoutes& routes,
    std::string_view what, std::string_view hint)
{
    return make_error(ErrorCode::background_refused,
        "the window \"" + window.title + "\" (" + (routes.toolkit.empty() ? std::string("unknown toolkit") : routes.toolkit) +
            ") takes no background " + std::string(what) + ": " +
            (routes.note.empty() ? std::string("this desk cannot send it") : routes.note) +
            (hint.empty() ? std::string() : "; " + std::string(hint)));
}

nd_core::Result<VerbReply> by_input_mode(Desk& desk, const std::function<nd_core::Result<VerbReply>()>& background,
    const std::function<nd_core::Result<VerbReply>()>& foreground)
{
    using Mode = DeskConfig::InputMode;
    const auto mode = desk.config().input_mode;
    if (mode == Mode::foreground)
        return foreground();
    auto sent = background();
    if (mode == Mode::background || sent || sent.error().code != ErrorCode::background_refused)
        return sent;
    auto reply = TRY(foreground());
    reply.result["input"] = "foreground";
    reply.result["background_refused"] = sent.error().message;
    return reply;
}

nd_core::Result<VerbReply> background_click(Desk& desk, DeskInput& input, const nlohmann::json& args)
{
    const auto button = arg_string(args, "button").value_or("left");
    const auto count = arg_int(args, "count").value_or(1);
    if (button != "left" || count != 1)
        return make_error(ErrorCode::background_refused,
            "only a single left click has a background route (the element's own click action); a " + button +
                (count > 1 ? " " + std::to_string(count) + "-fold" : std::string()) + " click has none");
    const auto named = TRY(named_window(desk, args));
    const auto point = TRY(point_arg(args, "x", "y", named));
    TRY_VOID(refuse_own_surface(desk, point, "the point"));
    nd_core::WindowInfo window;
    if (named) {
        window = *named;
    } else {
        const auto windows = TRY(desk.all_windows());
        const auto* top = window_at(windows, point);
        if (!top)
            return make_error(ErrorCode::background_refused,
                "no window is under (" + std::to_string(point.x) + ", " + std::to_string(point.y) + ") to click in");
        window = *top;
    }
    TRY_VOID(desk.check_allowed(window));
    const auto snap = TRY(desk.read(window));
    const auto framed = TRY(framed_elements(desk, *snap));
    const auto routes = routes_of(desk, window);
    std::int32_t row = row_at(framed, point);
    // A click on a button's label presses the button: the nearest row with a click action of its own
    // (or one a click selects: a cell of a row).
    for (; row > 0; row = framed[static_cast<std::size_t>(row)].parent) {
        const auto& e = framed[static_cast<std::size_t>(row)];
        // Names a bulk read left empty (Chromium) are asked when the action runs.
        const bool unnamed = e.action_names_pending();
        const bool clicks =
            nd_core::choose_action(nd_core::ActKind::click, e.actions, nd_core::act_target(e, routes.toolkit)).has_value();
        if (unnamed || clicks || e.is(nd_core::STATE_SELECTABLE) || e.secure())
            break;
    }
    if (row <= 0)
        return make_error(ErrorCode::background_refused,
            "no element of "" + window.title + "" at (" + std::to_string(point.x) + ", " + std::to_string(point.y) +
                ") has a click action of its own to run in the background");
    const nd_core::ElementRef ref{snap, row};
    const auto& e = ref.element();
    if (e.secure())
        return make_error(ErrorCode::secure_field_refused, "the point is on a password field: leave it to the person");
    if (!e.is(nd_core::STATE_ENABLED))
        return make_error(ErrorCode::background_refused, "the element at the point (" + e.role + ") is disabled");
    TRY_VOID(input.check());
    const auto before = looks_of(e);
    const auto action = TRY(run_default_action(desk, ref));
    // Toolkits run an action from their main loop (GTK3 from an idle): look a few times.
    std::optional<Looks> after;
    bool gone = false;
    for (int look = 0; look < 6; ++look) {
        auto again = desk.read(window);
        if (!again) {
            gone = true;
            break;
        }
        after.reset();
        for (const auto& x : (*again)->elements)
            if (x.key == e.key)
                after = looks_of(x);
        if (!after) {
            gone = true;
            break;
        }
        if (*after != before || !input.pause(std::chrono::milliseconds(40)))
            break;
    }
    nlohmann::json out{{"clicked", {point.x, point.y}}, {"button", "left"}, {"count", 1}, {"window", window.title},
        {"input", "background"}, {"route", "element action"}, {"action", action},
        {"element", {{"role", e.role}, {"name", nd_core::utf8_cut(e.name, 80)}}}};
    if (after && *after != before) {
        out["effect"] = looks_change(before, *after);
    } else {
        out["unverified"] = {{"effect", "ran the element's own " + action + " action"},
            {"note", gone ? "the element went away (its window or part closed), which may be the click's effect"
                          : "the element itself shows no change: the effect lies elsewhere, or did not happen"},
            {"escalation", "read the window (desk_snapshot) to see the effect before clicking again; if nothing "
                           "happened, click in the foreground ([input] mode = \"foreground\")"}};
    }
    return VerbReply{std::move(out), std::nullopt};
}

namespace {

// The showing scroll bar of the axis (vertical: taller than wide) that is a child of `row` or of
// its nearest ancestor holding one; -1 when none.
std::int32_t scroll_bar_for(const std::vector<nd_core::Element>& el, std::int32_t row, bool vertical)
{
    for (; row >= 0; row = el[static_cast<std::size_t>(row)].parent) {
        for (std::size_t i = static_cast<std::size_t>(row) + 1; i < el.size() && el[i].depth > el[static_cast<std::size_t>(row)].depth;
             ++i) {
            const auto& x = el[i];
            if (x.parent != row || x.role != "scroll_bar" || !x.is(nd_core::STATE_SHOWING) || !x.has_frame)
                continue;
            if ((x.frame.h > x.frame.w) == vertical)
                return static_cast<std::int32_t>(i);
        }
    }
    return -1;
}

std::optional<double> number(const std::string& s)
{
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        return used > 0 ? std::optional<double>(v) : std::nullopt;
    } catch (...) {
        return std::nullopt;
    }
}

} // namespace

nd_core::Result<VerbReply> background_scroll(Desk& desk, DeskInput& input, const nlohmann::json& args)
{
    if (!names_window(args))
        return make_error(ErrorCode::background_refused, "background scroll needs the window: name it with window or pid");
    const auto window = TRY(desk.pick_window(args));
    const auto direction = *arg_string(args, "direction");
    const auto notches = std::min<std::int64_t>(arg_int(args, "amount").value_or(3), 50);
    const auto point = arg_int(args, "x") ? TRY(point_arg(args, "x", "y", window)) : centre_of(window.frame);
    const auto snap = TRY(desk.read(window));
    const auto framed = TRY(framed_elements(desk, *snap));
    const bool vertical = direction == "up" || direction == "down";
    const auto bar = scroll_bar_for(framed, std::max(0, row_at(framed, point)), vertical);
    if (bar < 0)
        return make_error(ErrorCode::background_refused,
            "nothing at (" + std::to_string(point.x) + ", " + std::to_string(point.y) + ") of \"" + window.title +
                "\" has a " + (vertical ? "vertical" : "horizontal") + " scroll bar to move through its own value");
    const nd_core::ElementRef ref{snap, bar};
    const auto& e = ref.element();
    TRY_VOID(input.check());
    std::optional<double> before, after;
    {
        auto lock = desk.lock_backend();
        auto* actuator = desk.backend().actuator();
        if (!actuator)
            return make_error(ErrorCode::background_refused, "this desk has no element interfaces to scroll through");
        if (auto v = actuator->read_value(window, e))
            before = number(*v);
        if (!before)
            return make_error(ErrorCode::background_refused, "the scroll bar has no value to move");
        const double step = SCROLL_STEP * static_cast<double>(notches) * (direction == "up" || direction == "left" ? -1 : 1);
        char text[64];
        std::snprintf(text, sizeof text, "%.17g", std::max(0.0, *before + step));
        auto set = actuator->set_value(window, e, text);
        if (!set) {
            if (set.error().code == ErrorCode::unsupported || set.error().code == ErrorCode::action_failed ||
                set.error().code == ErrorCode::action_not_offered || set.error().code == ErrorCode::invalid_arguments)
                return make_error(ErrorCode::background_refused, "the scroll bar takes no value: " + set.error().message);
            return std::move(set).error();
        }
        if (auto v = actuator->read_value(window, e))
            after = number(*v);
    }
    nlohmann::json out{{"scrolled", direction}, {"amount", notches}, {"at", {point.x, point.y}}, {"window", window.title},
        {"input", "background"}, {"route", "scroll bar value"}, {"from", *before}};
    if (after && *after != *before) {
        out["to"] = *after;
    } else {
        out["unverified"] = {{"effect", "asked the scroll bar to move by its own value interface"},
            {"note", after ? "its value did not change: it may be at its end already" : "its value could not be read back"},
            {"escalation", "read the window (desk_snapshot) to see what shows; scroll in the foreground if it did not move"}};
    }
    return VerbReply{std::move(out), std::nullopt};
}

nd_core::Result<VerbReply> background_type(Desk& desk, DeskInput& input, const nlohmann::json& args, std::string_view text)
{
    const auto ref = TRY(text_field(desk, args));
    const auto& e = ref.element();
    const auto& window = ref.window();
    TRY_VOID(desk.check_allowed(window));
    if (e.secure())
        return make_error(ErrorCode::secure_field_refused, "not sent: the field is a password field; leave it to the person");
    if (!e.is(nd_core::STATE_EDITABLE))
        return make_error(ErrorCode::background_refused,
            "the node (" + e.role + ") takes no text through its own interface: name a text field");
    if (!e.is(nd_core::STATE_ENABLED))
        return make_error(ErrorCode::background_refused, "the field (" + e.role + ") is disabled: it takes no text");
    TRY_VOID(input.check());
    std::optional<std::string> before, after;
    nd_core::TypedEnter typed{text, {}};
    {
        auto lock = desk.lock_backend();
        auto* actuator = desk.backend().actuator();
        if (!actuator)
            return make_error(ErrorCode::background_refused, "this desk has no element interfaces to type through");
        if (TRY(actuator->is_secure_now(window, e)))
            return make_error(ErrorCode::secure_field_refused, "not sent: the field is a password field; leave it to the person");
        if (auto value = actuator->read_value(window, e))
            before = *value;
        // A last line break into a GTK single-line field is its Enter: its "activate" action.
        typed = nd_core::typed_enter(text, e, desk.backend().background_routes(window).toolkit);
        auto inserted = typed.inserts() ? actuator->insert_text(window, e, typed.text) : nd_core::Result<void>(nd_core::Ok{});
        if (!inserted) {
            // No route (no EditableText: Chromium's web fields) or one the app refused: nothing
            // was written, so the foreground may still type it.
            if (inserted.error().code == ErrorCode::unsupported || inserted.error().escalation_reason)
                return make_error(ErrorCode::background_refused,
                    "the field (" + e.role + ") does not take text through its own interface: " + inserted.error().message);
            return std::move(inserted).error();
        }
        if (auto value = actuator->read_value(window, e))
            after = *value;
        if (!typed.action.empty()) {
            auto entered = actuator->do_action(window, e, typed.action);
            if (!entered)
                return make_error(entered.error().code, typed.failed_enter(entered.error().message));
        }
    }
    nlohmann::json out{{"typed", static_cast<std::int64_t>(nd_core::utf8_length(text))}, {"window", window.title},
        {"pid", window.pid}, {"input", "background"}, {"route", "text interface"},
        {"field", {{"role", e.role}, {"name", nd_core::utf8_cut(e.name, 80)}}}};
    if (!typed.action.empty())
        out["enter"] = typed.action;
    // Read back: the field now holds its old text with this one inserted somewhere (read before its
    // Enter ran, which may close the dialog).
    const bool landed = before && after && after->size() == before->size() + typed.text.size() &&
                        after->find(typed.text) != std::string::npos;
    if (!landed)
        out["unverified"] = {{"effect", "the text was given to the field's own text interface"},
            {"note", before && after ? "the field's text did not read back with it inserted"
                                     : "the field's text could not be read back"},
            {"escalation", "read the field with desk_read before typing again; if the text is missing, type it in the "
                           "foreground ([input] mode = \"foreground\")"}};
    return VerbReply{std::move(out), std::nullopt};
}

} // namespace nd_desk
