#include "desk/desk.h"
#include "desk/desk_read_parts.h"
#include "desk/verbs/read_verb_list.h"

#include <algorithm>

namespace nd_desk::verbs {

namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

constexpr std::int64_t MAX_TIMEOUT_MS = 5000;
constexpr milliseconds FINGERPRINT_EVERY{10};
constexpr milliseconds LIST_EVERY{100};

// since's windows, as the allowlist would have listed them now.
nlohmann::json allowed_since(const Desk& desk, const nlohmann::json& since)
{
    nlohmann::json out = nlohmann::json::array();
    const auto it = since.find("windows");
    if (it == since.end() || !it->is_array())
        return out;
    for (const auto& w : *it) {
        const auto app = w.is_object() && w.contains("app") && w["app"].is_string() ? w["app"].get<std::string>() : "";
        if (desk.config().allows(app))
            out.push_back(w);
    }
    return out;
}

nd_core::Result<std::uint64_t> fingerprint(Desk& desk, nd_core::Screen* screen)
{
    auto lock = desk.lock_backend();
    return screen->window_fingerprint();
}

} // namespace

VerbDef wait()
{
    return {
        .decl = {
            .name = "desk_wait",
            .description = "Waits until the window list differs from since (a desk_windows or desk_wait result), then answers "
                           "changed: true and the new windows; or, once timeout_ms (5000 at most) has passed, changed: false "
                           "and the same list. Both lists are compared after the app allowlist filters them.",
            .args = {{"since", ArgType::object, "a desk_windows (or desk_wait) result: {\"windows\": [...]}", true},
                {"timeout_ms", ArgType::integer, "how long to wait in milliseconds; more than 5000 counts as 5000", true, {}, 0.0}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto& since_arg = args["since"];
            if (!since_arg.contains("windows") || !since_arg["windows"].is_array())
                return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
                    "since: must be a desk_windows result, an object with a windows list; call desk_windows first");
            const auto since = allowed_since(desk, since_arg);
            const auto timeout = milliseconds(std::min<std::int64_t>(*arg_int(args, "timeout_ms"), MAX_TIMEOUT_MS));
            const auto deadline = Clock::now() + timeout;
            nd_core::Screen* screen = nullptr;
            {
                auto lock = desk.lock_backend();
                screen = desk.backend().screen();
            }

            auto read_list = [&](milliseconds& took) -> nd_core::Result<nlohmann::json> {
                const auto start = Clock::now();
                auto list = TRY(read_windows_json(desk));
                took = std::chrono::duration_cast<milliseconds>(Clock::now() - start);
                return list;
            };
            auto answer = [](bool changed, nlohmann::json list) {
                return VerbReply{{{"changed", changed}, {"windows", std::move(list)}}, std::nullopt};
            };
            auto stopped = [] { return nd_core::make_error(nd_core::ErrorCode::stopped_by_kill_switch, "the wait was stopped"); };

            milliseconds last_read{0};
            auto list = TRY(read_list(last_read));
            if (list != since)
                return answer(true, std::move(list));
            std::optional<std::uint64_t> last_print;
            if (screen)
                if (auto f = fingerprint(desk, screen))
                    last_print = *f;
            auto next_list = Clock::now() + std::max(LIST_EVERY, last_read);
            for (;;) {
                const auto now = Clock::now();
                if (now >= deadline)
                    break;
                // The fingerprint is cheap: check it often; read the whole list at once when it moved,
                // else on the slower list cadence (a change it cannot see: a pid, an app's class).
                const auto next_print = last_print ? now + FINGERPRINT_EVERY : next_list;
                const auto wake = std::min({next_print, next_list, deadline});
                if (wake > now && !scope.stop.sleep_for(std::chrono::duration_cast<milliseconds>(wake - now) + milliseconds(1)))
                    return stopped();
                if (Clock::now() >= deadline)
                    break;
                bool read_now = Clock::now() >= next_list;
                if (last_print) {
                    auto f = fingerprint(desk, screen);
                    if (!f || *f != *last_print)
                        read_now = true;
                    if (f)
                        last_print = *f;
                }
                if (!read_now)
                    continue;
                list = TRY(read_list(last_read));
                if (list != since)
                    return answer(true, std::move(list));
                next_list = Clock::now() + std::max(LIST_EVERY, last_read);
            }
            if (scope.stop.stopped())
                return stopped();
            // The last read, at the deadline.
            list = TRY(read_list(last_read));
            const bool changed = list != since;
            return answer(changed, std::move(list));
        },
    };
}

} // namespace nd_desk::verbs
