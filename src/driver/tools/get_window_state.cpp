#include "core/model/schemas.h"
#include "core/model/view_render.h"
#include "driver/common.h"
#include "driver/observe.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;

struct Target {
    nd_core::SnapshotPtr snapshot;
    std::int32_t root = 0;
    std::optional<std::string> root_token;
};

nd_core::Result<Target> resolve(ToolEnv& env, const Args& args)
{
    auto target = target_from(args);
    if (auto root = args.string("root")) {
        auto ref = TRY(env.engine.resolve_token(*env.session, *root));
        if ((target.window_id && *target.window_id != ref.window().window_id)
            || (target.pid && *target.pid != ref.window().pid))
            return nd_core::make_error(ErrorCode::invalid_arguments, "root belongs to another window than the target");
        return Target{ref.snapshot, ref.index, *root};
    }
    auto window = TRY(env.engine.resolve_window(*env.session, target));
    auto snap = TRY(env.engine.read_window(*env.session, window));
    return Target{snap, 0, std::nullopt};
}

nd_core::ViewRequest view_request(const Args& args, std::int32_t root, bool skeleton)
{
    nd_core::ViewRequest req;
    req.kind = skeleton ? nd_core::ViewKind::skeleton : nd_core::ViewKind::full;
    req.root = root;
    req.max_elements = static_cast<std::int32_t>(args.integer("max_elements").value_or(
        skeleton ? nd_core::SKELETON_DEFAULT_MAX_ELEMENTS : nd_core::FULL_DEFAULT_MAX_ELEMENTS));
    if (skeleton)
        req.max_elements = std::min(req.max_elements, nd_core::SKELETON_MAX_ELEMENTS);
    req.max_depth = static_cast<std::int32_t>(args.integer("max_depth").value_or(
        skeleton ? nd_core::SKELETON_DEFAULT_MAX_DEPTH : nd_core::FULL_DEFAULT_MAX_DEPTH));
    return req;
}

// The answer's fields, into an object the caller opened. `snap` holds every frame and action
// name the view shows.
void write_view(nd_core::JsonWriter& w, const nd_core::Snapshot& snap, const nd_core::View& view,
    const nd_core::ViewRequest& req, const std::optional<std::string>& root_token, const nd_core::PriorRendering* prior,
    nd_core::RenderedRows& rows)
{
    w.field("ok", true);
    w.key("window").raw(window_json(snap.window).dump());
    w.field("snapshot_id", snap.id);
    w.field("view", req.kind == nd_core::ViewKind::skeleton ? "skeleton" : "full");
    w.key("root");
    if (root_token)
        w.string(*root_token);
    else
        w.null();
    w.field("element_count", static_cast<std::int64_t>(view.rows.size()));
    w.field("total_elements", static_cast<std::int64_t>(snap.size()));
    w.field("truncated", view.truncated);
    w.field("budget_truncated", snap.budget_truncated);
    w.field("max_elements", req.max_elements);
    w.field("max_depth", req.max_depth);
    w.key("elements");
    nd_core::write_rows_json(w, snap, view, prior, &rows);
}

std::string text_of(const nd_core::Snapshot& snap, const nd_core::View& view, const nd_core::ViewRequest& req,
    const nd_core::PriorRendering* prior, nd_core::RenderedRows& rows)
{
    const bool skeleton = req.kind == nd_core::ViewKind::skeleton;
    std::string text = "window " + std::to_string(snap.window.window_id) + " pid " + std::to_string(snap.window.pid)
        + " snapshot " + snap.id + (skeleton ? " skeleton: " : ": ") + std::to_string(view.rows.size()) + " of "
        + std::to_string(snap.size()) + " elements" + (view.truncated ? " (truncated)" : "")
        + (view.unlisted > 0 ? " (" + std::to_string(view.unlisted) + " hidden, empty or repeated not listed)" : "")
        + (snap.budget_truncated ? " (window over the read budget)" : "") + "\n";
    nd_core::append_view_text(text, snap, view, prior, &rows);
    return text;
}

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    auto t = TRY(resolve(env, args));
    const bool skeleton = args.boolean("skeleton").value_or(false);
    const auto req = view_request(args, t.root, skeleton);
    const bool screenshot = args.boolean("include_screenshot").value_or(false);
    // A repeat read of an unchanged window: the same snapshot object, the same view, the same bytes
    // (nd_core::ViewCache). A screenshot is taken afresh every time.
    nd_core::RenderKey key{t.snapshot, req, t.root_token.value_or("")};
    if (!screenshot)
        if (auto cached = env.session->views.find(key)) {
            ToolOutput out;
            out.structured = cached->structured;
            out.text = cached->text;
            return out;
        }

    auto view = nd_core::project(*t.snapshot, req);
    // Frames are read for the rows this view returns only, and action names for those of a full
    // view (a skeleton shows none).
    std::vector<std::int32_t> rows;
    rows.reserve(view.rows.size());
    for (const auto& row : view.rows)
        rows.push_back(row.index);
    const auto framed = TRY(env.engine.with_frames(t.snapshot, rows, !skeleton));

    // A window that changed since its last rendering: the rows that did not change are copied from
    // that rendering (nd_core::ViewCache::prior).
    const auto before = env.session->views.prior(key);
    nd_core::PriorRendering prior;
    if (before.rendering)
        prior = {before.snapshot.get(), before.rendering->structured, before.rendering->text, &before.rendering->rows};
    nd_core::RenderedRows spans;

    ToolOutput out;
    out.structured.reserve(view.rows.size() * 260 + 512);
    nd_core::JsonWriter w(out.structured);
    w.begin_object();
    write_view(w, *framed, view, req, t.root_token, &prior, spans);
    if (screenshot)
        write_screenshot(w, env, *framed, out);
    w.end_object();
    out.text = text_of(*framed, view, req, &prior, spans);
    // Only a snapshot that lacked nothing for this view renders the same way again: frames read
    // for it now would be read afresh the next time.
    if (!screenshot && framed == t.snapshot)
        env.session->views.put(std::move(key), std::make_shared<const nd_core::Rendering>(
                                                   nd_core::Rendering{out.structured, out.text, std::move(spans)}));
    return out;
}

