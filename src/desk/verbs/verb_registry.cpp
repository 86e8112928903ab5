#include "desk/verbs/verbs.h"

#include <algorithm>
#include <array>

namespace nd_desk {

namespace {

// The verbs that change the desktop: the input verbs, and those that raise, start or close windows.
constexpr std::array<std::string_view, 11> CHANGES_DESKTOP = {
    "press", "act", "key", "type", "click", "scroll", "drag", "focus", "close", "launch", "computer_act"};

} // namespace

const std::vector<VerbDef>& desk_verbs()
{
    static const std::vector<VerbDef> all = [] {
        std::vector<VerbDef> v;
        for (auto& verb : verbs::read_verbs())
            v.push_back(std::move(verb));
        for (auto& verb : verbs::act_verbs())
            v.push_back(std::move(verb));
        v.push_back(verbs::screen());
        for (auto& verb : verbs::vision_verbs())
            v.push_back(std::move(verb));
        for (auto& verb : v)
            verb.changes_desktop = std::find(CHANGES_DESKTOP.begin(), CHANGES_DESKTOP.end(), verb.verb()) != CHANGES_DESKTOP.end();
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
