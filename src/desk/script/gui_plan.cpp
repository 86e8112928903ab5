#include "desk/script/gui_plan.h"

namespace nd_desk {

namespace {

std::string dump(const nlohmann::json& value) { return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

} // namespace

nd_core::Result<ScriptRequest> plan_request(const nlohmann::json& args, const std::string& module)
{
    auto plan = args.find("plan");
    if (plan == args.end() || !plan->is_object())
        return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
            "gui_plan: plan must be an object {steps: [...], result?} (docs/gui-plan.md)");
    nlohmann::json run_args = {{"path", module}, {"params", {{"plan", *plan}}}};
    if (auto timeout = args.find("timeout_s"); timeout != args.end())
        run_args["timeout_s"] = *timeout;
    return parse_script_request(run_args);
}

PlanAnswer plan_answer(const RunReport& report)
{
    if (report.error)
        return {true, dump(report_json(report))};
    const auto& r = report.result;
    if (!r.is_object() || !r.value("ok", nlohmann::json()).is_boolean())
        return {true, dump({{"error", {{"reason", "the plan executor answered no verdict"}}}, {"report", report_json(report)}})};
    if (r["ok"].get<bool>())
        return {false, dump(r.value("result", nlohmann::json()))};
    nlohmann::json out;
    out["error"] = r.contains("invalid") ? r["invalid"] : r.value("failed", nlohmann::json::object());
    out["steps_done"] = r.value("steps", 0);
    if (!report.logs.empty())
        out["logs"] = report.logs;
    return {true, dump(out)};
}

} // namespace nd_desk
