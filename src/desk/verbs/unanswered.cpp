#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/verbs/read_verb_list.h"

namespace nd_desk::verbs {

namespace {

// A probe, not a read: the active window's app is located and its first element read, which is
// all it takes to know that AT-SPI lists a window of that process and that the app answers.
constexpr std::chrono::milliseconds PROBE_DEADLINE{1000};

bool means_unanswered(nd_core::ErrorCode code)
{
    // No app or top-level of that pid on the bus, or an app that does not answer its calls.
    return code == nd_core::ErrorCode::window_target_not_found || code == nd_core::ErrorCode::app_not_accessible
        || code == nd_core::ErrorCode::app_not_responding
        || code == nd_core::ErrorCode::timed_out || code == nd_core::ErrorCode::element_not_found;
}

} // namespace

VerbDef unanswered()
{
    return {
        .decl = {
            .name = "desk_unanswered",
            .description = "The active window when accessibility lists no window of its process, as an app that stopped "
                           "answering (busy, or blocked in a dialog) leaves it: title, pid, role and app, with id \"\" "
                           "(its tree cannot be read). null when there is none or its app is not allowed.",
            .args = {},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json&) -> nd_core::Result<VerbReply> {
            auto lock = desk.lock_backend();
            auto all = TRY(desk.all_windows());
            const nd_core::WindowInfo* active = nullptr;
            for (const auto& w : all)
                if (w.active)
                    active = &w;
            if (!active || !desk.allows(*active))
                return VerbReply{nullptr, std::nullopt};
            auto* trees = desk.backend().trees();
            if (!trees)
                return nd_core::make_error(nd_core::ErrorCode::backend_unavailable, "this desk reads no trees");
            nd_core::ReadLimits probe{1, 1, PROBE_DEADLINE, nd_core::FrameMode::deferred};
            auto tree = trees->read_window(*active, probe);
            if (tree && !tree->elements.empty())
                return VerbReply{nullptr, std::nullopt};
            if (!tree && !means_unanswered(tree.error().code))
                return std::move(tree).error();
            nlohmann::json out{{"id", ""}, {"title", active->title}, {"pid", active->pid},
                {"role", active->dialog ? "dialog" : "window"}};
            if (!app_name(*active).empty())
                out["app"] = app_name(*active);
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
