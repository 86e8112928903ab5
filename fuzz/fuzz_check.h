#pragma once

// What the fuzz targets share: a check that aborts (libFuzzer then keeps the input as a crash),
// and the error table's names, which every error a target sees must come from.

#include "core/errors.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace nd_fuzz {

inline void require(bool ok)
{
    if (!ok)
        std::abort();
}

inline bool is_table_code(std::string_view name) { return nd_core::error_code_from_name(name).has_value(); }

// The contract's error envelope (§2.1): {"ok": false, "error": {code, message, disposition: {retry},
// suggestion}} with a code from the table and its own disposition and suggestion.
inline void require_envelope(const nlohmann::json& structured)
{
    require(structured.is_object() && structured.value("ok", true) == false);
    const auto& error = structured.at("error");
    require(error.is_object() && error.contains("code") && error["code"].is_string());
    const auto code = nd_core::error_code_from_name(error["code"].get<std::string>());
    require(code.has_value());
    const auto& info = nd_core::error_info(*code);
    require(error.contains("message") && error["message"].is_string());
    require(error.value("suggestion", "") == info.suggestion);
    require(error.at("disposition").value("retry", "") == nd_core::retry_name(info.retry));
}

// A line the server would write: one JSON-RPC object, newline-terminated, no newline inside.
inline nlohmann::json written(const std::string& line)
{
    require(!line.empty() && line.back() == '\n' && line.find('\n') == line.size() - 1);
    auto message = nlohmann::json::parse(line, nullptr, false);
    require(message.is_object() && message.value("jsonrpc", "") == "2.0");
    return message;
}

// A response line: the request's id (when known) and exactly one of an object result or an error
// with an integer code and a message. Returns the message.
inline nlohmann::json check_response(const std::string& line, const nlohmann::json* id)
{
    auto message = written(line);
    require(message.contains("id"));
    if (id)
        require(message["id"] == *id);
    require(message.contains("result") != message.contains("error"));
    if (message.contains("error")) {
        const auto& error = message["error"];
        require(error.is_object() && error.contains("code") && error["code"].is_number_integer());
        require(error.contains("message") && error["message"].is_string());
    } else {
        require(message["result"].is_object());
    }
    return message;
}

// The input as text.
inline std::string_view text_of(const std::uint8_t* data, std::size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

} // namespace nd_fuzz
