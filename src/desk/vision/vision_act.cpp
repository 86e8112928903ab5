#include "desk/vision/vision_act.h"

#include "core/encode/resample.h"
#include "desk/desk.h"
#include "desk/desk_geometry.h"
#include "desk/desk_input.h"
#include "desk/desk_nodes.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_launch.h"
#include "desk/desk_settle.h"
#include "desk/desk_targets.h"
#include "desk/vision/typed_count.h"
#include "desk/vision/vision_shot.h"

#include <cmath>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;
using nd_core::Point;
using nd_core::WindowInfo;

namespace {

struct ActRun {
    Desk& desk;
    const CallScope& scope;
    VisionSession& session;
    nd_core::ScreenSize screen;
    double scale = 1.0; // of the screenshot the current step's x,y are in
    std::optional<Settled> settled; // a step that waited for the screen itself sets it
    std::optional<WindowInfo> touched; // the window the step's input went to, when known
};

// A point of the screenshot on the screen; refused off the screen.
nd_core::Result<Point> screen_point(const ActRun& run, double x, double y, std::string_view what)
{
    const auto sx = std::llround(x * run.scale), sy = std::llround(y * run.scale);
    if (x < 0 || y < 0 || sx < 0 || sy < 0 || sx >= run.screen.width || sy >= run.screen.height)
        return make_error(ErrorCode::invalid_arguments,
            std::string(what) + ": (" + nlohmann::json(x).dump() + ", " + nlohmann::json(y).dump() +
                ") lies off the screen, which is " + std::to_string(to_shot(run.screen.width, run.scale)) + "x" +
                std::to_string(to_shot(run.screen.height, run.scale)) + " screenshot pixels; pick a point inside it");
    return Point{static_cast<std::int32_t>(sx), static_cast<std::int32_t>(sy)};
}

// The session's element [index], found again by its key in a fresh read of its window, with its frame.
struct Located {
    nd_core::ElementRef ref;
    nd_core::Element element; // framed
};

std::string describe(std::int64_t index, const VisionElement& e)
{
    return "element [" + std::to_string(index) + "] (" + e.role + " \"" + e.name.substr(0, 60) + "\")";
}

nd_core::Result<Located> locate(ActRun& run, std::int64_t index)
{
    if (run.session.elements.empty())
        return make_error(ErrorCode::element_not_found,
            "element: this session lists no elements yet: call computer_state, then act on an [index] it lists");
    if (index < 0 || static_cast<std::size_t>(index) >= run.session.elements.size())
        return make_error(ErrorCode::invalid_arguments,
            "element: " + std::to_string(index) + " is no index of the session's latest computer_state (0 to " +
                std::to_string(run.session.elements.size() - 1) + ")");
    const auto& known = run.session.elements[static_cast<std::size_t>(index)];
    const auto windows = TRY(run.desk.all_windows());
    const WindowInfo* window = nullptr;
    for (const auto& w : windows)
        if (w.window_id == known.window.window_id)
            window = &w;
    if (!window)
        return make_error(ErrorCode::element_not_found,
            describe(index, known) + ": its window is gone; call computer_state again");
    auto snap = TRY(run.desk.read(*window));
    for (std::int32_t row = 0; row < snap->size(); ++row) {
        if (snap->elements[static_cast<std::size_t>(row)].key != known.key)
            continue;
        auto framed = TRY(framed_elements(run.desk, *snap, std::vector<std::int32_t>{row}));
        auto e = framed[static_cast<std::size_t>(row)];
        if (!e.is(nd_core::STATE_SHOWING) || !e.has_frame || !e.frame.has_area())
            return make_error(ErrorCode::element_not_ready,
                describe(index, known) + " is not showing now (hidden), so it is not clicked; call computer_state again");
        const auto c = centre_of(e.frame);
        if (c.x < 0 || c.y < 0 || c.x >= run.screen.width || c.y >= run.screen.height)
            return make_error(ErrorCode::element_not_ready,
                describe(index, known) + " lies off the screen now; scroll it into view, then call computer_state again");
        return Located{nd_core::ElementRef{snap, row}, std::move(e)};
    }
    return make_error(ErrorCode::element_not_found, describe(index, known) + " is gone from its window; call computer_state again");
}

bool is_text_field(const nd_core::Element& e)
{
    return e.role == "text" || e.role == "entry" || e.role == "password_text" || e.role == "search_box"
        || e.role == "spin_button" || e.role == "terminal" || (e.is(nd_core::STATE_EDITABLE) && e.role != "combo_box");
}

// A left click on an element: a click at its centre when a click there reaches it, else its own
// focus (a text field) or its click action; never a point click on a covered element.
nd_core::Result<nlohmann::json> click_element(ActRun& run, const ActStep& step, std::int64_t index)
{
    const auto located = TRY(locate(run, index));
    const auto hit = TRY(hit_test(run.desk, located.ref));
    // Whichever way it is clicked (a point, its focus, its action), the app handles it on its loop.
    run.touched = located.ref.window();
    nlohmann::json out{{"element", index}};
    if (hit.point) {
        TRY_VOID(refuse_own_surface(run.desk, *hit.point, "the element's centre"));
        auto input = TRY(DeskInput::begin(run.desk, run.scope));
        TRY_VOID(input->click(*hit.point, step.right_button() ? nd_core::MouseButton::right : nd_core::MouseButton::left,
            step.click_count()));
        out["how"] = "click";
        out["at"] = {to_shot(hit.point->x, run.scale), to_shot(hit.point->y, run.scale)};
        return out;
    }
    if (step.right_button() || step.click_count() > 1)
        return make_error(ErrorCode::target_occluded,
            "element [" + std::to_string(index) + "] cannot take a " + step.action + ": " + hit.miss +
                "; bring its window to the front (click its title) and call computer_state again");
    if (is_text_field(located.element)) {
        nd_core::Result<void> focused = make_error(ErrorCode::backend_unavailable, "this desk has no element actions");
        {
            auto lock = run.desk.lock_backend();
            if (auto* actuator = run.desk.backend().actuator())
                focused = actuator->grab_focus(located.ref.window(), located.ref.element());
        }
        if (focused) {
            out["how"] = "focus";
            out["not_clicked"] = hit.miss;
            return out;
        }
    }
    auto action = run_default_action(run.desk, located.ref);
    if (!action)
        return make_error(action.error().code, "element [" + std::to_string(index) + "] was not clicked (" + hit.miss +
                                                   ") and has no action that works (" + action.error().message + ")");
    out["how"] = "action";
    out["action"] = *action;
    out["not_clicked"] = hit.miss;
    return out;
}

nd_core::Result<nlohmann::json> click_point_step(ActRun& run, const ActStep& step)
{
    const auto p = TRY(screen_point(run, *step.x, *step.y, "x, y"));
    TRY_VOID(refuse_own_surface(run.desk, p, "the point"));
    auto input = TRY(DeskInput::begin(run.desk, run.scope));
    const auto top = TRY(check_point_allowed(run.desk, p, "the point"));
    TRY_VOID(input->click(p, step.right_button() ? nd_core::MouseButton::right : nd_core::MouseButton::left, step.click_count()));
    run.touched = top;
    nlohmann::json out{{"at", {*step.x, *step.y}}};
    if (top)
        out["window"] = top->title;
    return out;
}

// The point a scroll or a drag starts at: the element's centre (when a click there reaches it), or x,y.
nd_core::Result<Point> start_point(ActRun& run, const ActStep& step)
{
    if (step.element) {
        const auto located = TRY(locate(run, *step.element));
        const auto hit = TRY(hit_test(run.desk, located.ref));
        if (!hit.point)
            return make_error(ErrorCode::target_occluded, "element [" + std::to_string(*step.element) + "]: " + hit.miss +
                                                              "; bring its window to the front and call computer_state again");
        return *hit.point;
    }
    return screen_point(run, *step.x, *step.y, "x, y");
}

nd_core::Result<nlohmann::json> type_step(ActRun& run, const ActStep& step)
{
    const auto& text = *step.text;
    TRY_VOID(check_text_to_type(text));
    const auto total = count_characters(text);
    // Every failure says how much landed, "typed 0 of M" when it came before the first key.
    auto failed = [&](nd_core::Error e, std::int64_t landed) {
        e.typed_characters = landed;
        e.message += "; typed " + std::to_string(landed) + " of " + std::to_string(total);
        return e;
    };
    auto input = DeskInput::begin(run.desk, run.scope);
    if (!input)
        return failed(std::move(input).error(), 0);
    auto target = key_target(run.desk, **input, nlohmann::json::object());
    if (!target)
        return failed(std::move(target).error(), 0);
    if (auto secure = refuse_secure_focus(run.desk, *target); !secure)
        return failed(std::move(secure).error(), 0);
    auto field = focused_text(run.desk, *target);
    std::int64_t typed = 0;
    auto sent = type_text(run.desk, **input, *target, text, typed);
    input->reset();
    TypedCount count{typed, total, true};
    run.touched = *target;
    if (field) {
        // The toolkit inserts what it was sent on its own loop: read it back once the screen is still.
        reach_app(run.desk, *target);
        auto settled = wait_still(run.desk, run.scope, SETTLE_HOLD_MS, SETTLE_TIMEOUT_MS, "computer_act");
        if (settled)
            run.settled = *settled;
        count = landed(run.desk, *field, text, typed);
    }
    if (!sent)
        return failed(std::move(sent).error(), count.landed);
    nlohmann::json out{{"typed", "typed " + std::to_string(count.landed) + " of " + std::to_string(total)}, {"window", target->title}};
    if (count.unverified)
        out["unverified"] = "the focused element's text cannot be read back, so this counts the characters sent";
    return out;
}

nd_core::Result<nlohmann::json> key_step(ActRun& run, const ActStep& step)
{
    std::string combo = step.key.value_or("");
    if (step.action == "hotkey" && !step.keys.empty()) {
        combo.clear();
        for (const auto& k : step.keys)
            combo += (combo.empty() ? "" : "+") + k;
    }
    const auto keysyms = TRY(parse_key_combination(combo));
    auto input = TRY(DeskInput::begin(run.desk, run.scope));
    const auto target = TRY(key_target(run.desk, *input, nlohmann::json::object()));
    if (keys_make_text(keysyms))
        TRY_VOID(refuse_secure_focus(run.desk, target));
    TRY_VOID(input->press_keys(keysyms));
    run.touched = target;
    return nlohmann::json{{"keys", combo}, {"window", target.title}};
}

nd_core::Result<nlohmann::json> scroll_step(ActRun& run, const ActStep& step)
{
    Point p{run.screen.width / 2, run.screen.height / 2};
    if (step.element || step.x)
        p = TRY(start_point(run, step));
    TRY_VOID(refuse_own_surface(run.desk, p, "the point"));
    auto input = TRY(DeskInput::begin(run.desk, run.scope));
    const auto top = TRY(check_point_allowed(run.desk, p, "the point"));
    const auto amount = static_cast<std::int32_t>(step.amount);
    const auto& d = *step.direction;
    TRY_VOID(input->scroll(p, d == "left" ? -amount : d == "right" ? amount : 0, d == "up" ? -amount : d == "down" ? amount : 0));
    run.touched = top;
    nlohmann::json out{{"direction", d}, {"amount", amount}, {"at", {to_shot(p.x, run.scale), to_shot(p.y, run.scale)}}};
    if (top)
        out["window"] = top->title;
    return out;
}

nd_core::Result<nlohmann::json> drag_step(ActRun& run, const ActStep& step)
{
    const auto from = TRY(start_point(run, step));
    const auto to = TRY(screen_point(run, *step.to_x, *step.to_y, "to_x, to_y"));
    TRY_VOID(refuse_own_surface(run.desk, from, "the drag's start"));
    TRY_VOID(refuse_own_surface(run.desk, to, "the drag's end"));
    auto input = TRY(DeskInput::begin(run.desk, run.scope));
    const auto top = TRY(check_point_allowed(run.desk, from, "the drag's start"));
    TRY_VOID(check_point_allowed(run.desk, to, "the drag's end"));
    TRY_VOID(input->drag(from, to));
    run.touched = top;
    return nlohmann::json{{"from", {to_shot(from.x, run.scale), to_shot(from.y, run.scale)}}, {"to", {*step.to_x, *step.to_y}}};
}

nd_core::Result<nlohmann::json> launch_step(ActRun& run, const ActStep& step)
{
    const auto launched = TRY(launch_named(run.desk, *step.app));
    const auto deadline = run.desk.now_ms() + LAUNCH_WINDOW_TIMEOUT_MS;
    nlohmann::json out{{"app", *step.app}, {"pid", launched.pid}};
    while (run.desk.now_ms() < deadline) {
        const auto windows = TRY(run.desk.all_windows());
        for (const auto& w : windows)
            if (w.pid == launched.pid)
                return out;
        if (!run.scope.stop.sleep_for(std::chrono::milliseconds(100)))
            return make_error(ErrorCode::stopped_by_kill_switch, "computer_act was stopped while the app started");
    }
    out["note"] = "no window of the app showed within 10 s; it may still be starting (or shows its window under another process)";
    return out;
}

nd_core::Result<nlohmann::json> run_step(ActRun& run, const ActStep& step)
{
    if (step.is_click())
        return step.element ? click_element(run, step, *step.element) : click_point_step(run, step);
    if (step.action == "type")
        return type_step(run, step);
    if (step.action == "key" || step.action == "hotkey")
        return key_step(run, step);
    if (step.action == "scroll")
        return scroll_step(run, step);
    if (step.action == "drag")
        return drag_step(run, step);
    if (step.action == "launch_app")
        return launch_step(run, step);
    // wait
    if (!run.scope.stop.sleep_for(std::chrono::milliseconds(std::llround(step.seconds * 1000.0))))
        return make_error(ErrorCode::stopped_by_kill_switch, "computer_act was stopped while it waited");
    return nlohmann::json{{"seconds", step.seconds}};
}

nlohmann::json brief(const WindowInfo& w)
{
    return {{"title", w.title}, {"pid", w.pid}, {"window_id", w.window_id}, {"app", app_name(w)}};
}

// The windows a step opened, closed or brought to the front, into its entry.
void window_changes(const std::vector<WindowInfo>& before, const std::vector<WindowInfo>& after, nlohmann::json& entry)
{
    auto has = [](const std::vector<WindowInfo>& list, std::int64_t id) {
        return std::any_of(list.begin(), list.end(), [&](const WindowInfo& w) { return w.window_id == id; });
    };
    auto opened = nlohmann::json::array(), closed = nlohmann::json::array();
    for (const auto& w : after)
        if (!has(before, w.window_id))
            opened.push_back(brief(w));
    for (const auto& w : before)
        if (!has(after, w.window_id))
            closed.push_back(brief(w));
    if (!opened.empty())
        entry["opened"] = std::move(opened);
    if (!closed.empty())
        entry["closed"] = std::move(closed);
    const WindowInfo* front_before = nullptr;
    for (const auto& w : before)
        if (w.active)
            front_before = &w;
    for (const auto& w : after)
        if (w.active && (!front_before || front_before->window_id != w.window_id) && has(before, w.window_id))
            entry["front"] = brief(w);
}

} // namespace

