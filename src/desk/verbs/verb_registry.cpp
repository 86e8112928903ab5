#include "desk/verbs/verbs.h"

namespace nd_desk {

const std::vector<VerbDef>& desk_verbs()
{
    static const std::vector<VerbDef> all = [] {
        std::vector<VerbDef> v;
        for (auto& verb : verbs::read_verbs())
            v.push_back(std::move(verb));
        for (auto& verb : verbs::act_verbs())
            v.push_back(std::move(verb));
        v.push_back(verbs::screen());
        return v;
    }();
    return all;
}

const VerbDef* find_verb(std::string_view tool)
{
    constexpr std::string_view prefix = "desk_";
    if (tool.substr(0, prefix.size()) != prefix)
        return nullptr;
    const auto name = tool.substr(prefix.size());
    for (const auto& verb : desk_verbs())
        if (verb.name == name)
            return &verb;
    return nullptr;
}

} // namespace nd_desk
