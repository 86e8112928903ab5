#include "desk/desk_confirm.h"

#include "core/encode/utf8.h"
#include "desk/desk.h"
#include "desk/desk_targets.h"

#include <algorithm>

namespace nd_desk {

using nd_core::ConfirmOutcome;
using nd_core::ConfirmRequest;
using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

std::string number(double v)
{
    const auto whole = static_cast<std::int64_t>(v);
    return static_cast<double>(whole) == v ? std::to_string(whole) : std::to_string(v);
}

std::string point_text(const nlohmann::json& args, std::string_view x, std::string_view y)
{
    auto px = arg_number(args, x), py = arg_number(args, y);
    return px && py ? "(" + number(*px) + ", " + number(*py) + ")" : std::string{};
}

// The element a node id (<snapshot_id>:<N>) names in the read that issued it, without a new read.
const nd_core::Element* known_element(Desk& desk, std::string_view id, nd_core::SnapshotPtr& snap)
{
    nd_core::ParsedToken parsed;
    if (!nd_core::parse_token(id, parsed))
        return nullptr;
    if (desk.snapshots().find(parsed.snapshot_id, snap) != nd_core::SnapshotStore::Lookup::current || !snap
        || parsed.index < 0 || static_cast<std::size_t>(parsed.index) >= snap->elements.size())
        return nullptr;
    return &snap->elements[static_cast<std::size_t>(parsed.index)];
}

std::string element_words(const nd_core::Element& e)
{
    std::string role = e.role.empty() ? "element" : e.role;
    std::replace(role.begin(), role.end(), '_', ' ');
    return e.name.empty() ? "an unnamed " + role : "the " + role + " \u201c" + e.name + "\u201d";
}

// The first CONFIRM_TEXT_START code points of `text`.
std::string text_start(std::string_view text)
{
    std::size_t i = 0;
    for (std::size_t chars = 0; i < text.size() && chars < nd_core::CONFIRM_TEXT_START; ++chars) {
        const auto n = nd_core::utf8_sequence_length(text, i, nullptr);
        i += n == 0 ? 1 : n;
    }
    return std::string(text.substr(0, i));
}

} // namespace

bool confirm_asks(const Desk& desk, const VerbDef& verb)
{
    switch (desk.config().confirm) {
    case DeskConfig::ConfirmMode::off: return false;
    case DeskConfig::ConfirmMode::acts: return verb.changes_desktop;
    case DeskConfig::ConfirmMode::all: return true;
    }
    return true;
}

ConfirmRequest confirm_request(Desk& desk, const VerbDef& verb, const nlohmann::json& args)
{
    ConfirmRequest req;
    req.verb = verb.decl.name;
    if (auto action = arg_string(args, "action"))
        req.verb += " " + *action; // computer_act's click, type, key...

    // The element a node id names, and its window.
    const auto id = arg_string(args, "id");
    nd_core::SnapshotPtr snap;
    const nd_core::Element* element = id ? known_element(desk, *id, snap) : nullptr;
    std::optional<nd_core::WindowInfo> window;
    if (element) {
        window = snap->window;
        req.target = element_words(*element);
    } else {
        // `id` of the window verbs is a desk window id; a node id that is no longer known is not.
        nlohmann::json named = args.is_object() ? args : nlohmann::json::object();
        if (id && id->find(':') != std::string::npos)
            named.erase("id");
        if (auto picked = desk.pick_window(named, true))
            window = *picked;
    }
    if (window) {
        req.app = window->app;
        req.window = window->title;
    }
    if (auto at = point_text(args, "x", "y"); !at.empty())
        req.target = "the point " + at;
    if (auto from = point_text(args, "from_x", "from_y"); !from.empty())
        req.target = "from " + from + " to " + point_text(args, "to_x", "to_y");

    const auto text = arg_string(args, "text");
    const auto keys = arg_string(args, "keys");
    if (!text && !keys)
        return req;
    // Typed text and keys are shown only where the field they go to is known not to be a
    // password field: the named element's own state, else the focused field of the window.
    req.secure = element ? element->secure() : !window || !refuse_secure_focus(desk, *window).ok();
    if (text) {
        req.text_chars = static_cast<std::int64_t>(nd_core::utf8_length(*text));
        if (!req.secure)
            req.text_start = text_start(*text);
    }
    if (keys && req.target.empty())
        req.target = req.secure ? "keys (to a password field: not shown)" : "the keys " + *keys;
    return req;
}

nd_core::Result<void> confirm_call(Desk& desk, const VerbDef& verb, const CallScope& scope, const nlohmann::json& args)
{
    if (!confirm_asks(desk, verb))
        return {};
    const std::string& name = verb.decl.name;
    auto* provider = desk.confirm_provider();
    if (!provider)
        return make_error(ErrorCode::confirm_refused,
            "confirm mode is on, but nothing here can ask the person (no dialog on this backend and no host on a "
            "control pipe), so " + name + " was not sent");
    const auto req = confirm_request(desk, verb, args);
    const auto seconds = desk.config().confirm_timeout_s;
    const nd_core::ConfirmWait wait{std::chrono::seconds(seconds), [stop = scope.stop] { return stop.stopped(); }};
    auto outcome = provider->ask(req, wait);
    if (!outcome)
        return make_error(ErrorCode::confirm_refused,
            "confirm mode could not ask the person (" + outcome.error().message + "), so " + name + " was not sent");
    switch (*outcome) {
    case ConfirmOutcome::allowed: return {};
    case ConfirmOutcome::refused:
        return make_error(ErrorCode::confirm_refused, "the person refused " + name + " (confirm mode); it was not sent");
    case ConfirmOutcome::timed_out:
        return make_error(ErrorCode::confirm_refused, "the person did not answer the confirm dialog within " +
            std::to_string(seconds) + " s, so " + name + " was not sent");
    case ConfirmOutcome::stopped:
        return make_error(ErrorCode::confirm_refused, "stopped by the user (safety_stop) while asking to confirm " + name);
    }
    return make_error(ErrorCode::confirm_refused, name + " was not sent");
}

} // namespace nd_desk
