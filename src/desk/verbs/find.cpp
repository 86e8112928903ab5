#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_parts.h"
#include "desk/desk_read_tree.h"
#include "desk/verbs/read_verb_list.h"

#include <unordered_set>

namespace nd_desk::verbs {

namespace {

// Without a window named, the allowed windows searched, topmost first.
constexpr std::size_t MAX_WINDOWS_SEARCHED = 8;
constexpr std::int32_t MAX_HITS = 50;

struct Found {
    nlohmann::json nodes = nlohmann::json::array();
    bool truncated = false;
    std::size_t outside_read = 0;
};

// The finder's hits are search results, not rows: the window is read whole through the desk (so
// the ids resolve later), and the nodes are the read's rows whose name as every view shows it
// answers the query (docs/tokens.md, "Labels a person reads": GTK4's tab "Tab" reads "Info", a Qt
// field reads as its box's label). Hits the read does not hold (past its budget) have no id to give
// and are counted instead. A window where the finder found nothing is read only for a search by
// role: a shown name comes from another element's name (a tab's from the label inside it), which a
// search by name alone finds, but a search by role finds only when the element's own name answers.
nd_core::Result<Found> find_in(Desk& desk, const nd_core::WindowInfo& window, const nd_core::FindQuery& query)
{
    auto lock = desk.lock_backend();
    auto* finder = desk.backend().finder();
    if (!finder)
        return nd_core::make_error(nd_core::ErrorCode::backend_unavailable, "this desk searches no windows");
    auto hits = TRY(finder->find(window, query));
    Found out;
    out.truncated = hits.truncated;
    if (hits.elements.empty() && query.role.empty())
        return out;
    auto snap = TRY(desk.read(window));
    std::unordered_set<std::string_view> keys;
    for (const auto& e : snap->elements)
        keys.insert(e.key);
    for (const auto& hit : hits.elements)
        if (!keys.contains(hit.key))
            ++out.outside_read;
    // In the read's order, so ids come as a snapshot lists them.
    std::vector<std::int32_t> rows;
    for (std::int32_t row = 0; row < snap->size(); ++row) {
        const auto& e = snap->elements[static_cast<std::size_t>(row)];
        if (!nd_core::query_matches(query, e.role, e.name))
            continue;
        if (static_cast<std::int32_t>(rows.size()) >= MAX_HITS) {
            out.truncated = true;
            break;
        }
        rows.push_back(row);
    }
    // Their places, read now as desk_snapshot's bounds are (a row that does not show has none).
    auto elements = snap->elements;
    TRY_VOID(fill_frames(desk, *snap, elements, rows));
    for (auto row : rows)
        out.nodes.push_back(node_json(*snap, elements, row, {.bounds = true}));
    return out;
}

} // namespace

VerbDef find()
{
    return {
        .decl = {
            .name = "desk_find",
            .description = "The nodes whose name contains name (without case), optionally of one role, in the window that "
                           "window or pid names, else in the first allowed window, topmost first, that has any. Answers the "
                           "window and the nodes with ids that read, press and act take.",
            .args = {{"name", ArgType::string, "a part of the node's name, compared without case", true},
                {"role", ArgType::string, "the node's role as a snapshot names it, e.g. push_button"},
                {"window", ArgType::string, "the window's title, or a part of it only one window has"},
                {"pid", ArgType::integer, "the window's process"}},
        },
        .handler = [](Desk& desk, const CallScope& scope, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            nd_core::FindQuery query;
            query.name = *arg_string(args, "name");
            query.role = arg_string(args, "role").value_or("");
            query.max_results = MAX_HITS;
            query.deadline = Desk::READ_DEADLINE;
            if (query.name.empty())
                return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
                    "name: must not be empty; to see every node, call desk_snapshot");

            std::vector<nd_core::WindowInfo> targets;
            const bool named = args.contains("window") || args.contains("pid");
            if (named)
                targets.push_back(TRY(desk.pick_window(args)));
            else {
                auto allowed = TRY(desk.allowed_windows());
                for (std::size_t i = 0; i < allowed.size() && i < MAX_WINDOWS_SEARCHED; ++i)
                    targets.push_back(std::move(allowed[i]));
                if (targets.empty())
                    return nd_core::make_error(nd_core::ErrorCode::window_target_not_found,
                        "no window of an allowed app is open: start one with desk_launch");
            }
            std::optional<nd_core::Error> first_error;
            for (const auto& window : targets) {
                if (scope.stop.stopped())
                    return nd_core::make_error(nd_core::ErrorCode::stopped_by_kill_switch, "the search was stopped");
                auto found = find_in(desk, window, query);
                if (!found) {
                    // One window that cannot be searched (a hung app) does not hide the others'.
                    if (named)
                        return with_next_step(std::move(found).error());
                    if (!first_error)
                        first_error = found.error();
                    continue;
                }
                if (found->nodes.empty() && !named)
                    continue;
                nlohmann::json out{{"window", window_brief(window)}, {"nodes", std::move(found->nodes)}};
                if (found->truncated)
                    out["truncated"] = true;
                if (found->outside_read)
                    out["outside_read"] = found->outside_read;
                return VerbReply{std::move(out), std::nullopt};
            }
            nlohmann::json out{{"window", nullptr}, {"nodes", nlohmann::json::array()}, {"searched", targets.size()}};
            if (first_error)
                out["error"] = error_text(with_next_step(*first_error));
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
