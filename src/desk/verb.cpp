#include "desk/verb.h"

#include "desk/desk.h"
#include "desk/desk_confirm.h"

namespace nd_desk {

nd_core::Result<VerbReply> call_verb(Desk& desk, const VerbDef& verb, const CallScope& scope, const nlohmann::json& args)
{
    if (auto checked = nd_mcp::check_arguments(verb.decl, args); !checked)
        return nd_core::make_error(checked.error().code, verb.decl.name + ": " + checked.error().message);
    try {
        // Confirm mode asks after the arguments are known good and before anything is sent.
        TRY_VOID(confirm_call(desk, verb, scope, args));
        return verb.handler(desk, scope, args);
    } catch (const std::exception& e) {
        return nd_core::make_error(nd_core::ErrorCode::internal_error,
                                   verb.decl.name + " failed inside: " + e.what());
    }
}

std::string verb_failure_text(const VerbDef& verb, const CallScope& scope, const nd_core::Error& error)
{
    std::string text = error_text(error);
    // A verb that a stop cut short says so in its own words; any other failure during a stop
    // gets the reason in front, so the caller knows not to simply retry.
    if (scope.stop.stopped() && text.find("stopped by the user") == std::string::npos)
        text = "stopped by the user (safety_stop) during " + verb.decl.name + ": " + text;
    if (error.typed_characters && text.find("typed") == std::string::npos)
        text += " (" + std::to_string(*error.typed_characters) + " characters were typed)";
    return text;
}

std::optional<std::string> arg_string(const nlohmann::json& args, std::string_view name)
{
    if (!args.is_object())
        return std::nullopt;
    auto it = args.find(name);
    if (it == args.end() || !it->is_string())
        return std::nullopt;
    return it->get<std::string>();
}

std::optional<std::int64_t> arg_int(const nlohmann::json& args, std::string_view name)
{
    if (!args.is_object())
        return std::nullopt;
    auto it = args.find(name);
    if (it == args.end())
        return std::nullopt;
    return nd_mcp::whole_int64(*it);
}

std::optional<double> arg_number(const nlohmann::json& args, std::string_view name)
{
    if (!args.is_object())
        return std::nullopt;
    auto it = args.find(name);
    if (it == args.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

std::optional<bool> arg_bool(const nlohmann::json& args, std::string_view name)
{
    if (!args.is_object())
        return std::nullopt;
    auto it = args.find(name);
    if (it == args.end() || !it->is_boolean())
        return std::nullopt;
    return it->get<bool>();
}

} // namespace nd_desk
