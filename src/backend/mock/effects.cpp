#include "backend/mock/effects.h"

#include "backend/mock/tree_builder.h"

#include <algorithm>
#include <set>

namespace nd_mock {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

constexpr int MAX_EFFECT_DEPTH = 8;

nd_core::Error failed(const std::string& message) { return make_error(ErrorCode::action_failed, message); }

nd_core::Result<Node*> resolve(MockWindow& window, Node& self, const std::string& target)
{
    if (target == "self")
        return &self;
    if (target == "parent") {
        if (!self.parent)
            return failed("effect target parent: the element has none");
        return self.parent;
    }
    if (Node* node = find_node(*window.root, target))
        return node;
    return failed("effect target " + target.substr(0, 64) + " is not in the window");
}

bool contains(const Node& root, const Node& node)
{
    for (const Node* n = &node; n; n = n->parent)
        if (n == &root)
            return true;
    return false;
}

bool holds(const Node& root, const Node* node)
{
    if (&root == node)
        return true;
    for (const auto& child : root.children)
        if (holds(*child, node))
            return true;
    return false;
}

void collect_keys(const Node& node, std::set<std::string>& keys)
{
    keys.insert(node.key);
    for (const auto& child : node.children)
        collect_keys(*child, keys);
}

nd_core::Result<void> insert(MockWindow& window, Node& self, const Effect& effect)
{
    Node* parent = TRY(resolve(window, self, effect.target));
    PlaceholderContext ctx;
    ctx.index = static_cast<std::int64_t>(parent->children.size()) + 1;
    Node* source = nullptr;
    if (!effect.text_from.empty()) {
        source = find_node(*window.root, effect.text_from);
        if (!source)
            return failed("insert text source " + effect.text_from.substr(0, 64) + " is not in the window");
        ctx.text = source->value;
    }
    std::set<std::string> keys;
    collect_keys(*window.root, keys);
    // Inserting a subtree whose root id is already there is a no-op: the dialog is already open,
    // the page already shown. Only the root is checked; any other clash is an error below.
    std::set<std::string> probe_keys;
    std::int64_t probe_auto = 1;
    auto probe = TreeBuilder(window.templates.get(), probe_keys, probe_auto).build(effect.subtree, ctx, "insert");
    if (!probe)
        return failed("insert: " + probe.error().message);
    if (!(*probe)->key.starts_with("auto.") && keys.count((*probe)->key))
        return {};

    auto built = TreeBuilder(window.templates.get(), keys, window.next_auto_key).build(effect.subtree, ctx, "insert");
    if (!built)
        return failed("insert: " + built.error().message);
    auto node = std::move(built).value();
    auto existing = static_cast<std::int32_t>(parent->children.size());
    shift_frames(*node, effect.step_x * existing, effect.step_y * existing);
    node->parent = parent;
    auto at = std::min<std::size_t>(effect.position.value_or(existing), parent->children.size());
    parent->children.insert(parent->children.begin() + static_cast<std::ptrdiff_t>(at), std::move(node));
    if (source && effect.clear_source)
        source->value.clear();
    return {};
}

// Returns true when the removed subtree held `self`, so the caller stops running its effects.
nd_core::Result<bool> remove(MockWindow& window, Node& self, const Effect& effect)
{
    Node* node = nullptr;
    if (effect.target == "self" || effect.target == "parent") {
        node = TRY(resolve(window, self, effect.target));
    } else {
        node = find_node(*window.root, effect.target);
        if (!node)
            return false; // already gone: removing is idempotent, like closing a closed dialog
    }
    if (!node->parent)
        return failed("an effect cannot remove the window's root");
    bool removes_self = contains(*node, self);
    auto& siblings = node->parent->children;
    siblings.erase(std::find_if(siblings.begin(), siblings.end(), [&](const auto& c) { return c.get() == node; }));
    return removes_self;
}

nd_core::Result<void> run(MockWindow& window, Node& self, const std::vector<Effect>& effects, int depth);

nd_core::Result<void> select_at(MockWindow& window, Node& node, int depth)
{
    if (depth > MAX_EFFECT_DEPTH)
        return failed("select effects nest too deeply");
    if (node.parent)
        for (auto& sibling : node.parent->children)
            sibling->states &= ~nd_core::STATE_SELECTED;
    node.states |= nd_core::STATE_SELECTED;
    auto it = node.effects.find("select");
    if (it == node.effects.end())
        return {};
    return run(window, node, it->second, depth + 1);
}

nd_core::Result<void> run(MockWindow& window, Node& self, const std::vector<Effect>& effects, int depth)
{
    for (const Effect& effect : effects) {
        switch (effect.kind) {
        case Effect::Kind::toggle_state:
            TRY(resolve(window, self, effect.target))->states ^= effect.state;
            break;
        case Effect::Kind::add_state:
            TRY(resolve(window, self, effect.target))->states |= effect.state;
            break;
        case Effect::Kind::remove_state:
            TRY(resolve(window, self, effect.target))->states &= ~effect.state;
            break;
        case Effect::Kind::set_name:
            TRY(resolve(window, self, effect.target))->name = effect.text;
            break;
        case Effect::Kind::set_value:
            TRY(resolve(window, self, effect.target))->value = effect.text;
            break;
        case Effect::Kind::calc: {
            Node* display = TRY(resolve(window, self, effect.target));
            std::string expression = display->name.starts_with(effect.prefix)
                                         ? display->name.substr(effect.prefix.size())
                                         : display->name;
            display->name = effect.prefix + calc_key(expression, effect.text);
            break;
        }
        case Effect::Kind::insert:
            TRY_VOID(insert(window, self, effect));
            break;
        case Effect::Kind::remove:
            // The acting element is gone with its subtree; the effects after it have no self.
            if (TRY(remove(window, self, effect)))
                return {};
            break;
        case Effect::Kind::close_window:
            // The window goes when the act ends (the actuator still holds it); nothing runs after.
            window.closing = true;
            window.listed_ms = effect.listed_ms;
            return {};
        case Effect::Kind::select: {
            Node* node = TRY(resolve(window, self, effect.target));
            TRY_VOID(select_at(window, *node, depth + 1));
            // The selected element's own effects may have removed this one.
            if (!holds(*window.root, &self))
                return {};
            break;
        }
        }
    }
    return {};
}

std::int64_t evaluate(const std::string& expression, bool& ok)
{
    std::int64_t result = 0, number = 0;
    char op = '+';
    bool have_digit = false;
    auto apply = [&]() {
        switch (op) {
        case '+': result += number; break;
        case '-': result -= number; break;
        case '*': result *= number; break;
        case '/':
            if (number == 0)
                ok = false;
            else
                result /= number;
            break;
        }
    };
    for (char c : expression) {
        if (c >= '0' && c <= '9') {
            number = number * 10 + (c - '0');
            have_digit = true;
        } else {
            if (have_digit)
                apply();
            op = c;
            number = 0;
            have_digit = false;
        }
    }
    if (have_digit)
        apply();
    return result;
}

} // namespace

