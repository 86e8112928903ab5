#include "driver/common.h"
#include "driver/tools/session_json.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    nd_core::SessionRequest req;
    req.apps = args.strings("apps");
    if (req.apps && req.apps->empty())
        return nd_core::make_error(nd_core::ErrorCode::invalid_arguments, "apps must name at least one app");
    req.input = args.string("input").value_or("headless") == "takeover" ? nd_core::InputMode::takeover
                                                                          : nd_core::InputMode::headless;
    req.clipboard_read = args.boolean("clipboard_read").value_or(false);
    req.lease_s = args.integer("lease_s").value_or(nd_core::DEFAULT_LEASE_S);
    const auto* s = TRY(env.engine.start_session(req));
    auto j = session_json(env.engine, s);
    auto text = session_text(j);
    return json_output(j, std::move(text));
}

} // namespace

ToolDef start_session()
{
    return {
        .decl = {
            .name = "start_session",
            .title = "Start a session",
            .description =
                "Asks the person to allow this session: the apps it may see and act on, optionally a visible takeover "
                "(real mouse and keyboard) and clipboard reading. Call it first; again with input: headless to end a "
                "takeover.",
            .args =
                {
                    {.name = "apps", .type = ArgType::string_array,
                        .description = "App names to ask for (as list_windows reports them); default: every app with a "
                                       "window open now.",
                        .strict = true, .max_length = 32},
                    {.name = "input", .type = ArgType::string,
                        .description = "headless (default): accessibility actions only; takeover: also real input, "
                                       "shown by an indicator.",
                        .enum_values = {"headless", "takeover"}, .strict = true},
                    {.name = "clipboard_read", .type = ArgType::boolean,
                        .description = "Ask for clipboard reading (its own consent line; each read is approved).",
                        .strict = true},
                    {.name = "lease_s", .type = ArgType::integer,
                        .description = "How long consent lasts, in seconds (default 3600).", .min = nd_core::MIN_LEASE_S,
                        .max = nd_core::MAX_LEASE_S, .strict = true},
                },
            .output_schema = session_schema,
        },
        .cls = ToolClass::session,
        .needs_session = false,
        .handler = run,
    };
}

} // namespace nd_driver::tools
