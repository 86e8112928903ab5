#include "core/engine/guarded_input.h"
#include "core/model/schemas.h"
#include "driver/act_flow.h"
#include "driver/common.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    TRY_VOID(require_takeover(env, "drag"));
    auto to_token = args.string("to_token").value_or("");
    return run_element_act(env, args, "drag",
        [&](ToolEnv& e, const nd_core::ElementRef& from, nd_core::ActResult& r) -> nd_core::Result<void> {
            // Both ends in the same approved window, checked against the same fresh read.
            nd_core::ParsedToken parsed;
            if (!nd_core::parse_token(to_token, parsed))
                return make_error(ErrorCode::invalid_arguments, "to_token must look like <snapshot_id>:<N>");
            if (parsed.snapshot_id != from.snapshot->id)
                return make_error(ErrorCode::stale_element_token,
                    "to_token is not from the same read of the same window as element_token");
            if (parsed.index >= from.snapshot->size())
                return make_error(ErrorCode::element_not_found, "to_token names no element");
            nd_core::ElementRef to{from.snapshot, parsed.index};
            auto a = TRY(click_point(e, from));
            auto b = TRY(click_point(e, to));
            nd_core::GuardedInput input(e.engine, *e.session);
            forward_progress(input, e.call);
            r.path = "synthetic";
            r.took_cursor = true;
            return input.drag(a, b);
        });
}

} // namespace

ToolDef drag()
{
    return {
        .decl = {
            .name = "drag",
            .title = "Drag",
            .description = "Drags from one element to another in the same window (both tokens from one read). "
                           "Takeover sessions only.",
            .args = {arg::element_token("The element to press on."),
                {.name = "to_token", .type = ArgType::string, .description = "The element to release on.", .required = true,
                    .strict = true, .max_length = 64},
                arg::observe()},
            .annotations = {.destructive = true},
            .output_schema = [] { return nd_core::schemas::act_result_schema(); },
        },
        .cls = ToolClass::act,
        .handler = run,
    };
}

} // namespace nd_driver::tools
