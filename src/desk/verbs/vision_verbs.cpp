#include "desk/verbs/verbs.h"
#include "desk/verbs/vision_verb_list.h"
#include "desk/vision/vision_shot.h"

namespace nd_desk::verbs {

std::vector<VerbDef> vision_verbs()
{
    std::vector<VerbDef> v;
    v.push_back(computer_state());
    v.push_back(computer_act());
    v.push_back(computer_end());
    v.push_back(computer_scale());
    v.push_back(look());
    v.push_back(title_at());
    return v;
}

ArgSpec session_arg()
{
    return {"session", ArgType::string, "the session whose element indexes and screenshot scale to use; default: yours",
        false, {}, std::nullopt, std::nullopt, false, 128};
}

ArgSpec max_edge_arg()
{
    return {"max_edge", ArgType::integer, "the screenshot's long edge in pixels, default 1024, 0 for full size", false, {}, 0, 16384};
}

ArgSpec workspace_only_arg()
{
    return {"workspace_only", ArgType::boolean, "only the current workspace's windows (on X11 the only ones shown)"};
}

std::int32_t max_edge_of(const nlohmann::json& args)
{
    return static_cast<std::int32_t>(arg_int(args, "max_edge").value_or(DEFAULT_MAX_EDGE));
}

} // namespace nd_desk::verbs
