#pragma once

// gui_plan (docs/gui-plan.md): a plan of desk steps, run by the runtime's plan executor
// (runtime/plan.mjs) as a script with params {plan}, so it gets script_run's process, timeout, stop
// and desk ownership. What differs is the answer: the plan's result, or an error naming the step
// that failed (or, for a plan refused by its check, the step and field at fault).

#include "desk/script/script_run.h"

#include <string>

namespace nd_desk {

// The executor's module name in the runtime's directory.
inline constexpr const char* PLAN_MODULE = "plan.mjs";

// Reads gui_plan's checked arguments (plan, timeout_s) into the run of the executor at `module`.
nd_core::Result<ScriptRequest> plan_request(const nlohmann::json& args, const std::string& module);

struct PlanAnswer {
    bool is_error = false;
    std::string text;
};

// The answer to a gui_plan call from its run's report: the plan's result as JSON; or an error whose
// text is {error: {step, id?, do?, reason, attempts?}, steps_done, logs?}; a run that failed as a
// run (a timeout, a stop) answers its report, as script_run does.
PlanAnswer plan_answer(const RunReport&);

} // namespace nd_desk
