#include "desk/verbs/verbs.h"

namespace nd_desk::verbs {

std::vector<VerbDef> act_verbs()
{
    return {};
}

} // namespace nd_desk::verbs
