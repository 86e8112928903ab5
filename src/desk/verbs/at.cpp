#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_parts.h"
#include "desk/desk_read_tree.h"
#include "desk/verbs/read_verb_list.h"

namespace nd_desk::verbs {

namespace {

// The row at the point: the deepest showing node whose frame holds it (a toolkit draws children
// over their parents), and of two equally deep the later in preorder (drawn over earlier siblings).
std::int32_t row_at(const std::vector<nd_core::Element>& elements, std::int32_t x, std::int32_t y)
{
    std::int32_t best = -1;
    for (std::int32_t row = 0; row < static_cast<std::int32_t>(elements.size()); ++row) {
        const auto& e = elements[static_cast<std::size_t>(row)];
        if (!e.has_frame || !e.frame.contains(x, y))
            continue;
        if (row > 0 && !e.is(nd_core::STATE_SHOWING))
            continue;
        // The deepest node there; of equal depth the later one, drawn above an earlier sibling.
        if (best < 0 || e.depth >= elements[static_cast<std::size_t>(best)].depth)
            best = row;
    }
    return best;
}

nlohmann::json brief_node(const nd_core::Snapshot& snap, std::int32_t row)
{
    const auto& e = snap.elements[static_cast<std::size_t>(row)];
    return {{"id", nd_core::format_token(snap.id, row)}, {"role", e.role}, {"name", e.name}};
}

} // namespace

VerbDef at()
{
    return {
        .name = "at",
        .description = "The node at a screen point (desk coordinates), its ancestors and the pid of its process, read in "
                       "the window that window or pid names, else in the topmost window at the point. covered {title, "
                       "pid} names another window on top at that point.",
        .args = {{"x", ArgType::integer, "screen x in desk coordinates", true},
            {"y", ArgType::integer, "screen y in desk coordinates", true},
            {"window", ArgType::string, "the window's title, or a part of it only one window has"},
            {"pid", ArgType::integer, "the window's process"}},
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto x = static_cast<std::int32_t>(*arg_int(args, "x"));
            const auto y = static_cast<std::int32_t>(*arg_int(args, "y"));
            auto all = TRY(desk.all_windows());
            const nd_core::WindowInfo* top = nullptr;
            for (const auto& w : all)
                if (!top && !w.hidden && w.frame.contains(x, y))
                    top = &w;
            nd_core::WindowInfo target;
            if (args.contains("window") || args.contains("pid"))
                target = TRY(desk.pick_window(args));
            else {
                if (!top)
                    return nd_core::make_error(nd_core::ErrorCode::window_target_not_found,
                        "no window is at (" + std::to_string(x) + ", " + std::to_string(y) +
                            "): pick a point inside a window that desk_windows lists");
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
            auto row = row_at(elements, x, y);
            if (row < 0)
                row = 0; // the point is in the window but on no node of its own: the window itself
            nlohmann::json ancestors = nlohmann::json::array();
            for (auto p = elements[static_cast<std::size_t>(row)].parent; p >= 0; p = elements[static_cast<std::size_t>(p)].parent)
                ancestors.push_back(brief_node(*snap, p));
            nlohmann::json out{{"node", node_json(*snap, elements, row, {.bounds = true})}, {"ancestors", std::move(ancestors)},
                {"pid", target.pid}, {"window", window_brief(target)}};
            if (top && !counts_as_own(*top, target, all))
                out["covered"] = {{"title", top->title}, {"pid", top->pid}};
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
