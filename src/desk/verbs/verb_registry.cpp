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
    for (const auto& verb : desk_verbs())
        if (verb.decl.name == tool)
            return &verb;
    return nullptr;
}

} // namespace nd_desk
