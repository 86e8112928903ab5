#include "driver/observe.h"

#include "core/engine/act_result.h"
#include "core/encode/base64.h"
#include "core/model/view_render.h"

namespace nd_driver {

ObserveRequest observe_request(const Args& args)
{
    ObserveRequest r;
    if (const auto* o = args.object("observe")) {
        r.tree = o->value("tree", false);
        r.screenshot = o->value("screenshot", false);
    }
    return r;
}

void write_screenshot(nd_core::JsonWriter& w, ToolEnv& env, const nd_core::Snapshot& snap, ToolOutput& out)
{
    auto png = env.engine.capture_png(*env.session, snap);
    if (!png.ok()) {
        w.key("screenshot_error");
        nd_core::write_error_object(w, png.error());
        return;
    }
    w.key("screenshot")
        .begin_object()
        .field("mime_type", "image/png")
        .field("width", png->width)
        .field("height", png->height)
        .end_object();
    out.image = ImageBlock{"image/png", nd_core::base64_encode(png->bytes)};
}

void write_observe(nd_core::JsonWriter& w, ToolEnv& env, const ObserveRequest& req, const nd_core::SnapshotPtr& snap,
    const nd_core::Error* read_error, ToolOutput& out)
{
    w.key("observe").begin_object();
    if (read_error || !snap) {
        w.key("error");
        nd_core::write_error_object(w, read_error ? *read_error
                                                  : nd_core::Error(nd_core::ErrorCode::internal_error, "no read to observe"));
        w.end_object();
        return;
    }
    w.field("snapshot_id", snap->id);
    nd_core::View view;
    if (req.tree) {
        view = nd_core::project(*snap, nd_core::ViewRequest{});
        w.field("truncated", view.truncated || snap->budget_truncated);
        w.key("elements");
        nd_core::write_rows_json(w, *snap, view);
        w.field("tree_text", nd_core::view_text(*snap, view));
    } else {
        w.field("truncated", snap->budget_truncated);
    }
    if (req.screenshot)
        write_screenshot(w, env, *snap, out);
    w.end_object();
}

} // namespace nd_driver
