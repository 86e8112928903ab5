// libFuzzer target for the desk's verbs (docs/fuzzing.md): each input is up to 4 lines, each a verb
// and its arguments: "desk_press {...}" names it, otherwise the first byte chooses one and the rest
// is the arguments. Arguments are JSON (text that is not JSON goes as a JSON string); each call goes
// through call_verb (the argument check, the confirm step, the handler) on a fresh mock desktop,
// as the daemon calls it. Nothing may crash, hang or leak; a result must dump as the daemon writes
// it, and an error must carry a code from the error table and a message.
//
// Two verbs are left out, and one argument: desk_launch starts a named program of the machine and
// desk_close asks a window to close (both have their own tests); desk_shot's path writes a file
// where it names, so it is removed (its checks are tested on their own).

#include "desk/desk.h"
#include "desk/verbs/verbs.h"
#include "fuzz_check.h"
#include "fuzz_desktop.h"

#include <memory>
#include <vector>

namespace {

using nd_fuzz::require;

const std::vector<const nd_desk::VerbDef*>& fuzzed_verbs()
{
    static const auto verbs = [] {
        std::vector<const nd_desk::VerbDef*> out;
        for (const auto& verb : nd_desk::desk_verbs())
            if (verb.decl.name != "desk_launch" && verb.decl.name != "desk_close")
                out.push_back(&verb);
        return out;
    }();
    return verbs;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto backend = nd_fuzz::fresh_desktop();
    nd_desk::Desk desk(*backend, nd_desk::DeskConfig{});
    const auto& verbs = fuzzed_verbs();

    std::string_view rest = nd_fuzz::text_of(data, size);
    for (int n = 0; n < 4 && !rest.empty(); ++n) {
        const auto end = rest.find('\n');
        auto line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        if (line.empty())
            continue;
        const nd_desk::VerbDef* verb = nullptr;
        if (const auto space = line.find(' '); space != std::string_view::npos)
            for (const auto* candidate : verbs)
                if (candidate->decl.name == line.substr(0, space))
                    verb = candidate;
        if (verb) {
            line.remove_prefix(verb->decl.name.size() + 1);
        } else {
            verb = verbs[static_cast<unsigned char>(line.front()) % verbs.size()];
            line.remove_prefix(1);
        }
        auto args = nlohmann::json::parse(line, nullptr, false);
        if (args.is_discarded())
            args = std::string(line);
        if (args.is_object())
            args.erase("path");
        nd_desk::CallScope scope{"fuzz", nd_desk::SafetyStopToken(desk.safety_stop(), nullptr)};
        auto out = nd_desk::call_verb(desk, *verb, scope, args);
        if (out) {
            (void)out->result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); // as the daemon writes it
        } else {
            require(!out.error().message.empty());
            require(nd_fuzz::is_table_code(nd_core::error_name(out.error().code)));
        }
    }
    return 0;
}