nd_core::Result<VerbReply> computer_act(Desk& desk, const CallScope& scope, const ActRequest& req)
{
    auto session = desk.vision_sessions().get(req.session);
    const auto screen = TRY(vision_screen_size(desk));
    ActRun run{desk, scope, session, screen};
    const bool uses_points = std::any_of(req.steps.begin(), req.steps.end(),
        [](const ActStep& s) { return s.x.has_value() || s.to_x.has_value(); });
    if (req.scale)
        run.scale = *req.scale;
    else if (session.shot)
        run.scale = session.shot->scale();
    else if (auto any = desk.vision_sessions().any_shot())
        run.scale = any->scale();
    else if (uses_points)
        return make_error(ErrorCode::invalid_arguments,
            "x, y: no screenshot was taken yet, so screenshot pixels mean nothing: call computer_state first, or pass scale");
    // The scale of the screenshot that follows each step: the one this call answers with.
    std::int32_t next_w = 0, next_h = 0;
    nd_core::fit_long_edge(screen.width, screen.height, req.max_edge, next_w, next_h);
    const double next_scale = static_cast<double>(screen.width) / next_w;

    auto steps = nlohmann::json::array();
    auto before = TRY(desk.all_windows());
    Settled settled;
    for (std::size_t i = 0; i < req.steps.size(); ++i) {
        const auto& step = req.steps[i];
        run.settled.reset();
        run.touched.reset();
        auto done = run_step(run, step);
        if (!done) {
            auto e = std::move(done).error();
            e.message = (req.steps.size() > 1 ? "step " + std::to_string(i + 1) + " of " + std::to_string(req.steps.size()) +
                                                    " (" + step.action + ") failed"
                                              : step.action + " failed") +
                        ": " + e.message + (i > 0 ? "; the steps before it were done: call computer_state to see the screen" : "");
            return e;
        }
        auto entry = std::move(*done);
        entry["action"] = step.action;
        if (step.foreground)
            entry["input"] = "foreground";
        if (!run.settled && run.touched)
            reach_app(desk, *run.touched);
        settled = run.settled ? *run.settled : TRY(wait_still(desk, scope, SETTLE_HOLD_MS, SETTLE_TIMEOUT_MS, "computer_act"));
        run.settled.reset();
        auto after = TRY(desk.all_windows());
        window_changes(before, after, entry);
        before = std::move(after);
        steps.push_back(std::move(entry));
        run.scale = next_scale;
    }
    const auto picture = TRY(screen_picture(desk, req.max_edge));
    nlohmann::json out{{"session", req.session}, {"steps", std::move(steps)}, {"still", settled.still},
        {"screenshot", picture_json(picture)}};
    desk.vision_sessions().put_shot(req.session, picture.shot);
    return picture_reply(std::move(out), picture);
}

} // namespace nd_desk
