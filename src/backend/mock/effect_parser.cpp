// The "effects" part of an element (docs/mock.md, "Effects"): parsed when the fixture loads, so a
// typo fails the load instead of the test that clicks the button.

#include "backend/mock/tree_builder.h"

#include <algorithm>
#include <array>

namespace nd_mock {

namespace {

using nd_core::ErrorCode;
using nlohmann::json;

struct KindName {
    std::string_view name;
    Effect::Kind kind;
};

constexpr std::array<KindName, 10> KINDS = {{
    {"toggle", Effect::Kind::toggle_state},
    {"add_state", Effect::Kind::add_state},
    {"remove_state", Effect::Kind::remove_state},
    {"set_name", Effect::Kind::set_name},
    {"set_value", Effect::Kind::set_value},
    {"insert", Effect::Kind::insert},
    {"remove", Effect::Kind::remove},
    {"select", Effect::Kind::select},
    {"calc", Effect::Kind::calc},
    {"close_window", Effect::Kind::close_window},
}};

constexpr std::array<std::string_view, 7> MODIFIERS = {"target", "under", "position", "step", "text_from",
                                                       "clear_source", "listed_ms"};

nd_core::Error fail(const std::string& path, const std::string& problem)
{
    return nd_core::make_error(ErrorCode::invalid_arguments, path + ": " + problem);
}

nd_core::Result<std::string> optional_string(const json& effect, const char* key, const std::string& path)
{
    auto it = effect.find(key);
    if (it == effect.end())
        return std::string();
    if (!it->is_string() || it->get_ref<const std::string&>().empty())
        return fail(path, std::string("\"") + key + "\" must be a non-empty string");
    return it->get<std::string>();
}

} // namespace

nd_core::Result<void> TreeBuilder::parse_effects(Node& node, const json& effects, const std::string& path)
{
    if (!effects.is_object())
        return fail(path, "\"effects\" must map action names to lists of effects");
    for (const auto& item : effects.items()) {
        std::string at = path + ".effects." + item.key();
        if (item.key() != "select" && !node.has_action(item.key()))
            return fail(at, "effects for \"" + item.key() + "\", which is not one of the element's actions");
        if (!item.value().is_array())
            return fail(at, "must be a list of effects");
        std::vector<Effect> list;
        for (std::size_t i = 0; i < item.value().size(); ++i)
            list.push_back(TRY(parse_effect(node, item.value()[i], at + "[" + std::to_string(i) + "]")));
        node.effects[item.key()] = std::move(list);
    }
    return {};
}

nd_core::Result<Effect> TreeBuilder::parse_effect(const Node&, const json& raw, const std::string& path)
{
    if (!raw.is_object())
        return fail(path, "an effect must be an object");
    Effect effect;
    const json* main = nullptr;
    for (const auto& item : raw.items()) {
        auto kind = std::find_if(KINDS.begin(), KINDS.end(), [&](const KindName& k) { return k.name == item.key(); });
        if (kind != KINDS.end()) {
            if (main)
                return fail(path, "an effect has exactly one kind");
            main = &item.value();
            effect.kind = kind->kind;
        } else if (item.key() == "prefix") {
            if (!item.value().is_string())
                return fail(path, "\"prefix\" must be a string");
            effect.prefix = item.value().get<std::string>();
        } else if (std::find(MODIFIERS.begin(), MODIFIERS.end(), item.key()) == MODIFIERS.end()) {
            return fail(path, "unknown field \"" + item.key() + "\"");
        }
    }
    if (!main)
        return fail(path, "an effect needs one of toggle, add_state, remove_state, set_name, set_value, insert, "
                          "remove, select, calc, close_window");
    bool is_insert = effect.kind == Effect::Kind::insert;
    for (const char* key : {"under", "position", "step", "text_from", "clear_source"})
        if (!is_insert && raw.contains(key))
            return fail(path, std::string("\"") + key + "\" belongs to insert effects only");
    if (is_insert && raw.contains("target"))
        return fail(path, "an insert names its parent with \"under\"");
    if (raw.contains("prefix") && effect.kind != Effect::Kind::calc)
        return fail(path, "\"prefix\" belongs to calc effects only");
    if (raw.contains("listed_ms") && effect.kind != Effect::Kind::close_window)
        return fail(path, "\"listed_ms\" belongs to close_window effects only");
    if (auto target = TRY(optional_string(raw, "target", path)); !target.empty())
        effect.target = target;

    switch (effect.kind) {
    case Effect::Kind::toggle_state:
    case Effect::Kind::add_state:
    case Effect::Kind::remove_state:
        effect.state = main->is_string() ? nd_core::state_from_name(main->get<std::string>()) : 0;
        if (effect.state == 0)
            return fail(path, "unknown state " + main->dump());
        break;
    case Effect::Kind::set_name:
    case Effect::Kind::set_value:
        if (!main->is_string())
            return fail(path, "the text to set must be a string");
        effect.text = main->get<std::string>();
        break;
    case Effect::Kind::calc:
        if (!main->is_string() || main->get_ref<const std::string&>().empty())
            return fail(path, "\"calc\" must be a key such as \"7\", \"+\", \"=\" or \"C\"");
        effect.text = main->get<std::string>();
        if (effect.target == "self")
            return fail(path, "a calc effect needs the display's id as \"target\"");
        break;
    case Effect::Kind::close_window:
        if (!main->is_boolean() || !main->get<bool>() || raw.contains("target"))
            return fail(path, "\"close_window\" is true and closes the acting element's window");
        if (raw.contains("listed_ms")) {
            const auto& listed = raw["listed_ms"];
            if (!listed.is_number_integer() || listed.get<std::int64_t>() < 0 || listed.get<std::int64_t>() > 10000)
                return fail(path, "\"listed_ms\" is how long the window stays listed after its tree went: 0 to 10000");
            effect.listed_ms = listed.get<std::int32_t>();
        }
        break;
    case Effect::Kind::remove:
    case Effect::Kind::select:
        if (!main->is_string() || main->get_ref<const std::string&>().empty())
            return fail(path, "must name an element id, \"self\" or \"parent\"");
        effect.target = main->get<std::string>();
        break;
    case Effect::Kind::insert: {
        effect.subtree = main->is_string() ? json{{"use", *main}} : *main;
        if (auto under = TRY(optional_string(raw, "under", path)); !under.empty())
            effect.target = under;
        effect.text_from = TRY(optional_string(raw, "text_from", path));
        if (auto p = raw.find("position"); p != raw.end()) {
            if (!p->is_number_integer() || p->get<std::int64_t>() < 0 || p->get<std::int64_t>() > 1000000)
                return fail(path, "\"position\" must be a child index");
            effect.position = p->get<std::int32_t>();
        }
        if (auto s = raw.find("step"); s != raw.end()) {
            if (!s->is_array() || s->size() != 2 || !(*s)[0].is_number_integer() || !(*s)[1].is_number_integer())
                return fail(path, "\"step\" must be [dx, dy] integers");
            effect.step_x = (*s)[0].get<std::int32_t>();
            effect.step_y = (*s)[1].get<std::int32_t>();
        }
        if (auto c = raw.find("clear_source"); c != raw.end()) {
            if (!c->is_boolean() || effect.text_from.empty())
                return fail(path, "\"clear_source\" is a boolean and needs \"text_from\"");
            effect.clear_source = c->get<bool>();
        }
        // Build the subtree once now, with throwaway keys, so a bad insert fails the load.
        std::set<std::string> keys;
        std::int64_t next_auto = 1;
        TreeBuilder probe(m_templates, keys, next_auto);
        PlaceholderContext ctx;
        ctx.index = 1;
        if (!effect.text_from.empty())
            ctx.text = std::string();
        TRY_VOID(probe.build(effect.subtree, ctx, path + ".insert"));
        break;
    }
    }
    return effect;
}

} // namespace nd_mock
