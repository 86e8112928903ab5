// Background drag (desk_background.h): button events sent to the named window, for the toolkits
// that take them (core/model/background_routes.h); refused, naming the toolkit and why, for the others.

#include "core/encode/utf8.h"
#include "desk/desk.h"
#include "desk/desk_background.h"
#include "desk/desk_geometry.h"
#include "desk/desk_input.h"
#include "desk/desk_looks.h"
#include "desk/desk_targets.h"

#include <map>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;
using nd_core::Point;
using nd_core::WindowPointerEvent;

namespace {

constexpr int READ_BACK_LOOKS = 6;
constexpr std::chrono::milliseconds READ_BACK_STEP{50};

// Every element of the window by its key, with its role and name for the effect's words.
struct Seen {
    Looks looks;
    std::string role, name;
};
using WindowLooks = std::map<std::string, Seen>;

WindowLooks seen_in(const nd_core::Snapshot& snap)
{
    WindowLooks out;
    for (const auto& e : snap.elements)
        if (!e.secure())
            out[e.key] = {looks_of(e), e.role, e.name};
    return out;
}

// The first element that changed, in words; empty when none did.
std::string first_change(const WindowLooks& before, const WindowLooks& after)
{
    for (const auto& [key, was] : before) {
        const auto now = after.find(key);
        if (now == after.end() || now->second.looks == was.looks)
            continue;
        return was.role + " \"" + nd_core::utf8_cut(was.name, 60) + "\": " + looks_change(was.looks, now->second.looks);
    }
    return {};
}

std::string point_text(Point p)
{
    return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")";
}

} // namespace

nd_core::Result<VerbReply> background_drag(Desk& desk, DeskInput& input, const nlohmann::json& args)
{
    if (!names_window(args))
        return make_error(ErrorCode::background_refused,
            "a background drag needs its window: name it with window or pid (x, y, to_x and to_y are then pixels of its shot image)");
    const auto window = TRY(desk.pick_window(args));
    const auto from = TRY(point_arg(args, "x", "y", window));
    const auto to = TRY(point_arg(args, "to_x", "to_y", window));
    TRY_VOID(desk.check_allowed(window));
    // A password field at either end is refused first, whatever the toolkit: auto never turns that
    // refusal into a foreground drag. (A window without AT-SPI cannot be read: its toolkit takes no
    // background drag either, below.)
    const auto snap = desk.read(window);
    if (snap) {
        const auto framed = TRY(framed_elements(desk, **snap));
        for (const auto& [end, name] : {std::pair{from, "the start"}, std::pair{to, "the end"}}) {
            const auto row = row_at(framed, end);
            if (row > 0 && framed[static_cast<std::size_t>(row)].secure())
                return make_error(ErrorCode::secure_field_refused,
                    std::string(name) + " of the drag is on a password field: leave it to the person");
        }
    }
    const auto routes = routes_of(desk, window);
    auto* sender = desk.backend().window_pointer();
    if (!routes.takes("buttons") || !sender)
        return no_background_route(window, routes, "drag",
            routes.takes("value") ? "desk_scroll moves a scroll bar through its value" : "");
    if (!snap)
        return snap.error();
    const auto before = seen_in(**snap);
    const auto send = [&](WindowPointerEvent kind, Point at) {
        auto lock = desk.lock_backend();
        return sender->send_pointer(window, kind, at);
    };
    TRY_VOID(input.check());
    TRY_VOID(send(WindowPointerEvent::press, from));
    // As in the foreground: toolkits start a drag only after a few pixels of motion with the
    // button down, and follow it by motion events. A stop between steps still releases.
    for (std::int32_t i = 1; i <= DeskInput::DRAG_STEPS; ++i) {
        const Point p{from.x + (to.x - from.x) * i / DeskInput::DRAG_STEPS, from.y + (to.y - from.y) * i / DeskInput::DRAG_STEPS};
        auto moved = input.pause(DeskInput::DRAG_STEP) ? send(WindowPointerEvent::motion, p) : input.check();
        if (!moved) {
            (void)send(WindowPointerEvent::release, p);
            return moved.error();
        }
    }
    TRY_VOID(send(WindowPointerEvent::release, to));
    std::string effect;
    for (int look = 0; look < READ_BACK_LOOKS && effect.empty() && input.pause(READ_BACK_STEP); ++look) {
        auto again = desk.read(window);
        if (!again)
            break;
        effect = first_change(before, seen_in(**again));
    }
    nlohmann::json out{{"dragged", {{"from", {from.x, from.y}}, {"to", {to.x, to.y}}}}, {"window", window.title},
        {"input", "background"}, {"route", "button events to the window"}};
    if (!effect.empty())
        out["effect"] = effect;
    else
        out["unverified"] = {{"effect", "press at " + point_text(from) + ", motion and release at " + point_text(to) +
                                            " were sent to the window (" + routes.toolkit + " takes them)"},
            {"note", "no element of the window shows a change: the drag acted on something the tree does not show, or "
                     "had no effect"},
            {"escalation", "look at the window (desk_shot) to see the effect before dragging again; if nothing "
                           "happened, drag in the foreground ([input] mode = \"foreground\")"}};
    return VerbReply{std::move(out), std::nullopt};
}

} // namespace nd_desk