nlohmann::json schema()
{
    using nd_core::schemas::frame_schema;
    nlohmann::json frame_or_null = {{"anyOf", {frame_schema(), {{"type", "null"}}}}};
    nlohmann::json int_or_null = {{"anyOf", {{{"type", "integer"}}, {{"type", "null"}}}}};
    nlohmann::json range = {{"type", "array"}, {"items", {{"type", "integer"}}}, {"minItems", 2}, {"maxItems", 2}};
    // Only on containers that manage their descendants: their children are the visible part.
    nlohmann::json managed = {{"type", "object"},
        {"properties",
            {{"children", {{"type", "integer"}}}, {"rows", {{"type", "integer"}}}, {"columns", {{"type", "integer"}}},
                {"visible_rows", range}, {"visible_columns", range}}}};
    nlohmann::json row = {{"type", "object"},
        {"properties",
            {{"element_index", {{"type", "integer"}}}, {"element_token", {{"type", "string"}}},
                {"role", {{"type", "string"}}}, {"level", {{"type", "integer"}}}, {"label", {{"type", "string"}, {"maxLength", 80}}},
                {"alike",
                    {{"type", "object"},
                        {"properties", {{"count", {{"type", "integer"}}}, {"last_index", {{"type", "integer"}}}}},
                        {"required", {"count", "last_index"}}}},
                {"section_count", {{"type", "integer"}}},
                {"name", {{"type", "string"}}}, {"value", {{"type", "string"}}}, {"value_redacted", {{"const", true}}},
                {"states", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                {"actions", {{"type", "array"}, {"items", {{"type", "string"}}}}}, {"parent_index", int_or_null},
                {"depth", {{"type", "integer"}}}, {"child_count", {{"type", "integer"}}},
                {"descendant_count", {{"type", "integer"}}}, {"managed", managed}, {"frame", frame_or_null}}},
        {"required", {"element_index", "element_token", "role", "parent_index", "depth", "child_count",
                         "descendant_count", "frame"}}};
    return {{"type", "object"},
        {"properties",
            {{"ok", {{"const", true}}}, {"window", nd_core::schemas::window_schema()},
                {"snapshot_id", {{"type", "string"}}},
                {"view", {{"type", "string"}, {"enum", {"full", "skeleton"}}}},
                {"root", {{"anyOf", {{{"type", "string"}}, {{"type", "null"}}}}}},
                {"element_count", {{"type", "integer"}}}, {"total_elements", {{"type", "integer"}}},
                {"truncated", {{"type", "boolean"}}}, {"budget_truncated", {{"type", "boolean"}}},
                {"max_elements", {{"type", "integer"}}}, {"max_depth", {{"type", "integer"}}},
                {"elements", {{"type", "array"}, {"items", row}}},
                {"screenshot",
                    {{"type", "object"},
                        {"properties",
                            {{"mime_type", {{"type", "string"}}}, {"width", {{"type", "integer"}}},
                                {"height", {{"type", "integer"}}}}},
                        {"required", {"mime_type", "width", "height"}}}},
                {"screenshot_error", nd_core::schemas::error_object_schema()}}},
        {"required", {"ok", "window", "snapshot_id", "view", "root", "element_count", "total_elements", "truncated",
                         "elements"}}};
}

} // namespace

ToolDef get_window_state()
{
    return {
        .decl = {
            .name = "get_window_state",
            .title = "Read a window",
            .description =
                "Reads a window's accessibility tree; each row's element_token is for acts. Dense apps: skeleton: true "
                "first, then root: <token> to drill down. Tokens last until the window's structure changes.",
            .args = concat(arg::window_target(),
                {
                    {.name = "skeleton", .type = ArgType::boolean,
                        .description = "Containers, landmarks and page headings; alike siblings fold into one row (max_elements 60 by "
                                       "default, at most 200; max_depth 4)."},
                    {.name = "root", .type = ArgType::string,
                        .description = "Read this token's element and descendants (a page heading: its section).",
                        .strict = true, .max_length = 64},
                    {.name = "max_elements", .type = ArgType::integer,
                        .description = "Rows at most (default 250; skeleton 60, at most 200).", .min = 1, .max = 5000},
                    {.name = "max_depth", .type = ArgType::integer,
                        .description = "Levels below the root at most (default 25; skeleton 4).", .min = 0, .max = 200},
                    {.name = "include_screenshot", .type = ArgType::boolean,
                        .description = "Also a PNG of the window, secure fields blacked out."},
                }),
            .output_schema = schema,
        },
        .cls = ToolClass::read,
        .handler = run,
    };
}

} // namespace nd_driver::tools
