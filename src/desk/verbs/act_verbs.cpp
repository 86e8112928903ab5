#include "desk/desk_background.h"
#include "desk/verbs/act_verb_list.h"
#include "desk/verbs/verbs.h"

namespace nd_desk::verbs {

namespace {

// A verb with no background route on this desk yet (docs/desk-background.md): background input
// refuses it, auto sends it in the foreground and says so.
VerbDef foreground_only(VerbDef def)
{
    def.handler = [name = def.decl.name, inner = def.handler](Desk& desk, const CallScope& scope,
                      const nlohmann::json& args) -> nd_core::Result<VerbReply> {
        return by_input_mode(
            desk,
            [&]() -> nd_core::Result<VerbReply> {
                return nd_core::make_error(nd_core::ErrorCode::background_refused,
                    name + " has no background route on this desk yet: it sends XTEST input to the front window");
            },
            [&] { return inner(desk, scope, args); });
    };
    return def;
}

} // namespace

std::vector<VerbDef> act_verbs()
{
    return {press(), act(), key(), type(), click(), scroll(), foreground_only(drag()),
        shot(), still()};
}

} // namespace nd_desk::verbs
