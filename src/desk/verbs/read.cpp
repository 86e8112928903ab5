#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_parts.h"
#include "desk/desk_read_tree.h"
#include "desk/verbs/read_verb_list.h"

namespace nd_desk::verbs {

namespace {

constexpr std::size_t TEXT_MAX_CHARS = 20000;

} // namespace

VerbDef read()
{
    return {
        .decl = {
            .name = "desk_read",
            .description = "One node by its id (from desk_snapshot or desk_find), read afresh: role, name, states, value "
                           "(never of a password field), bounds, its window; with text also the outline of its subtree.",
            .args = {{"id", ArgType::string, "a node id such as s3:17", true},
                {"text", ArgType::boolean, "also answer text: the indented outline of the node and what it holds"}},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            const auto id = *arg_string(args, "id");
            auto resolved = desk.resolve(id);
            if (!resolved)
                return with_next_step(std::move(resolved).error());
            const auto& snap = *resolved->snapshot;
            auto elements = snap.elements;
            // Only this node's frame is wanted; a failure to read it leaves bounds out.
            if (!elements[static_cast<std::size_t>(resolved->index)].has_frame) {
                auto lock = desk.lock_backend();
                if (auto* trees = desk.backend().trees())
                    (void)trees->read_frames(snap.window, elements, {resolved->index}, EXTRA_READ_DEADLINE);
            }
            auto node = node_json(snap, elements, resolved->index, {.bounds = true});
            const auto& e = resolved->element();
            if (!e.description.empty())
                node["description"] = e.description;
            node["window"] = window_brief(snap.window);
            if (arg_bool(args, "text").value_or(false)) {
                bool cut = false;
                node["text"] = outline_text(snap, resolved->index, e.descendant_count + 1, TEXT_MAX_CHARS, cut);
                if (cut)
                    node["cut"] = true;
            }
            return VerbReply{std::move(node), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
