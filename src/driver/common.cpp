#include "driver/common.h"

#include "core/engine/act_result.h"
#include "core/engine/guarded_input.h"
#include "core/encode/json_writer.h"

namespace nd_driver {

namespace arg {

ArgSpec pid()
{
    return {.name = "pid", .type = ArgType::integer, .description = "Process id (its topmost window).",
        .min = 1, .max = 4194304, .strict = true, .guard_bounds = true};
}

ArgSpec window_id()
{
    return {.name = "window_id", .type = ArgType::integer, .description = "Window id from list_windows.",
        .min = 1, .strict = true, .guard_bounds = true};
}

ArgSpec app()
{
    return {.name = "app", .type = ArgType::string,
        .description = "Part of an app's name or window title, instead of pid/window_id.",
        .strict = true, .max_length = 256, .guard_bounds = true};
}

std::vector<ArgSpec> window_target() { return {pid(), window_id(), app()}; }

ArgSpec element_token(std::string_view description)
{
    return {.name = "element_token", .type = ArgType::string, .description = std::string(description), .required = true,
        .strict = true, .max_length = 64, .guard_bounds = true};
}

ArgSpec observe()
{
    return {.name = "observe", .type = ArgType::object,
        .description = "After acting, also return these.",
        .bool_properties = {"tree", "screenshot"}};
}

ArgSpec delivery_mode()
{
    return {.name = "delivery_mode", .type = ArgType::string,
        .description = "background (default) or foreground (real input; takeover only).",
        .enum_values = {"background", "foreground"}, .strict = true};
}

} // namespace arg

nd_core::WindowTarget target_from(const Args& args)
{
    return {args.integer("pid"), args.integer("window_id"), args.string("app")};
}

ToolOutput error_output(const nd_core::Error& e)
{
    ToolOutput out;
    out.is_error = true;
    nd_core::JsonWriter w(out.structured);
    w.begin_object().field("ok", false).key("error");
    nd_core::write_error_object(w, e);
    w.end_object();
    out.text = e.text();
    // The contract's line first; then, as an act's result says it, the takeover the driver
    // recommends and its recipe, so a model that reads only the text learns the way on.
    if (e.escalation_reason)
        out.text += "\nescalation: takeover (" + *e.escalation_reason + ")";
    return out;
}

nlohmann::json window_json(const nd_core::WindowInfo& w)
{
    return {{"window_id", w.window_id}, {"pid", w.pid}, {"app", w.app}, {"title", w.title},
        {"frame", {{"x", w.frame.x}, {"y", w.frame.y}, {"w", w.frame.w}, {"h", w.frame.h}}}, {"active", w.active}};
}

std::vector<ArgSpec> concat(std::vector<ArgSpec> v, std::vector<ArgSpec> items)
{
    for (auto& item : items)
        v.push_back(std::move(item));
    return v;
}

void forward_progress(nd_core::GuardedInput& input, const CallContext& call)
{
    if (!call.wants_progress())
        return;
    input.on_progress([&call](std::int64_t done, std::int64_t total, std::string_view what) {
        call.report_progress(static_cast<double>(done), static_cast<double>(total), what);
    });
}

} // namespace nd_driver
