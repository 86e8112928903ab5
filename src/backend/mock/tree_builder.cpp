#include "backend/mock/tree_builder.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace nd_mock {

namespace {

using nd_core::ErrorCode;
using nlohmann::json;

constexpr int MAX_USE_DEPTH = 32;
constexpr std::int64_t MAX_REPEAT = 100000;
// Deeper than any real app (the read budget stops at depth 200), and shallow enough for the stack.
constexpr int MAX_NESTING = 256;

constexpr std::array<std::string_view, 14> ELEMENT_KEYS = {
    "id", "role", "name", "value", "description", "states", "actions",
    "frame", "secret", "filter", "range", "effects", "children", "use",
};
constexpr std::array<std::string_view, 4> REPEAT_KEYS = {"repeat", "from", "step", "template"};

nd_core::Error fail(const std::string& path, const std::string& problem)
{
    return nd_core::make_error(ErrorCode::invalid_arguments, path + ": " + problem);
}

template<std::size_t N>
nd_core::Result<void> check_keys(const json& object, const std::array<std::string_view, N>& allowed,
                                 const std::string& path)
{
    for (const auto& item : object.items())
        if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
            return fail(path, "unknown field \"" + item.key() + "\"");
    return {};
}

bool valid_role(const std::string& role)
{
    if (role.empty() || role[0] < 'a' || role[0] > 'z')
        return false;
    return std::all_of(role.begin(), role.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
}

nd_core::Result<std::string> string_field(const json& element, const char* key, const PlaceholderContext& ctx,
                                          const std::string& path)
{
    auto it = element.find(key);
    if (it == element.end())
        return std::string();
    if (!it->is_string())
        return fail(path, std::string("\"") + key + "\" must be a string");
    auto expanded = expand_placeholders(it->get_ref<const std::string&>(), ctx);
    if (!expanded)
        return fail(path, std::string("\"") + key + "\": " + expanded.error().message);
    return std::move(expanded).value();
}

} // namespace

nd_core::Result<nd_core::Frame> parse_frame(const json& frame, const std::string& path)
{
    std::array<std::int64_t, 4> v{};
    if (frame.is_array() && frame.size() == 4) {
        for (std::size_t i = 0; i < 4; ++i) {
            if (!frame[i].is_number_integer())
                return fail(path, "frame values must be integers");
            v[i] = frame[i].get<std::int64_t>();
        }
    } else if (frame.is_object() && frame.size() == 4) {
        constexpr std::array<const char*, 4> names = {"x", "y", "w", "h"};
        for (std::size_t i = 0; i < 4; ++i) {
            auto it = frame.find(names[i]);
            if (it == frame.end() || !it->is_number_integer())
                return fail(path, "frame must have integer x, y, w and h");
            v[i] = it->get<std::int64_t>();
        }
    } else {
        return fail(path, "frame must be [x, y, w, h] or {\"x\", \"y\", \"w\", \"h\"}");
    }
    constexpr std::int64_t LIMIT = 1 << 20;
    for (auto n : v)
        if (n < -LIMIT || n > LIMIT)
            return fail(path, "frame value out of range");
    if (v[2] < 0 || v[3] < 0)
        return fail(path, "frame width and height must not be negative");
    return nd_core::Frame{static_cast<std::int32_t>(v[0]), static_cast<std::int32_t>(v[1]),
                          static_cast<std::int32_t>(v[2]), static_cast<std::int32_t>(v[3])};
}

nd_core::Result<std::unique_ptr<Node>> TreeBuilder::build(const json& element, const PlaceholderContext& ctx,
                                                          const std::string& path)
{
    return build_node(element, ctx, path, 0);
}

nd_core::Result<json> TreeBuilder::resolve_use(const json& element, const std::string& path, int use_depth)
{
    auto use = element.find("use");
    if (use == element.end())
        return element;
    if (!use->is_string())
        return fail(path, "\"use\" must name a template");
    if (use_depth >= MAX_USE_DEPTH)
        return fail(path, "templates nest too deeply (a template that uses itself?)");
    const auto& name = use->get_ref<const std::string&>();
    if (!m_templates || !m_templates->contains(name))
        return fail(path, "unknown template \"" + name + "\"");
    const json& base = m_templates->at(name);
    if (!base.is_object())
        return fail(path, "template \"" + name + "\" is not an element object");
    // The template may itself use another; the element's own fields override the template's.
    json merged = TRY(resolve_use(base, path + "(template " + name + ")", use_depth + 1));
    for (const auto& item : element.items())
        if (item.key() != "use")
            merged[item.key()] = item.value();
    return merged;
}

nd_core::Result<std::unique_ptr<Node>> TreeBuilder::build_node(const json& raw, const PlaceholderContext& ctx,
                                                               const std::string& path, int use_depth)
{
    if (!raw.is_object())
        return fail(path, "an element must be an object");
    struct Depth {
        int& n;
        explicit Depth(int& count) : n(++count) {}
        ~Depth() { --n; }
    } depth(m_nesting);
    if (m_nesting > MAX_NESTING)
        return fail(path, "elements nest deeper than " + std::to_string(MAX_NESTING) + " levels");
    if (raw.contains("repeat"))
        return fail(path, "a repeat block may only appear in a children list");
    json element = TRY(resolve_use(raw, path, use_depth));
    TRY_VOID(check_keys(element, ELEMENT_KEYS, path));

    auto node = std::make_unique<Node>();
    TRY_VOID(fill_fields(*node, element, ctx, path));
    if (auto children = element.find("children"); children != element.end()) {
        TRY_VOID(build_children(*children, *node, ctx, path, use_depth));
    }
    // Effects are parsed last so their checks can see the element's actions.
    if (auto effects = element.find("effects"); effects != element.end()) {
        TRY_VOID(parse_effects(*node, *effects, path));
    }
    return node;
}

nd_core::Result<void> TreeBuilder::fill_fields(Node& node, const json& element, const PlaceholderContext& ctx,
                                               const std::string& path)
{
    auto role = element.find("role");
    if (role == element.end() || !role->is_string() || !valid_role(role->get<std::string>()))
        return fail(path, "\"role\" must be a snake_case role name such as push_button");
    node.role = role->get<std::string>();
    node.name = TRY(string_field(element, "name", ctx, path));
    node.value = TRY(string_field(element, "value", ctx, path));
    node.description = TRY(string_field(element, "description", ctx, path));
    node.secret = TRY(string_field(element, "secret", ctx, path));
    node.filter = TRY(string_field(element, "filter", ctx, path));
    if (!node.filter.empty() && node.filter != "digits")
        return fail(path, "\"filter\" must be \"digits\"");

    std::string id = TRY(string_field(element, "id", ctx, path));
    if (id.starts_with("auto."))
        return fail(path, "ids starting with \"auto.\" are reserved for elements without an id");
    if (id.empty())
        id = "auto." + std::to_string(m_next_auto++);
    if (!m_keys.insert(id).second)
        return fail(path, "duplicate id \"" + id + "\" in this window");
    node.key = std::move(id);

    if (auto states = element.find("states"); states != element.end()) {
        if (!states->is_array())
            return fail(path, "\"states\" must be an array of state names");
        for (const auto& s : *states) {
            std::uint32_t bit = s.is_string() ? nd_core::state_from_name(s.get<std::string>()) : 0;
            if (bit == 0)
                return fail(path, "unknown state " + s.dump() + " (see src/core/model/element.cpp)");
            node.states |= bit;
        }
    }
    if (auto actions = element.find("actions"); actions != element.end()) {
        if (!actions->is_array())
            return fail(path, "\"actions\" must be an array of action names");
        for (const auto& a : *actions) {
            if (!a.is_string() || a.get_ref<const std::string&>().empty())
                return fail(path, "action names must be non-empty strings");
            node.actions.push_back(a.get<std::string>());
        }
    }
    if (auto frame = element.find("frame"); frame != element.end()) {
        node.frame = TRY(parse_frame(*frame, path));
        node.has_frame = true;
    }
    if (auto range = element.find("range"); range != element.end()) {
        if (!range->is_array() || range->size() != 2 || !(*range)[0].is_number() || !(*range)[1].is_number() ||
            (*range)[0].get<double>() > (*range)[1].get<double>())
            return fail(path, "\"range\" must be [min, max] with min <= max");
        node.range = std::make_pair((*range)[0].get<double>(), (*range)[1].get<double>());
    }
    if (node.secure() && !node.value.empty())
        return fail(path, "a secure element keeps its contents in \"secret\", never in \"value\"");
    if (!node.secure() && !node.secret.empty())
        return fail(path, "\"secret\" is only for secure elements (password_text or state secure)");
    if (node.range) {
        char* end = nullptr;
        double v = std::strtod(node.value.c_str(), &end);
        if (node.value.empty() || *end != '\0' || v < node.range->first || v > node.range->second)
            return fail(path, "a ranged element's value must be a number within its range");
    }
    return {};
}

nd_core::Result<void> TreeBuilder::build_children(const json& children, Node& parent, const PlaceholderContext& ctx,
                                                  const std::string& path, int use_depth)
{
    if (!children.is_array())
        return fail(path, "\"children\" must be an array");
    for (std::size_t i = 0; i < children.size(); ++i) {
        const json& child = children[i];
        std::string child_path = path + ".children[" + std::to_string(i) + "]";
        if (!child.is_object() || !child.contains("repeat")) {
            auto node = TRY(build_node(child, ctx, child_path, use_depth));
            node->parent = &parent;
            parent.children.push_back(std::move(node));
            continue;
        }
        TRY_VOID(check_keys(child, REPEAT_KEYS, child_path));
        const json& count = child["repeat"];
        if (!count.is_number_integer() || count.get<std::int64_t>() < 0 || count.get<std::int64_t>() > MAX_REPEAT)
            return fail(child_path, "\"repeat\" must be an integer 0.." + std::to_string(MAX_REPEAT));
        std::int64_t from = 1;
        if (auto f = child.find("from"); f != child.end()) {
            if (!f->is_number_integer())
                return fail(child_path, "\"from\" must be an integer");
            from = f->get<std::int64_t>();
        }
        std::int32_t step_x = 0, step_y = 0;
        if (auto s = child.find("step"); s != child.end()) {
            if (!s->is_array() || s->size() != 2 || !(*s)[0].is_number_integer() || !(*s)[1].is_number_integer())
                return fail(child_path, "\"step\" must be [dx, dy] integers");
            step_x = (*s)[0].get<std::int32_t>();
            step_y = (*s)[1].get<std::int32_t>();
        }
        auto tmpl = child.find("template");
        if (tmpl == child.end())
            return fail(child_path, "a repeat block needs a \"template\"");
        for (std::int64_t n = 0; n < count.get<std::int64_t>(); ++n) {
            PlaceholderContext inner = ctx;
            inner.index = from + n;
            auto node = TRY(build_node(*tmpl, inner, child_path + "(i=" + std::to_string(from + n) + ")", use_depth));
            shift_frames(*node, static_cast<std::int32_t>(step_x * n), static_cast<std::int32_t>(step_y * n));
            node->parent = &parent;
            parent.children.push_back(std::move(node));
        }
    }
    return {};
}

} // namespace nd_mock
