#include "core/engine/own_surface_guard.h"
#include "desk/desk.h"
#include "desk/desk_geometry.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_parts.h"
#include "desk/desk_read_tree.h"
#include "desk/verbs/read_verb_list.h"

namespace nd_desk::verbs {

namespace {

nlohmann::json brief_node(const nd_core::Snapshot& snap, std::int32_t row)
{
    const auto& e = snap.elements[static_cast<std::size_t>(row)];
    return {{"id", nd_core::format_token(snap.id, row)}, {"role", e.role}, {"name", e.name}};
}

// One of nish-driver's own surfaces on top at the point: input there is refused (reserved_for_person).
nlohmann::json surface_json(const nd_core::OwnSurface& s)
{
    return {{"surface", s.kind}, {"bounds", {{"x", s.frame.x}, {"y", s.frame.y}, {"w", s.frame.w}, {"h", s.frame.h}}},
        {"reserved_for_person", true}};
}

} // namespace

VerbDef at()
{
    return {
        .decl = {
            .name = "desk_at",
            .description = "The node at a screen point (desk coordinates), its ancestors and the pid of its process, read in "
                           "the window that window or pid names, else in the topmost window at the point. covered {title, "
                           "pid} names another window on top at that point; covered {surface, bounds, "
                           "reserved_for_person} one of nish-driver's own windows (its consent dialog, takeover indicator "
                           "or Continue button), which only the person may answer.",
            .args = {{"x", ArgType::integer, "screen x in desk coordinates", true},
                {"y", ArgType::integer, "screen y in desk coordinates", true},
                {"window", ArgType::string, "the window's title, or a part of it only one window has"},
                {"pid", ArgType::integer, "the window's process"}},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto x = static_cast<std::int32_t>(*arg_int(args, "x"));
            const auto y = static_cast<std::int32_t>(*arg_int(args, "y"));
            auto all = TRY(desk.all_windows());
            const auto* top = window_at(all, {x, y});
            // The window list does not name our surfaces: ask for them, so that the app under our
            // dialog is not reported as if nothing covered it.
            std::optional<nd_core::OwnSurface> surface;
            {
                auto lock = desk.lock_backend();
                surface = TRY(nd_core::own_surface_at(desk.backend(), {x, y}));
            }
            nd_core::WindowInfo target;
            if (args.contains("window") || args.contains("pid"))
                target = TRY(desk.pick_window(args));
            else {
                if (!top)
                    return nd_core::make_error(nd_core::ErrorCode::window_target_not_found,
                        "no window is at (" + std::to_string(x) + ", " + std::to_string(y) + ")" +
                            (surface ? " but nish-driver's " + nd_core::surface_words(surface->kind) +
                                           ", which only the person may answer"
                                     : std::string()) +
                            ": pick a point inside a window that desk_windows lists");
                TRY_VOID(desk.check_allowed(*top));
                target = *top;
            }
            if (!target.frame.contains(x, y))
                return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
                    "(" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the window \"" + target.title +
                        "\": pick a point inside it");
            auto fresh = desk.read(target);
            if (!fresh)
                return with_next_step(std::move(fresh).error());
            auto snap = std::move(fresh).value();
            auto elements = snap->elements;
            TRY_VOID(fill_frames(desk, *snap, elements));
            auto row = row_at(elements, {x, y});
            if (row < 0)
                row = 0; // the point is in the window but on no node of its own: the window itself
            nlohmann::json ancestors = nlohmann::json::array();
            for (auto p = elements[static_cast<std::size_t>(row)].parent; p >= 0; p = elements[static_cast<std::size_t>(p)].parent)
                ancestors.push_back(brief_node(*snap, p));
            nlohmann::json out{{"node", node_json(*snap, elements, row, {.bounds = true})}, {"ancestors", std::move(ancestors)},
                {"pid", target.pid}, {"window", window_brief(target)}};
            if (surface)
                out["covered"] = surface_json(*surface);
            else if (top && !counts_as_own(*top, target, all))
                out["covered"] = {{"title", top->title}, {"pid", top->pid}};
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
