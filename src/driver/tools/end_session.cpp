#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args&)
{
    const auto* before = env.engine.session();
    const bool had = before && before->end == nd_core::SessionEnd::none;
    std::string id = had ? before->id : std::string();
    TRY_VOID(env.engine.end_session());
    return json_output({{"ok", true}, {"ended", had}, {"session", had ? nlohmann::json(id) : nlohmann::json(nullptr)}},
        had ? "session " + id + " ended; the takeover indicator is gone\n" : "no session was active\n");
}

} // namespace

ToolDef end_session()
{
    return {
        .decl = {
            .name = "end_session",
            .title = "End the session",
            .description = "Ends the session: ends any takeover (the indicator goes away) and forgets every token.",
            .args = {},
            .output_schema =
                [] {
                    return nlohmann::json{{"type", "object"},
                        {"properties",
                            {{"ok", {{"const", true}}}, {"ended", {{"type", "boolean"}}},
                                {"session", {{"type", {"string", "null"}}}}}},
                        {"required", {"ok", "ended", "session"}}};
                },
        },
        .cls = ToolClass::session,
        .needs_session = false,
        .handler = run,
    };
}

} // namespace nd_driver::tools
