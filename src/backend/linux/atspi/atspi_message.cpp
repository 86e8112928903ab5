#include "backend/linux/atspi/atspi_message.h"

#include <charconv>

#include "backend/linux/atspi/atspi_names.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

namespace nd_linux {

namespace {

bool valid_bus_name(std::string_view name)
{
    if (name.empty() || name.size() > 255)
        return false;
    for (char c : name) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == ':' || c == '_' || c == '-';
        if (!ok)
            return false;
    }
    return true;
}

// D-Bus's rule for object paths ("/" or "/" then elements of [A-Za-z0-9_] joined by single
// slashes), on a view: no copy, no terminator.
bool valid_object_path(std::string_view path)
{
    if (path.empty() || path.front() != '/')
        return false;
    if (path.size() == 1)
        return true;
    if (path.back() == '/')
        return false;
    char before = '/';
    for (std::size_t i = 1; i < path.size(); ++i) {
        const char c = path[i];
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                        (c == '/' && before != '/');
        if (!ok)
            return false;
        before = c;
    }
    return true;
}

} // namespace

bool ObjectRef::null() const { return bus.empty() || path.empty() || path == NULL_PATH; }

bool is_object_key(std::string_view key)
{
    const auto bar = key.find('|');
    return bar != std::string_view::npos && valid_bus_name(key.substr(0, bar)) && valid_object_path(key.substr(bar + 1));
}

std::optional<ObjectRef> parse_key(std::string_view key)
{
    if (!is_object_key(key))
        return std::nullopt;
    const auto bar = key.find('|');
    return ObjectRef{std::string(key.substr(0, bar)), std::string(key.substr(bar + 1))};
}

std::string child_key(const ObjectRef& container, std::int32_t row, std::int32_t column)
{
    std::string key = container.key() + "|" + std::to_string(row);
    if (column >= 0)
        key += "," + std::to_string(column);
    return key;
}

std::string column_header_key(const ObjectRef& table, std::int32_t column)
{
    return table.key() + "|h" + std::to_string(column);
}

std::string positional_key(const ObjectRef& view, std::int32_t index, std::string_view name)
{
    std::uint64_t h = 1469598103934665603ull; // FNV-1a
    for (unsigned char c : name) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return child_key(view, index, -1) + "~" + hex;
}

std::optional<ChildKey> parse_child_key(std::string_view key)
{
    auto bar = key.rfind('|');
    if (bar == std::string_view::npos)
        return std::nullopt;
    auto container = parse_key(key.substr(0, bar));
    if (!container)
        return std::nullopt;
    ChildKey out{*container};
    auto pos = key.substr(bar + 1);
    pos = pos.substr(0, pos.find('~')); // a positional key's name hash
    auto comma = pos.find(',');
    auto number = [](std::string_view text, std::int32_t& v) {
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        return ec == std::errc() && end == text.data() + text.size() && v >= 0;
    };
    if (!pos.empty() && pos.front() == 'h') {
        out.column_header = true;
        if (comma != std::string_view::npos || !number(pos.substr(1), out.column))
            return std::nullopt;
        return out;
    }
    if (!number(pos.substr(0, comma), out.row))
        return std::nullopt;
    if (comma != std::string_view::npos && !number(pos.substr(comma + 1), out.column))
        return std::nullopt;
    return out;
}

std::size_t ObjectRefHash::operator()(const ObjectRef& r) const
{
    std::size_t h = std::hash<std::string>{}(r.bus);
    return h ^ (std::hash<std::string>{}(r.path) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

std::string cut_utf8(std::string_view s, std::size_t max)
{
    if (s.size() <= max)
        return std::string(s);
    std::size_t end = max;
    // Step back over continuation bytes so a character is never split.
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80)
        --end;
    return std::string(s.substr(0, end));
}

int read_ref(sd_bus_message* m, ObjectRef& out)
{
    const char* bus = nullptr;
    const char* path = nullptr;
    int r = sd_bus_message_read(m, "(so)", &bus, &path);
    if (r < 0)
        return r;
    out.bus = bus ? bus : "";
    out.path = path ? path : "";
    return r;
}

int read_refs(sd_bus_message* m, std::vector<ObjectRef>& out)
{
    int r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, "(so)");
    if (r < 0)
        return r;
    for (;;) {
        ObjectRef ref;
        r = read_ref(m, ref);
        if (r < 0)
            return r;
        if (r == 0)
            break;
        out.push_back(std::move(ref));
    }
    return sd_bus_message_exit_container(m);
}

int read_states(sd_bus_message* m, AtspiStates& out)
{
    const void* data = nullptr;
    std::size_t size = 0;
    int r = sd_bus_message_read_array(m, 'u', &data, &size);
    if (r < 0)
        return r;
    std::uint32_t words[2] = {0, 0};
    std::memcpy(words, data, std::min(size, sizeof words));
    out.low = words[0];
    out.high = words[1];
    return 1;
}

int read_interfaces(sd_bus_message* m, std::uint32_t& bits)
{
    int r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, "s");
    if (r < 0)
        return r;
    bits = 0;
    const char* name = nullptr;
    while ((r = sd_bus_message_read_basic(m, 's', &name)) > 0)
        bits |= interface_bit(name);
    if (r < 0)
        return r;
    return sd_bus_message_exit_container(m);
}

