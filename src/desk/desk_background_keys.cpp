// Background key (desk_background.h): key events sent to the named window, for the toolkits that
// take them (core/model/background_routes.h); refused, naming the toolkit and why, for the others.

#include "desk/desk.h"
#include "desk/desk_background.h"
#include "desk/desk_targets.h"

#include <map>
#include <thread>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

constexpr std::chrono::milliseconds READ_BACK_FOR{300};
constexpr std::chrono::milliseconds READ_BACK_STEP{50};

// The text of every editable element of the window by its key, in a fresh read; nullopt when the
// window cannot be read. (A toolkit may not mark the focus of a window that is not active, so the
// read back looks at every field, not only the focused one.)
using Fields = std::map<std::string, std::string>;
std::optional<Fields> field_texts(Desk& desk, const nd_core::WindowInfo& window)
{
    auto snap = desk.read(window);
    if (!snap)
        return std::nullopt;
    Fields out;
    for (const auto& e : (*snap)->elements)
        if (e.is(nd_core::STATE_EDITABLE) && !e.secure())
            out[e.key] = e.value;
    return out;
}

} // namespace

nd_core::Result<VerbReply> background_key(Desk& desk, const nlohmann::json& args, const std::string& keys,
    const std::vector<std::string>& keysyms)
{
    if (!names_window(args))
        return make_error(ErrorCode::background_refused,
            "background keys need their window: name it with window or pid (the keys go to its own focus)");
    const auto window = TRY(desk.pick_window(args));
    const auto routes = routes_of(desk, window);
    auto* sender = desk.backend().window_keys();
    if (!routes.takes("keys") || !sender)
        return no_background_route(window, routes, "keys",
            routes.takes("text") ? "type text with desk_type, which has a background route" : "");
    // A printable key or a paste would put text into a password field as type would.
    if (keys_make_text(keysyms))
        TRY_VOID(refuse_secure_focus(desk, window));
    const auto before = field_texts(desk, window);
    {
        auto lock = desk.lock_backend();
        TRY_VOID(sender->send_keys(window, keysyms));
    }
    // Read back: the focused field's text changed (a key that edits). Other keys show no effect
    // there, which is not a failure: such results are unverified.
    bool changed = false;
    for (auto waited = std::chrono::milliseconds(0); before && !changed && waited < READ_BACK_FOR; waited += READ_BACK_STEP) {
        std::this_thread::sleep_for(READ_BACK_STEP);
        const auto after = field_texts(desk, window);
        changed = after && *after != *before;
    }
    nlohmann::json out{{"keys", keys}, {"sent", keysyms}, {"window", window.title}, {"pid", window.pid},
        {"input", "background"}, {"route", "key events to the window"}};
    if (changed)
        out["effect"] = "a field's text changed";
    else
        out["unverified"] = {{"effect", "the keys were sent to the window as key events (" + routes.toolkit + " takes them)"},
            {"note", "no field of the window shows a change: the keys act elsewhere, or had no effect"},
            {"escalation", "read the window (desk_snapshot) to see the effect before sending them again; if nothing "
                           "happened, send them in the foreground ([input] mode = \"foreground\")"}};
    return VerbReply{std::move(out), std::nullopt};
}

} // namespace nd_desk
