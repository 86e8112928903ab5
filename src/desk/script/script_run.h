#pragma once

// script_run (seed 003; docs/script-run.md): one module run on Node with the desk API as the global
// `desk`, supervised by the daemon. The runtime's entry module (runtime/run.mjs) loads the script,
// calls its exported main(params) and leaves result.json or error.json in the run's private
// directory; this side starts it, keeps the first 32 KiB of its stdout (logs) and stderr, ends it
// on a timeout, a safety stop or a cancel (SIGTERM to its process group, SIGKILL to what is left
// 2 s later; at once when the client goes away during that grace), and builds the report:
//
//   {result, logs, stderr, exit_code?, duration_ms, error?: {kind, message}}
//
// kind: import, no_main, exception (from the runtime), timeout, stopped, exit (Node ended without
// a word). A plugin's tool runs the same way with its own program in Node's place (RunSetup).

#include "core/result.h"
#include "desk/safety_stop.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nd_desk {

inline constexpr std::size_t RUN_OUTPUT_CAP = 32 * 1024;
inline constexpr std::int64_t RUN_TIMEOUT_MAX_S = 110;
inline constexpr std::int64_t RUN_TIMEOUT_DEFAULT_S = 90;
inline constexpr std::chrono::seconds RUN_KILL_GRACE{2};

struct ScriptRequest {
    std::string code;  // the module's source, or
    std::string path;  // an absolute path of the module
    nlohmann::json params = nlohmann::json::object();
    std::chrono::milliseconds timeout{RUN_TIMEOUT_DEFAULT_S * 1000};
};

// Reads script_run's checked arguments: exactly one of code and path (an absolute path), params
// an object, timeout_s 1 to 110 (a number of seconds). The refusal does not name the tool; the
// caller puts it in front (script_run or a plugin's).
nd_core::Result<ScriptRequest> parse_script_request(const nlohmann::json& args);

// Where and how a run starts.
struct RunSetup {
    std::string program;               // node (found on PATH) or a plugin's absolute bin
    std::string entry;                 // the runtime's entry module, the one argument
    std::string socket;                // SHUTTLE_SOCKET
    std::string agent;                 // SHUTTLE_AGENT: names the run; its desk calls carry it
    std::string flows_dir;             // SHUTTLE_FLOWS
    std::string runs_dir;              // the private run directories are made in it (0700)
    std::string work_dir;              // the run's working directory (the home directory)
    std::vector<std::string> hidden;   // variables never passed on (the model key variables)
};

struct RunError {
    std::string kind;
    std::string message;
};

struct RunReport {
    nlohmann::json result;             // null unless the run returned one
    std::string logs;                  // stdout, its first 32 KiB
    std::string stderr_text;           // stderr, its first 32 KiB
    bool logs_cut = false;
    bool stderr_cut = false;
    std::optional<int> exit_code;      // none after a timeout or a stop
    std::int64_t duration_ms = 0;
    std::optional<RunError> error;
};

// Runs one script to its end. Never throws; a run that cannot start at all is an error value
// (no program, no runtime, no run directory). `stop` ends the run as stopped; `client_gone`
// (the caller's connection closed) ends it too, and KILLs at once during the grace.
nd_core::Result<RunReport> run_script(const ScriptRequest&, const RunSetup&, const SafetyStopToken& stop,
    const std::atomic<bool>* client_gone);

// {result, logs, stderr, exit_code?, duration_ms, error?}
nlohmann::json report_json(const RunReport&);

} // namespace nd_desk
