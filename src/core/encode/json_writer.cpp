#include "core/encode/json_writer.h"

#include "core/encode/utf8.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace nd_core {


namespace {

// Whether none of eight bytes needs escaping or a UTF-8 check: no control character, quote,
// backslash or byte from 0x80 up (the usual bit tricks for "has a byte below n / equal to c").
inline bool plain_eight(const char* p)
{
    constexpr std::uint64_t ONES = 0x0101010101010101ull, HIGH = 0x8080808080808080ull;
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    const std::uint64_t control = (v - ONES * 0x20) & ~v & HIGH;
    const std::uint64_t q = v ^ (ONES * '"');
    const std::uint64_t quote = (q - ONES) & ~q & HIGH;
    const std::uint64_t b = v ^ (ONES * '\\');
    const std::uint64_t backslash = (b - ONES) & ~b & HIGH;
    return ((v & HIGH) | control | quote | backslash) == 0;
}

} // namespace

void append_json_string(std::string& out, std::string_view s)
{
    static constexpr char HEX[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t i = 0;
    while (i < s.size()) {
        // Copy the longest run that needs no escaping in one append.
        std::size_t run = i;
        while (run + 8 <= s.size() && plain_eight(s.data() + run))
            run += 8;
        while (run < s.size()) {
            auto c = static_cast<unsigned char>(s[run]);
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80)
                break;
            ++run;
        }
        out.append(s.data() + i, run - i);
        i = run;
        if (i >= s.size())
            break;
        auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            auto len = utf8_sequence_length(s, i);
            if (len == 0) {
                out.append("\xEF\xBF\xBD");
                ++i;
            } else {
                out.append(s.data() + i, len);
                i += len;
            }
            continue;
        }
        switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        default:
            out.append("\\u00");
            out.push_back(HEX[c >> 4]);
            out.push_back(HEX[c & 0xF]);
        }
        ++i;
    }
    out.push_back('"');
}

void JsonWriter::separator()
{
    if (m_after_key) {
        m_after_key = false;
        return;
    }
    if (!m_has_value.empty()) {
        if (m_has_value.back())
            m_out.push_back(',');
        m_has_value.back() = true;
    }
}

JsonWriter& JsonWriter::begin_object()
{
    separator();
    m_out.push_back('{');
    m_has_value.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::end_object()
{
    m_out.push_back('}');
    m_has_value.pop_back();
    return *this;
}

JsonWriter& JsonWriter::begin_array()
{
    separator();
    m_out.push_back('[');
    m_has_value.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::end_array()
{
    m_out.push_back(']');
    m_has_value.pop_back();
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k)
{
    separator();
    append_json_string(m_out, k);
    m_out.push_back(':');
    m_after_key = true;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view v)
{
    separator();
    append_json_string(m_out, v);
    return *this;
}

JsonWriter& JsonWriter::number(std::int64_t v)
{
    separator();
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    m_out.append(buf, end);
    return *this;
}

JsonWriter& JsonWriter::number(double v)
{
    separator();
    if (!std::isfinite(v)) {
        m_out.append("null");
        return *this;
    }
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    m_out.append(buf, end);
    return *this;
}

JsonWriter& JsonWriter::boolean(bool v)
{
    separator();
    m_out.append(v ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::null()
{
    separator();
    m_out.append("null");
    return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json)
{
    separator();
    m_out.append(json);
    return *this;
}

} // namespace nd_core
