#include "desk/verbs/read_verb_list.h"
#include "desk/verbs/verbs.h"

namespace nd_desk::verbs {

std::vector<VerbDef> read_verbs()
{
    return {windows(), unanswered(), wait(), snapshot(), find(), read(), at(), focus(), close(), launch()};
}

} // namespace nd_desk::verbs
