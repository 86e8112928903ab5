#include "driver/tool.h"

namespace nd_driver {

bool Args::has(std::string_view name) const { return m_values.contains(std::string(name)); }

std::optional<std::string> Args::string(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_string())
        return std::nullopt;
    return it->get<std::string>();
}

std::optional<std::int64_t> Args::integer(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

std::optional<bool> Args::boolean(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_boolean())
        return std::nullopt;
    return it->get<bool>();
}

std::optional<std::vector<std::string>> Args::strings(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_array())
        return std::nullopt;
    return it->get<std::vector<std::string>>();
}

const nlohmann::json* Args::object(std::string_view name) const
{
    auto it = m_values.find(std::string(name));
    if (it == m_values.end() || !it->is_object())
        return nullptr;
    return &*it;
}

ToolOutput json_output(const nlohmann::json& structured, std::string text)
{
    return ToolOutput{false, structured.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), std::move(text), {}};
}

} // namespace nd_driver
