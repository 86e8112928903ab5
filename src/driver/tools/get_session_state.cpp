#include "driver/tools/session_json.h"
#include "driver/tools/tools.h"

namespace nd_driver::tools {

namespace {

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args&)
{
    // A lapsed lease or a lost indicator shows here too: live_session() settles both.
    (void)env.engine.live_session();
    auto j = session_json(env.engine, env.engine.session());
    auto text = session_text(j);
    return json_output(j, std::move(text));
}

} // namespace

ToolDef get_session_state()
{
    return {
        .decl = {
            .name = "get_session_state",
            .title = "Session state",
            .description = "Reports the session: approved apps, input mode, takeover state, clipboard_read and the "
                           "lease left.",
            .args = {},
            .output_schema = session_schema,
        },
        .cls = ToolClass::session,
        .needs_session = false,
        .handler = run,
    };
}

} // namespace nd_driver::tools