nd_core::Result<void> apply_action_effects(MockWindow& window, Node& self, const std::string& action)
{
    auto it = self.effects.find(action);
    if (it == self.effects.end())
        return {};
    // Copy: an effect may remove `self`, and with it the list being run.
    std::vector<Effect> effects = it->second;
    return run(window, self, effects, 0);
}

nd_core::Result<void> select_node(MockWindow& window, Node& node) { return select_at(window, node, 0); }

std::string apply_filter(const Node& node, std::string_view text)
{
    if (node.filter != "digits")
        return std::string(text);
    std::string out;
    for (char c : text)
        if (c >= '0' && c <= '9')
            out += c;
    return out;
}

std::string calc_key(const std::string& expression, std::string_view key)
{
    auto is_op = [](char c) { return c == '+' || c == '-' || c == '*' || c == '/'; };
    if (key == "C")
        return "0";
    if (key == "=") {
        bool ok = true;
        std::int64_t value = evaluate(expression, ok);
        return ok && expression != "Error" ? std::to_string(value) : "Error";
    }
    std::string current = expression == "Error" ? "0" : expression;
    if (key.size() == 1 && key[0] >= '0' && key[0] <= '9') {
        if (current == "0")
            return std::string(key);
        // Bounded so the integers of evaluate() never overflow.
        return current.size() >= 15 ? current : current + std::string(key);
    }
    if (key.size() == 1 && is_op(key[0])) {
        if (!current.empty() && is_op(current.back()))
            current.pop_back();
        return current + std::string(key);
    }
    return current;
}

} // namespace nd_mock
