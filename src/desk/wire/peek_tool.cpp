// peek_tool: the request's top-level "tool" without decoding the rest (wire.h). A forward scan:
// keys are compared in place, values other than the tool are skipped by their first byte (strings
// to their closing quote, objects and arrays by depth, scalars to the next delimiter). Nothing is
// allocated unless a key or the name holds an escape.

#include "desk/wire/wire.h"

namespace nd_desk::wire {

namespace {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

inline void skip_space(const char*& p, const char* end)
{
    while (p < end && is_space(*p))
        ++p;
}

// At an opening quote: moves past the closing one. `escaped` tells whether a backslash occurred.
inline bool skip_string(const char*& p, const char* end, bool& escaped)
{
    ++p;
    escaped = false;
    while (p < end) {
        const char c = *p++;
        if (c == '"')
            return true;
        if (c == '\\') {
            if (p >= end)
                return false;
            escaped = true;
            ++p;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            return false;
        }
    }
    return false;
}

// Skips one value of any kind; false when it is malformed or runs past the end.
bool skip_value(const char*& p, const char* end)
{
    if (p >= end)
        return false;
    bool escaped = false;
    switch (*p) {
    case '"':
        return skip_string(p, end, escaped);
    case '{':
    case '[': {
        int depth = 0;
        while (p < end) {
            const char c = *p;
            if (c == '"') {
                if (!skip_string(p, end, escaped))
                    return false;
                continue;
            }
            if (c == '{' || c == '[')
                ++depth;
            else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    ++p;
                    return true;
                }
            }
            ++p;
        }
        return false;
    }
    default: {
        const char* start = p;
        while (p < end && *p != ',' && *p != '}' && *p != ']' && !is_space(*p))
            ++p;
        return p > start;
    }
    }
}

// The decoded text of the quoted string [begin, end) (quotes included), through the full parser.
bool decode_quoted(const char* begin, const char* end, std::string& out)
{
    auto j = nlohmann::json::parse(begin, end, nullptr, false);
    if (j.is_discarded() || !j.is_string())
        return false;
    out = j.get<std::string>();
    return true;
}

} // namespace

std::optional<std::string_view> peek_tool(std::string_view payload, std::string& scratch)
{
    const char* p = payload.data();
    const char* end = p + payload.size();
    skip_space(p, end);
    if (p >= end || *p != '{')
        return std::nullopt;
    ++p;
    for (;;) {
        skip_space(p, end);
        if (p >= end || *p != '"')
            return std::nullopt;
        const char* key_begin = p;
        bool key_escaped = false;
        if (!skip_string(p, end, key_escaped))
            return std::nullopt;
        bool is_tool = false;
        if (!key_escaped) {
            is_tool = std::string_view(key_begin + 1, static_cast<std::size_t>(p - key_begin - 2)) == "tool";
        } else {
            std::string key;
            is_tool = decode_quoted(key_begin, p, key) && key == "tool";
        }
        skip_space(p, end);
        if (p >= end || *p != ':')
            return std::nullopt;
        ++p;
        skip_space(p, end);
        if (is_tool) {
            if (p >= end || *p != '"')
                return std::nullopt;
            const char* value_begin = p;
            bool escaped = false;
            if (!skip_string(p, end, escaped))
                return std::nullopt;
            if (!escaped)
                return std::string_view(value_begin + 1, static_cast<std::size_t>(p - value_begin - 2));
            if (!decode_quoted(value_begin, p, scratch))
                return std::nullopt;
            return std::string_view(scratch);
        }
        if (!skip_value(p, end))
            return std::nullopt;
        skip_space(p, end);
        if (p >= end || *p != ',')
            return std::nullopt; // '}' ends the object without a tool
        ++p;
    }
}

} // namespace nd_desk::wire
