#include "backend/mock/mutation.h"

#include "backend/mock/tree_builder.h"
#include "core/model/policy.h"

#include <algorithm>
#include <array>
#include <set>

namespace nd_mock {

namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 10> PATCH_KEYS = {
    "name", "value", "description", "secret", "states", "add_states", "remove_states", "append", "replace_children",
    "remove",
};

nd_core::Error bad(const std::string& problem)
{
    return nd_core::make_error(nd_core::ErrorCode::invalid_arguments, "mutate: " + problem);
}

nd_core::Result<std::uint32_t> parse_states(const json& list, const char* field)
{
    if (!list.is_array())
        return bad(std::string("\"") + field + "\" must be an array of state names");
    std::uint32_t bits = 0;
    for (const auto& s : list) {
        std::uint32_t bit = s.is_string() ? nd_core::state_from_name(s.get<std::string>()) : 0;
        if (!bit)
            return bad("unknown state " + s.dump());
        bits |= bit;
    }
    return bits;
}

void collect_keys(const Node& node, std::set<std::string>& keys)
{
    keys.insert(node.key);
    for (const auto& child : node.children)
        collect_keys(*child, keys);
}

// Builds the elements under a throwaway holder, so repeat blocks work as in a fixture.
nd_core::Result<std::unique_ptr<Node>> build_list(MockWindow& window, const json& elements,
                                                  std::set<std::string>& keys)
{
    json holder = {{"role", "filler"}, {"children", elements.is_array() ? elements : json::array({elements})}};
    // The holder's own key is taken from the counter and discarded with it.
    TreeBuilder builder(window.templates.get(), keys, window.next_auto_key);
    auto built = builder.build(holder, PlaceholderContext{}, "mutate");
    if (!built)
        return bad(built.error().message);
    return std::move(built).value();
}

} // namespace

nd_core::Result<void> apply_patch(MockWindow& window, Node& node, const json& patch)
{
    if (!patch.is_object())
        return bad("the patch must be an object");
    for (const auto& item : patch.items())
        if (std::find(PATCH_KEYS.begin(), PATCH_KEYS.end(), item.key()) == PATCH_KEYS.end())
            return bad("unknown field \"" + item.key() + "\"");
    for (const char* field : {"name", "value", "description", "secret"})
        if (patch.contains(field) && !patch[field].is_string())
            return bad(std::string("\"") + field + "\" must be a string");

    // Check everything first, so a bad patch changes nothing.
    std::uint32_t states = node.states;
    if (patch.contains("states"))
        states = TRY(parse_states(patch["states"], "states"));
    if (patch.contains("add_states"))
        states |= TRY(parse_states(patch["add_states"], "add_states"));
    if (patch.contains("remove_states"))
        states &= ~TRY(parse_states(patch["remove_states"], "remove_states"));
    bool secure_after = nd_core::is_secure_element(node.role, states);
    if (secure_after && patch.contains("value"))
        return bad("a secure element takes \"secret\", not \"value\"");
    if (!secure_after && patch.contains("secret"))
        return bad("\"secret\" is only for secure elements");
    bool remove = false;
    if (auto r = patch.find("remove"); r != patch.end()) {
        if (!r->is_boolean())
            return bad("\"remove\" must be true or false");
        remove = r->get<bool>();
        if (remove && !node.parent)
            return bad("the window's root cannot be removed; use close_window");
    }
    std::unique_ptr<Node> replacement, appended;
    if (patch.contains("replace_children") || patch.contains("append")) {
        std::set<std::string> keys;
        collect_keys(*window.root, keys);
        if (auto r = patch.find("replace_children"); r != patch.end()) {
            if (!r->is_array())
                return bad("\"replace_children\" must be an array of elements");
            // The children being replaced free their keys for the replacements.
            std::set<std::string> old;
            for (const auto& child : node.children)
                collect_keys(*child, old);
            for (const auto& k : old)
                keys.erase(k);
            replacement = TRY(build_list(window, *r, keys));
        }
        if (auto a = patch.find("append"); a != patch.end())
            appended = TRY(build_list(window, *a, keys));
    }

    // Apply.
    node.states = states;
    if (patch.contains("name"))
        node.name = patch["name"].get<std::string>();
    if (patch.contains("description"))
        node.description = patch["description"].get<std::string>();
    if (patch.contains("value"))
        node.value = patch["value"].get<std::string>();
    if (patch.contains("secret"))
        node.secret = patch["secret"].get<std::string>();
    if (secure_after)
        node.value.clear();
    if (replacement)
        node.children.clear();
    for (auto* holder : {replacement.get(), appended.get()}) {
        if (!holder)
            continue;
        for (auto& child : holder->children) {
            child->parent = &node;
            node.children.push_back(std::move(child));
        }
    }
    if (remove) {
        auto& siblings = node.parent->children;
        siblings.erase(std::find_if(siblings.begin(), siblings.end(), [&](const auto& c) { return c.get() == &node; }));
    }
    return {};
}

} // namespace nd_mock
