#include "desk/script/script_tool.h"

#include "desk/script/script_run.h"

namespace nd_desk {

const nd_mcp::ToolDecl& script_run_decl()
{
    using nd_mcp::ArgType;
    static const nd_mcp::ToolDecl decl{
        .name = "script_run",
        .description = "Runs one ES module on Node with the desk API as the global desk: one async function per "
                       "desk_<verb> (desk.windows(), desk.find({name}), desk.press(id), desk.type({...}), ...). Its "
                       "exported main(params) is awaited. Answers {result, logs, stderr, exit_code?, duration_ms}; a "
                       "failed run answers an error whose text is that report with error: {kind, message} (import, "
                       "no_main, exception, timeout, stopped, exit).",
        .args = {{"code", ArgType::string, "the module's source (or path)"},
            {"path", ArgType::string, "a .mjs file; relative to the MCP client's working directory"},
            {"params", ArgType::object, "handed to main, default {}"},
            {"timeout_s", ArgType::number, "default 90", false, {}, 0.0, static_cast<double>(RUN_TIMEOUT_MAX_S)}},
    };
    return decl;
}

} // namespace nd_desk
