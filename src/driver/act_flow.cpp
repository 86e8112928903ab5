#include "driver/act_flow.h"

#include "core/engine/own_surface_guard.h"
#include "driver/observe.h"

#include <charconv>

namespace nd_driver {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

void append_diff_text(std::string& out, const nd_core::Diff& d)
{
    for (const auto& e : d.entries) {
        switch (e.kind) {
        case nd_core::DiffEntry::Kind::added: out += "+ [" + std::to_string(e.index) + "] "; break;
        case nd_core::DiffEntry::Kind::removed: out += "- [" + std::to_string(e.index) + "] "; break;
        case nd_core::DiffEntry::Kind::changed: out += "~ [" + std::to_string(e.index) + "] "; break;
        }
        out += e.role + " \"" + e.name + "\"";
        if (e.kind == nd_core::DiffEntry::Kind::changed)
            out += " " + e.field + ": \"" + e.from + "\" -> \"" + e.to + "\"";
        out += "\n";
    }
    if (d.truncated)
        out += "(diff cut; read the window for the rest)\n";
}

// Settles, diffs, judges and renders. The act already happened: a failed settle read is reported
// in observe (when asked) and the result falls back to the before read.
nd_core::Result<ToolOutput> finish(ToolEnv& env, const Args& args, std::string_view tool,
    const nd_core::SnapshotPtr& before, nd_core::ActResult& r)
{
    auto settled = env.engine.settle(*env.session, *before, r.settle);
    std::optional<nd_core::Error> settle_error;
    if (settled.ok()) {
        r.after = *settled;
    } else {
        settle_error = settled.error();
        r.after = before;
    }
    r.diff = nd_core::diff_snapshots(*before, *r.after);
    nd_core::judge(r);

    ToolOutput out;
    nd_core::JsonWriter w(out.structured);
    w.begin_object();
    nd_core::write_act_fields(w, r);
    auto observe = observe_request(args);
    if (observe.any())
        write_observe(w, env, observe, settle_error ? nullptr : r.after, settle_error ? &*settle_error : nullptr, out);
    w.end_object();

    out.text = std::string(tool) + ": " + r.effect + " (" + r.path + ")";
    if (r.readback)
        out.text += ", readback " + std::string(nd_core::readback_name(*r.readback));
    if (r.typed_characters)
        out.text += ", typed " + std::to_string(*r.typed_characters) + " characters";
    out.text += "; snapshot " + r.after->id + (r.diff.structural ? " (structure changed: read again for new tokens)" : "");
    if (r.settle.window_closed)
        out.text += "; the window closed";
    out.text += "\n";
    append_diff_text(out.text, r.diff);
    if (r.escalation)
        out.text += "escalation: " + r.escalation->recommend + " (" + r.escalation->reason + ")\n";
    return out;
}

} // namespace

nd_core::Result<ToolOutput> run_element_act(
    ToolEnv& env, const Args& args, std::string_view tool, const ElementPerform& perform)
{
    auto token = args.string("element_token").value_or("");
    auto ref = TRY(env.engine.resolve_token(*env.session, token));
    nd_core::ActResult r;
    TRY_VOID(perform(env, ref, r));
    return finish(env, args, tool, ref.snapshot, r);
}

nd_core::Result<ToolOutput> run_window_act(ToolEnv& env, const Args& args, std::string_view tool,
    const nd_core::WindowInfo& window, const WindowPerform& perform)
{
    auto before = TRY(env.engine.read_window(*env.session, window));
    nd_core::ActResult r;
    TRY_VOID(perform(env, before, r));
    return finish(env, args, tool, before, r);
}

nd_core::Result<void> require_takeover(const ToolEnv& env, std::string_view what)
{
    if (env.session->takeover.on)
        return nd_core::Ok{};
    return make_error(ErrorCode::requires_takeover, std::string(what) + " needs a takeover session; this one is headless");
}

nd_core::Result<nd_core::Point> click_point(ToolEnv& env, const nd_core::ElementRef& ref)
{
    const auto framed = TRY(env.engine.with_frames(ref.snapshot, {ref.index}));
    const auto& e = framed->elements[static_cast<std::size_t>(ref.index)];
    if (!e.has_frame || !e.frame.has_area())
        return make_error(ErrorCode::element_not_ready,
            "element " + std::to_string(ref.index) + " has no bounds on screen (hidden?); use its headless action");
    nd_core::Point p{e.frame.x + e.frame.w / 2, e.frame.y + e.frame.h / 2};
    const auto& win = ref.window();
    auto* source = env.engine.backend().windows();
    // Our own surfaces refuse the click where it is sent, as reserved for the person, and so does
    // a display that cannot tell whether the point is on one.
    if (auto own = nd_core::own_surface_at(env.engine.backend(), p); !own || *own)
        return p;
    // Surfaces no window manager places lie above every listed window: the topmost one at the
    // point takes the click. One of the window's own program (a menu or a popover, which may reach
    // past the window's edge) is where the element shows; another program's covers it.
    for (const auto& s : TRY(source->list_unmanaged())) {
        if (!s.frame.contains(p.x, p.y))
            continue;
        if (s.pid > 0 && s.pid == win.pid)
            return p;
        return make_error(ErrorCode::target_occluded,
            "window " + std::to_string(s.window_id) +
                ", another program's menu, tooltip or notification, covers the element's centre");
    }
    if (!win.frame.contains(p.x, p.y))
        return make_error(ErrorCode::element_not_ready,
            "element " + std::to_string(ref.index) + " lies outside its window; scroll it into view first");
    auto windows = TRY(source->list_windows());
    // Topmost first: any window listed before the target that covers the point occludes it.
    for (const auto& w : windows) {
        if (w.window_id == win.window_id)
            break;
        if (w.frame.contains(p.x, p.y))
            return make_error(ErrorCode::target_occluded,
                "window " + std::to_string(w.window_id) + " covers the element's centre");
    }
    return p;
}

nd_core::Result<void> require_focus(ToolEnv& env, const nd_core::WindowInfo& window)
{
    auto windows = TRY(env.engine.backend().windows()->list_windows());
    for (const auto& w : windows)
        if (w.window_id == window.window_id) {
            if (w.active)
                return nd_core::Ok{};
            break;
        }
    return make_error(ErrorCode::focus_changed,
        "window " + std::to_string(window.window_id) + " is not the active window");
}

} // namespace nd_driver
