#include "driver/approvals.h"

namespace nd_driver {

namespace {

// The arguments that name a call's target, copied into the description as given. Text the model
// types, values it sets and keys it presses are never among them.
constexpr std::string_view TARGET_ARGS[] = {"pid", "window_id", "app", "element_token", "to_token", "root"};

bool flag(const nlohmann::json& o, const char* key)
{
    auto it = o.find(key);
    return it != o.end() && it->is_boolean() && it->get<bool>();
}

} // namespace

bool always_needs_approval(std::string_view tool) { return tool == "clipboard_read"; }

std::optional<nlohmann::json> approval_description(const ToolDef& def, const Args& args, bool approve_reads)
{
    if (def.cls == ToolClass::session || def.cls == ToolClass::info)
        return std::nullopt;
    nlohmann::json observe;
    if (def.cls == ToolClass::act) {
        const auto* o = args.object("observe");
        if (!o)
            return std::nullopt;
        const bool tree = flag(*o, "tree");
        const bool screenshot = flag(*o, "screenshot");
        if (!tree && !screenshot)
            return std::nullopt;
        observe = {{"tree", tree}, {"screenshot", screenshot}};
    }
    if (!always_needs_approval(def.decl.name) && !approve_reads)
        return std::nullopt;
    nlohmann::json d = {{"tool", def.decl.name}};
    for (auto name : TARGET_ARGS)
        if (args.has(name))
            d[std::string(name)] = args.values()[std::string(name)];
    if (!observe.is_null())
        d["observe"] = std::move(observe);
    return d;
}

std::string_view approval_outcome_name(ApprovalOutcome o)
{
    switch (o) {
    case ApprovalOutcome::approved: return "approved";
    case ApprovalOutcome::denied: return "denied";
    case ApprovalOutcome::timed_out: return "timed_out";
    case ApprovalOutcome::stopped: return "stopped";
    case ApprovalOutcome::no_host: return "no_host";
    }
    return "denied";
}

} // namespace nd_driver
