#include "desk/desk.h"
#include "desk/desk_read_json.h"
#include "desk/desk_read_parts.h"
#include "desk/desk_read_tree.h"
#include "desk/verbs/read_verb_list.h"

namespace nd_desk::verbs {

namespace {

constexpr std::int64_t DEFAULT_MAX_CHARS = 20000;

} // namespace

VerbDef snapshot()
{
    return {
        .decl = {
            .name = "desk_snapshot",
            .description = "A window's accessibility tree as nodes (ref = row, id = a node id for read, press and act, "
                           "parent row, depth, role, name, states, value), or with text an indented outline. Names the "
                           "window by window (title), id (from desk_windows) or pid; none: the active allowed window.",
            .args = {{"window", ArgType::string, "the window's title, or a part of it only one window has"},
                {"pid", ArgType::integer, "the window's process"},
                {"id", ArgType::string, "a window id from desk_windows, in place of window"},
                {"keys", ArgType::boolean, "each node also carries its raw AT-SPI key binding as keys, when it has one"},
                {"menus", ArgType::boolean, "the app's menu bar (macOS only; ignored here)"},
                {"bounds", ArgType::boolean, "each node on screen also carries bounds {x, y, w, h} in desk coordinates"},
                {"text", ArgType::boolean, "answer an indented outline text instead of nodes"},
                {"max_chars", ArgType::integer, "with text: at most this many characters (default 20000)", false, {}, 1.0}},
        },
        .handler = [](Desk& desk, const CallScope&, const nlohmann::json& args) -> nd_core::Result<VerbReply> {
            auto window = TRY(desk.pick_window(args, true));
            auto fresh = desk.read(window);
            if (!fresh)
                return with_next_step(std::move(fresh).error());
            auto snap = std::move(fresh).value();
            nlohmann::json out{{"window", window_brief(window)}, {"snapshot_id", snap->id}};
            if (snap->budget_truncated)
                out["truncated"] = true;
            if (arg_bool(args, "text").value_or(false)) {
                bool cut = false;
                const auto max_chars = static_cast<std::size_t>(arg_int(args, "max_chars").value_or(DEFAULT_MAX_CHARS));
                out["text"] = outline_text(*snap, 0, snap->size(), max_chars, cut);
                if (cut)
                    out["cut"] = true;
                return VerbReply{std::move(out), std::nullopt};
            }
            NodeOptions options{arg_bool(args, "bounds").value_or(false), arg_bool(args, "keys").value_or(false)};
            auto elements = snap->elements;
            if (options.bounds)
                TRY_VOID(fill_frames(desk, *snap, elements));
            std::vector<std::string> keys;
            if (options.keys)
                keys = TRY(read_key_bindings(desk, *snap));
            nlohmann::json nodes = nlohmann::json::array();
            for (std::int32_t row = 0; row < snap->size(); ++row)
                nodes.push_back(node_json(*snap, elements, row, options, &keys));
            out["nodes"] = std::move(nodes);
            return VerbReply{std::move(out), std::nullopt};
        },
    };
}

} // namespace nd_desk::verbs
