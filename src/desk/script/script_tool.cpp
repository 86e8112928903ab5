#include "desk/script/script_tool.h"

#include "desk/script/script_run.h"

namespace nd_desk {

namespace {

// A run's timeout, as script_run and gui_plan both take it.
nd_mcp::ArgSpec timeout_arg()
{
    return {"timeout_s", nd_mcp::ArgType::number, "default " + std::to_string(RUN_TIMEOUT_DEFAULT_S), false, {}, 0.0,
        static_cast<double>(RUN_TIMEOUT_MAX_S)};
}

} // namespace

const nd_mcp::ToolDecl& script_run_decl()
{
    using nd_mcp::ArgType;
    static const nd_mcp::ToolDecl decl{
        .name = "script_run",
        .description = "Runs an ES module on Node with the desk API as the global desk (one async function per "
                       "desk_<verb>: desk.windows(), desk.find({name}), desk.press(id), ...) and awaits its exported "
                       "main(params). Answers {result, logs, stderr, exit_code?, duration_ms}; a failed run is an "
                       "error whose text is that report with error {kind, message}.",
        .args = {{"code", ArgType::string, "the module's source"},
            {"path", ArgType::string, "or a module file; relative to your working directory"},
            {"params", ArgType::object, "main's argument, default {}"}, timeout_arg()},
    };
    return decl;
}

const nd_mcp::ToolDecl& gui_plan_decl()
{
    using nd_mcp::ArgType;
    static const nd_mcp::ToolDecl decl{
        .name = "gui_plan",
        .description = "Runs a plan of desk steps in order, checked whole before the first runs: {steps: [{do: a desk "
                       "verb (find, press, read, windows, still, ...) or sleep, args?, id?, expect?: {path?, equals | "
                       "contains | exists | matches | count_at_least}, retry?: {times, delay_ms?}}], result?}. In args "
                       "and result, \"$id.path\" is an earlier step's result (nodes[0].id, windows[*].title). Answers "
                       "the result (default: each step with an id), or an error naming the failed step and why.",
        .args = {{"plan", ArgType::object, "{steps, result?}", true}, timeout_arg()},
    };
    return decl;
}

nd_mcp::ToolDecl plugin_decl(std::string name, std::string description)
{
    nd_mcp::ToolDecl decl = script_run_decl();
    decl.name = std::move(name);
    decl.description = std::move(description);
    return decl;
}

} // namespace nd_desk
