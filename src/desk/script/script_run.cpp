#include "desk/script/script_run.h"

#include "desk/plugins/bounded_file.h"
#include "desk/script/run_process.h"
#include "desk/spawn_group.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

nd_core::Error refuse(const std::string& what) { return nd_core::Error{ErrorCode::invalid_arguments, what}; }

// Writes a whole file, 0600.
nd_core::Result<void> write_file(const std::string& path, std::string_view text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        return make_error(ErrorCode::internal_error, "cannot write " + path + ": " + std::strerror(errno));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out)
        return make_error(ErrorCode::internal_error, "cannot write " + path);
    ::chmod(path.c_str(), 0600);
    return nd_core::Ok{};
}

// The run's private directory, 0700, inside runs_dir (made 0700 when missing).
nd_core::Result<std::string> make_run_dir(const std::string& runs_dir)
{
    if (::mkdir(runs_dir.c_str(), 0700) != 0 && errno != EEXIST)
        return make_error(ErrorCode::internal_error, "cannot make " + runs_dir + ": " + std::strerror(errno));
    std::string pattern = runs_dir + "/run-XXXXXX";
    if (!::mkdtemp(pattern.data()))
        return make_error(ErrorCode::internal_error, "cannot make a run directory in " + runs_dir + ": " + std::strerror(errno));
    return pattern;
}

// The daemon's environment, without the hidden variables and our own, then the run's.
std::vector<std::string> run_environment(const RunSetup& setup, const std::string& run_dir, const std::string& script)
{
    return child_environment(setup.hidden, {"SHUTTLE_SOCKET=" + setup.socket, "SHUTTLE_AGENT=" + setup.agent,
        "SHUTTLE_SCRIPT=" + script, "SHUTTLE_RUN=" + run_dir, "SHUTTLE_FLOWS=" + setup.flows_dir});
}

// What the runtime left: error.json's {kind, message}, or result.json's value (a result too large
// for a report is the script's failure).
void read_outcome_files(const std::string& run_dir, RunReport& report)
{
    constexpr std::size_t MAX_FILE = 8 * 1024 * 1024;
    std::error_code ignored;
    const auto error_path = run_dir + "/error.json";
    if (std::filesystem::exists(error_path, ignored)) {
        auto text = read_bounded_file(error_path, MAX_FILE);
        auto parsed = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
        RunError error{"exit", "the runtime left an unreadable error.json"};
        if (parsed.is_object() && parsed.value("kind", nlohmann::json()).is_string()) {
            error.kind = parsed["kind"].get<std::string>();
            const auto message = parsed.value("message", nlohmann::json());
            error.message = message.is_string() ? message.get<std::string>() : message.dump();
        }
        report.error = std::move(error);
        return;
    }
    const auto result_path = run_dir + "/result.json";
    if (!std::filesystem::exists(result_path, ignored))
        return;
    auto text = read_bounded_file(result_path, MAX_FILE);
    if (!text) {
        report.error = RunError{"exception", "main's result as JSON " + text.error().message + ": a report carries at most 8 MiB"};
        return;
    }
    auto parsed = nlohmann::json::parse(*text, nullptr, false);
    if (parsed.is_discarded())
        report.error = RunError{"exit", "the runtime left an unreadable result.json"};
    else
        report.result = std::move(parsed);
}

std::string exit_message(const ProcessOutcome& outcome, const std::string& program)
{
    if (outcome.signal)
        return program + " was ended by signal " + std::to_string(*outcome.signal) + " (" + strsignal(*outcome.signal) +
               ") before the script finished";
    return program + " exited with code " + std::to_string(outcome.exit_code.value_or(-1)) +
           " without a result (did the script call process.exit?)";
}

std::string seconds_text(std::chrono::milliseconds d)
{
    const auto ms = d.count();
    if (ms % 1000 == 0)
        return std::to_string(ms / 1000) + " s";
    return std::to_string(ms / 1000) + "." + std::to_string(ms % 1000 / 100) + " s";
}

} // namespace

