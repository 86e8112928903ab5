// The daemon's script_run, gui_plan and the plugins' tools, one path for all three: the call's
// arguments checked against its declaration, the desk claimed for the run (run_owner.h), the run
// supervised (script/script_run.h) while the call's connection is watched for its client going
// away, and the report answered: is_error with the whole report as text when the run failed. A
// plugin's run differs only in its program (the plugin's bin in Node's place) and in the name its
// runs carry; gui_plan's runs the runtime's plan executor with params {plan} and answers the plan's
// result or the step that failed (script/gui_plan.h).

#include "core/install_paths.h"
#include "desk/daemon/daemon.h"
#include "desk/desk_read_launch.h"
#include "desk/plugins/trusted_program.h"
#include "desk/script/gui_plan.h"
#include "desk/script/script_run.h"
#include "desk/script/script_tool.h"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace nd_desk {

namespace w = wire;

namespace {

std::string env_or(const char* name, std::string fallback)
{
    const char* value = std::getenv(name);
    return value && *value ? std::string(value) : std::move(fallback);
}

std::string directory_of(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

// The runtime's directory: SHUTTLE_RUNTIME, else runtime/ beside the shuttle binary (a build
// tree), else the installed data's runtime/ (docs/install.md).
std::string runtime_dir()
{
    const auto beside = nd_core::program_directory() + "/runtime";
    const auto found = nd_core::first_existing_dir({beside, nd_core::installed_data_dir("runtime")});
    return env_or("SHUTTLE_RUNTIME", found.empty() ? beside : found);
}

// The program: a plugin's bin, else Node (SHUTTLE_NODE, else node on PATH), with the runtime's
// entry module as its one argument.
RunSetup run_setup(const DaemonOptions& options, const Plugin* plugin, const std::string& agent)
{
    RunSetup setup;
    setup.program = plugin ? plugin->bin : env_or("SHUTTLE_NODE", find_on_path("node", env_or("PATH", "/usr/bin:/bin")));
    setup.entry = runtime_dir() + "/run.mjs";
    setup.socket = options.endpoint;
    setup.agent = agent;
    setup.runs_dir = directory_of(options.endpoint) + "/runs";
    setup.flows_dir = config_dir(options.config.value_or(DeskConfig{})) + "/flows";
    std::error_code ignored;
    std::filesystem::create_directories(setup.flows_dir, ignored);
    setup.work_dir = env_or("HOME", "/");
    setup.hidden = options.config.value_or(DeskConfig{}).model_key_variables();
    return setup;
}

} // namespace

w::Response Daemon::run_script_call(const w::Request& request, const Plugin* plugin, std::atomic<bool>* gone, int fd,
    bool plan)
{
    const auto& decl = plan ? gui_plan_decl() : script_run_decl();
    const std::string& tool = plugin ? plugin->name : decl.name;
    if (!m_options.config->script_run)
        return w::error_text(tool + " is off: config.toml says [tools] script_run = false" +
                             (plugin ? std::string(", which turns the plugins off with it") : std::string()));
    auto checked = nd_mcp::check_arguments(decl, request.args.is_null() ? nlohmann::json::object() : request.args);
    if (!checked)
        return w::error_text(tool + ": " + checked.error().message);
    auto script = plan ? plan_request(*checked, runtime_dir() + "/" + PLAN_MODULE) : parse_script_request(*checked);
    if (!script)
        return w::error_text(tool + ": " + script.error().message);

    if (plugin)
        if (auto why = untrusted_program(plugin->bin))
            return w::error_text(tool + ": not run: " + *why +
                                 "; only a program that this user or root alone can change is run (docs/security.md)");
    const std::string agent = tool + ":" + std::to_string(::getpid()) + ":" + std::to_string(++m_run_count);
    const auto deadline = std::chrono::steady_clock::now() + script->timeout;
    if (std::string busy; !m_runs.claim(agent, deadline, busy))
        return w::error_text(tool + ": " + busy);
    struct Release {
        RunOwner& runs;
        const std::string& agent;
        ~Release() { runs.release(agent); }
    } release{m_runs, agent};

    SafetyStopToken stop(m_desk->safety_stop(), gone);
    if (fd >= 0)
        m_watcher->watch(fd, gone);
    auto report = run_script(*script, run_setup(m_options, plugin, agent), stop, gone);
    if (fd >= 0)
        m_watcher->unwatch(fd);
    if (!report)
        return w::error_text(tool + ": " + report.error().message);
    if (plan) {
        auto answer = plan_answer(*report);
        return answer.is_error ? w::error_text(answer.text) : w::ok_text(answer.text);
    }
    const auto text = report_json(*report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return report->error ? w::error_text(text) : w::ok_text(text);
}

} // namespace nd_desk
