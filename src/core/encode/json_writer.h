#pragma once

// A streaming JSON writer: appends straight into one string, no intermediate tree. The tree result
// path (thousands of rows) uses it; small results may use nlohmann::json and append its dump with
// raw(). Strings are escaped per RFC 8259; invalid UTF-8 becomes U+FFFD so output is always valid.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

class JsonWriter {
public:
    explicit JsonWriter(std::string& out) : m_out(out) {}

    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view);
    JsonWriter& string(std::string_view);
    JsonWriter& number(std::int64_t);
    JsonWriter& number(double);
    JsonWriter& boolean(bool);
    JsonWriter& null();
    // Inserts an already-serialized JSON value.
    JsonWriter& raw(std::string_view json);
    // Bytes written so far into the output (with what it held before).
    std::size_t size() const { return m_out.size(); }

    // Shorthands for a key and its value.
    JsonWriter& field(std::string_view k, std::string_view v) { return key(k).string(v); }
    JsonWriter& field(std::string_view k, const char* v) { return key(k).string(v); }
    JsonWriter& field(std::string_view k, std::int64_t v) { return key(k).number(v); }
    JsonWriter& field(std::string_view k, int v) { return key(k).number(static_cast<std::int64_t>(v)); }
    JsonWriter& field(std::string_view k, bool v) { return key(k).boolean(v); }

private:
    void separator();

    std::string& m_out;
    // One entry per open container: true once it holds a value.
    std::vector<bool> m_has_value;
    bool m_after_key = false;
};

// Appends s as a quoted, escaped JSON string.
void append_json_string(std::string& out, std::string_view s);

} // namespace nd_core
