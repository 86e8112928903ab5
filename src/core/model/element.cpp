#include "core/model/element.h"

#include "core/model/policy.h"

#include <algorithm>
#include <array>

namespace nd_core {

namespace {

constexpr std::array<std::string_view, STATE_COUNT> NAMES = {
    "focused", "focusable", "enabled", "checked", "checkable", "selected", "selectable", "expanded",
    "expandable", "editable", "secure", "showing", "modal", "multi_line", "busy", "pressed",
    "hidden",
};

} // namespace

std::string_view state_name(std::uint32_t bit_index) { return bit_index < NAMES.size() ? NAMES[bit_index] : ""; }

std::uint32_t state_from_name(std::string_view name)
{
    for (std::uint32_t i = 0; i < NAMES.size(); ++i)
        if (NAMES[i] == name)
            return 1u << i;
    return 0;
}

std::vector<std::string_view> state_names(std::uint32_t states)
{
    std::vector<std::string_view> out;
    for (std::uint32_t i = 0; i < NAMES.size(); ++i)
        if (states & (1u << i))
            out.push_back(NAMES[i]);
    return out;
}

bool Element::secure() const { return is_secure_element(role, states); }

bool Element::action_names_pending() const
{
    return !action_names_asked && std::any_of(actions.begin(), actions.end(), [](const std::string& a) { return a.empty(); });
}

std::int32_t subtree_end(const std::vector<Element>& elements, std::int32_t at)
{
    const auto n = static_cast<std::int32_t>(elements.size());
    std::int32_t end = at + 1;
    while (end < n && elements[static_cast<std::size_t>(end)].depth > elements[static_cast<std::size_t>(at)].depth)
        ++end;
    return end;
}

} // namespace nd_core
