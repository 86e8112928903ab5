#include "desk/verbs/act_verb_list.h"
#include "desk/verbs/verbs.h"

namespace nd_desk::verbs {

std::vector<VerbDef> act_verbs()
{
    return {press(), act(), key(), type(), click(), scroll(), drag(), shot(), still()};
}

} // namespace nd_desk::verbs
