#include "backend/linux/x11/x11_properties.h"

#include "core/encode/utf8.h"

#include <algorithm>

namespace nd_linux {

namespace {

std::string_view value_bytes(const xcb_get_property_reply_t* reply)
{
    if (!reply || reply->format != 8)
        return {};
    auto length = xcb_get_property_value_length(reply);
    if (length <= 0)
        return {};
    return {static_cast<const char*>(xcb_get_property_value(reply)), static_cast<std::size_t>(length)};
}

// Text properties may carry a trailing NUL (or several values separated by NULs); the first value
// is the text.
std::string_view first_value(std::string_view bytes)
{
    auto nul = bytes.find('\0');
    return nul == std::string_view::npos ? bytes : bytes.substr(0, nul);
}

} // namespace

std::string sanitize_utf8(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        auto n = nd_core::utf8_sequence_length(bytes, i);
        if (n == 0) {
            nd_core::append_utf8(out, 0xFFFD);
            ++i;
            continue;
        }
        out.append(bytes.substr(i, n));
        i += n;
    }
    return out;
}

std::string property_text(const xcb_get_property_reply_t* reply, xcb_atom_t utf8_string_atom)
{
    auto bytes = first_value(value_bytes(reply));
    if (bytes.empty())
        return {};
    if (utf8_string_atom != XCB_ATOM_NONE && reply->type == utf8_string_atom)
        return sanitize_utf8(bytes);
    std::string out;
    out.reserve(bytes.size());
    for (unsigned char c : bytes) {
        if (reply->type == XCB_ATOM_STRING)
            nd_core::append_utf8(out, c); // ISO 8859-1 maps one to one onto U+0000..U+00FF
        else
            nd_core::append_utf8(out, c < 0x80 ? c : 0xFFFD);
    }
    return out;
}

std::vector<std::uint32_t> property_u32(const xcb_get_property_reply_t* reply)
{
    if (!reply || reply->format != 32)
        return {};
    auto length = xcb_get_property_value_length(reply);
    if (length <= 0)
        return {};
    const auto* values = static_cast<const std::uint32_t*>(xcb_get_property_value(reply));
    return {values, values + static_cast<std::size_t>(length) / 4};
}

std::optional<nd_core::WindowInfo::Extents> property_extents(const xcb_get_property_reply_t* reply)
{
    const auto e = property_u32(reply);
    if (e.size() != 4)
        return std::nullopt;
    auto clip = [](std::uint32_t v) { return static_cast<std::int32_t>(std::min<std::uint32_t>(v, 512)); };
    return nd_core::WindowInfo::Extents{clip(e[0]), clip(e[1]), clip(e[2]), clip(e[3])};
}

WmClass property_wm_class(const xcb_get_property_reply_t* reply)
{
    auto bytes = value_bytes(reply);
    WmClass out;
    auto nul = bytes.find('\0');
    out.instance = sanitize_utf8(bytes.substr(0, nul));
    if (nul != std::string_view::npos)
        out.class_name = sanitize_utf8(first_value(bytes.substr(nul + 1)));
    return out;
}

} // namespace nd_linux