nd_core::Result<ScriptRequest> parse_script_request(const nlohmann::json& args)
{
    ScriptRequest request;
    const auto code = args.value("code", nlohmann::json());
    const auto path = args.value("path", nlohmann::json());
    if (code.is_string() == path.is_string())
        return refuse("give exactly one of code (the module's source) and path (an absolute .mjs path)");
    if (code.is_string()) {
        request.code = code.get<std::string>();
        if (request.code.empty())
            return refuse("code is empty");
    } else {
        request.path = path.get<std::string>();
        if (request.path.empty() || request.path.front() != '/')
            return refuse("path must be absolute (the MCP front resolves a relative one against its working directory)");
    }
    if (auto params = args.find("params"); params != args.end() && !params->is_null())
        request.params = *params;
    if (auto timeout = args.find("timeout_s"); timeout != args.end() && timeout->is_number()) {
        const double seconds = timeout->get<double>();
        if (!(seconds > 0) || seconds > RUN_TIMEOUT_MAX_S)
            return refuse("timeout_s must be more than 0 and at most " + std::to_string(RUN_TIMEOUT_MAX_S));
        request.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
    }
    return request;
}

nd_core::Result<RunReport> run_script(const ScriptRequest& request, const RunSetup& setup, const SafetyStopToken& stop,
    const std::atomic<bool>* client_gone)
{
    if (setup.program.empty())
        return make_error(ErrorCode::unsupported, "script_run needs Node: install Debian's nodejs (scripts/setup does)");
    if (::access(setup.entry.c_str(), R_OK) != 0)
        return make_error(ErrorCode::unsupported, "the desk runtime is not installed (" + setup.entry + " is missing)");
    const auto run_dir = TRY(make_run_dir(setup.runs_dir));
    struct Cleanup {
        std::string dir;
        ~Cleanup()
        {
            std::error_code ignored;
            std::filesystem::remove_all(dir, ignored); // does not follow symlinks out of the directory
        }
    } cleanup{run_dir};

    std::string script = request.path;
    if (!request.code.empty()) {
        script = run_dir + "/script.mjs";
        TRY_VOID(write_file(script, request.code));
    }
    TRY_VOID(write_file(run_dir + "/params.json", request.params.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));

    ProcessSpec spec;
    spec.argv = {setup.program, setup.entry};
    spec.env = run_environment(setup, run_dir, script);
    spec.work_dir = setup.work_dir;
    spec.output_cap = RUN_OUTPUT_CAP;
    ProcessWatch watch;
    watch.deadline = std::chrono::steady_clock::now() + request.timeout;
    watch.stopped = [&stop] { return stop.stopped(); };
    watch.kill_now = [client_gone] { return client_gone && client_gone->load(); };
    watch.grace = RUN_KILL_GRACE;
    auto outcome = TRY(run_process(spec, watch));

    RunReport report;
    report.logs = std::move(outcome.out);
    report.stderr_text = std::move(outcome.err);
    report.logs_cut = outcome.out_cut;
    report.stderr_cut = outcome.err_cut;
    report.duration_ms = outcome.duration.count();
    switch (outcome.reason) {
    case EndReason::timeout:
        report.error = RunError{"timeout", "the run did not finish within " + seconds_text(request.timeout) +
                                               ": its process group got SIGTERM, then SIGKILL 2 s later"};
        break;
    case EndReason::stopped:
        report.error = RunError{"stopped", "the user stopped shuttle (safety_stop), or the call was cancelled"};
        break;
    case EndReason::exited:
        report.exit_code = outcome.exit_code;
        read_outcome_files(run_dir, report);
        if (std::error_code ignored; !report.error && !std::filesystem::exists(run_dir + "/result.json", ignored))
            report.error = RunError{"exit", exit_message(outcome, setup.program)};
        break;
    }
    return report;
}

nlohmann::json report_json(const RunReport& report)
{
    nlohmann::json out = {{"result", report.result}, {"logs", report.logs}, {"stderr", report.stderr_text}};
    if (report.exit_code)
        out["exit_code"] = *report.exit_code;
    out["duration_ms"] = report.duration_ms;
    if (report.logs_cut || report.stderr_cut)
        out["cut"] = {{"logs", report.logs_cut}, {"stderr", report.stderr_cut}, {"cap_bytes", RUN_OUTPUT_CAP}};
    if (report.error)
        out["error"] = {{"kind", report.error->kind}, {"message", report.error->message}};
    return out;
}

} // namespace nd_desk
