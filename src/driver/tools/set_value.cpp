#include "core/model/schemas.h"
#include "driver/act_flow.h"
#include "driver/common.h"
#include "driver/tools/tools.h"

#include <charconv>

namespace nd_driver::tools {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

std::optional<double> as_number(std::string_view s)
{
    double v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

// "30" and "30.0" are the same value for a slider; text compares exactly.
bool same_value(std::string_view wanted, std::string_view got)
{
    if (wanted == got)
        return true;
    auto a = as_number(wanted);
    auto b = as_number(got);
    return a && b && *a == *b;
}

nd_core::Readback read_back(ToolEnv& env, const nd_core::ElementRef& ref, std::string_view wanted)
{
    auto* actuator = env.engine.backend().actuator();
    // Re-check security live: a field that turned secure is never read back.
    auto secure = actuator->is_secure_now(ref.window(), ref.element());
    if (!secure.ok() || *secure)
        return nd_core::Readback::unverified;
    auto value = actuator->read_value(ref.window(), ref.element());
    if (!value.ok())
        return nd_core::Readback::unverified;
    return same_value(wanted, *value) ? nd_core::Readback::match : nd_core::Readback::mismatch;
}

nd_core::Result<void> perform(ToolEnv& env, const Args& args, const nd_core::ElementRef& ref, nd_core::ActResult& r)
{
    const auto& e = ref.element();
    if (e.secure())
        return make_error(ErrorCode::secure_field_refused, "element " + std::to_string(ref.index) + " is a secure field");
    auto* actuator = env.engine.backend().actuator();
    if (!actuator)
        return make_error(ErrorCode::backend_unavailable, "the backend has no element actions");
    const auto value = args.string("value").value_or("");
    r.path = "semantic";
    TRY_VOID(actuator->set_value(ref.window(), e, value));
    r.readback = read_back(env, ref, value);
    return nd_core::Ok{};
}

nd_core::Result<ToolOutput> run(ToolEnv& env, const Args& args)
{
    return run_element_act(env, args, "set_value",
        [&](ToolEnv& e, const nd_core::ElementRef& ref, nd_core::ActResult& r) { return perform(e, args, ref, r); });
}

} // namespace

ToolDef set_value()
{
    return {
        .decl = {
            .name = "set_value",
            .title = "Set a value",
            .description = "Sets an element's text or value headlessly (entries, sliders, spin buttons; a select: its "
                           "option's name) and reads it back (readback: match, mismatch or unverified). Without a "
                           "headless route (web text fields) it fails and recommends a takeover. Never secure fields.",
            .args = {arg::element_token(),
                {.name = "value", .type = ArgType::string, .description = "The new text or value.", .required = true,
                    .strict = true, .max_length = 100000},
                arg::observe()},
            .annotations = {.destructive = true},
            .output_schema = [] { return nd_core::schemas::act_result_schema(); },
        },
        .cls = ToolClass::act,
        .handler = run,
    };
}

} // namespace nd_driver::tools