int read_string(sd_bus_message* m, std::string& out)
{
    const char* s = nullptr;
    int r = sd_bus_message_read_basic(m, 's', &s);
    if (r < 0)
        return r;
    out = cut_utf8(s ? s : "", MAX_TEXT_BYTES);
    return r;
}

int read_attribute(sd_bus_message* m, std::string_view key, std::string& out)
{
    int r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, "{ss}");
    if (r < 0)
        return r;
    while ((r = sd_bus_message_enter_container(m, SD_BUS_TYPE_DICT_ENTRY, "ss")) > 0) {
        const char* k = nullptr;
        const char* v = nullptr;
        r = sd_bus_message_read(m, "ss", &k, &v);
        if (r < 0)
            return r;
        if (k && v && key == k)
            out = cut_utf8(v, MAX_TEXT_BYTES);
        r = sd_bus_message_exit_container(m);
        if (r < 0)
            return r;
    }
    if (r < 0)
        return r;
    return sd_bus_message_exit_container(m);
}

int read_string_variant(sd_bus_message* m, std::string& out)
{
    int r = sd_bus_message_enter_container(m, SD_BUS_TYPE_VARIANT, "s");
    if (r < 0)
        return r;
    if ((r = read_string(m, out)) < 0)
        return r;
    return sd_bus_message_exit_container(m);
}

int read_accessible_props(sd_bus_message* m, AccessibleProps& out, const OtherProperty& other)
{
    int r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, "{sv}");
    if (r < 0)
        return r;
    while ((r = sd_bus_message_enter_container(m, SD_BUS_TYPE_DICT_ENTRY, "sv")) > 0) {
        const char* key = nullptr;
        if ((r = sd_bus_message_read_basic(m, 's', &key)) < 0)
            return r;
        std::string_view k = key ? key : "";
        if (k == "Name" || k == "Description") {
            std::string value;
            if ((r = sd_bus_message_enter_container(m, SD_BUS_TYPE_VARIANT, "s")) < 0)
                return r;
            if ((r = read_string(m, value)) < 0)
                return r;
            if ((r = sd_bus_message_exit_container(m)) < 0)
                return r;
            (k == "Name" ? out.name : out.description) = std::move(value);
        } else if (k == "ChildCount") {
            if ((r = sd_bus_message_read(m, "v", "i", &out.child_count)) < 0)
                return r;
        } else if ((r = other ? other(k, m) : 0) < 0) {
            return r;
        } else if (r == 0 && (r = sd_bus_message_skip(m, "v")) < 0) {
            return r;
        }
        if ((r = sd_bus_message_exit_container(m)) < 0)
            return r;
    }
    if (r < 0)
        return r;
    return sd_bus_message_exit_container(m);
}

int read_action_names(sd_bus_message* m, std::vector<std::string>& out)
{
    int r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, "(sss)");
    if (r < 0)
        return r;
    const char* name = nullptr;
    const char* description = nullptr;
    const char* keys = nullptr;
    while ((r = sd_bus_message_read(m, "(sss)", &name, &description, &keys)) > 0) {
        std::string_view n = name ? name : "";
        // Gecko answers every field with the key binding (";;", GTK's "mnemonic;sequence;shortcut"
        // with all three empty): that is no name. Left empty, the real one is asked of GetName(i),
        // as for Chromium's empty localized names.
        if ((keys && n == keys) || n.find_first_not_of(';') == std::string_view::npos)
            n = {};
        out.push_back(cut_utf8(n, 256));
    }
    if (r < 0)
        return r;
    return sd_bus_message_exit_container(m);
}

int read_extents(sd_bus_message* m, nd_core::Frame& out)
{
    return sd_bus_message_read(m, "(iiii)", &out.x, &out.y, &out.w, &out.h);
}

int read_variant_double(sd_bus_message* m, double& out)
{
    char type = 0;
    const char* contents = nullptr;
    int r = sd_bus_message_peek_type(m, &type, &contents);
    if (r < 0)
        return r;
    if (type != SD_BUS_TYPE_VARIANT || contents == nullptr || std::strlen(contents) != 1)
        return -EBADMSG;
    char t = contents[0];
    if ((r = sd_bus_message_enter_container(m, SD_BUS_TYPE_VARIANT, contents)) < 0)
        return r;
    union {
        double d;
        std::int32_t i;
        std::uint32_t u;
        std::int64_t x;
        std::uint64_t t;
    } v{};
    switch (t) {
    case 'd': r = sd_bus_message_read_basic(m, 'd', &v.d); out = v.d; break;
    case 'i': r = sd_bus_message_read_basic(m, 'i', &v.i); out = v.i; break;
    case 'u': r = sd_bus_message_read_basic(m, 'u', &v.u); out = v.u; break;
    case 'x': r = sd_bus_message_read_basic(m, 'x', &v.x); out = static_cast<double>(v.x); break;
    case 't': r = sd_bus_message_read_basic(m, 't', &v.t); out = static_cast<double>(v.t); break;
    default: return -EBADMSG;
    }
    if (r < 0)
        return r;
    return sd_bus_message_exit_container(m);
}

std::string format_number(double value)
{
    if (!std::isfinite(value))
        return "";
    if (value == 0)
        value = 0; // no "-0"
    char buf[64];
    if (std::fabs(value) < 1e15 && value == std::floor(value))
        std::snprintf(buf, sizeof buf, "%.0f", value);
    else
        std::snprintf(buf, sizeof buf, "%.6g", value);
    return buf;
}

} // namespace nd_linux
