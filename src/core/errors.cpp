#include "core/errors.h"

#include <array>

namespace nd_core {

namespace {

constexpr std::array TABLE = {
#define NISH_ERROR(code, disposition, suggestion) \
    ErrorInfo{ErrorCode::code, #code, Retry::disposition, suggestion},
#include "core/errors.def"
#undef NISH_ERROR
};

} // namespace

std::span<const ErrorInfo> error_table() { return TABLE; }

const ErrorInfo& error_info(ErrorCode code) { return TABLE[static_cast<std::size_t>(code)]; }

std::string_view error_name(ErrorCode code) { return error_info(code).name; }

std::string_view retry_name(Retry retry)
{
    switch (retry) {
    case Retry::safe: return "safe";
    case Retry::unsafe: return "unsafe";
    case Retry::after_refresh: return "after_refresh";
    case Retry::never: return "never";
    }
    return "never";
}

std::optional<ErrorCode> error_code_from_name(std::string_view name)
{
    for (const auto& row : TABLE)
        if (row.name == name)
            return row.code;
    return std::nullopt;
}

std::string Error::text() const
{
    const auto& info = error_info(code);
    std::string out;
    out.reserve(info.name.size() + message.size() + info.suggestion.size() + 32);
    out.append(info.name).append(": ").append(message);
    out.append(" [retry: ").append(retry_name(info.retry)).append("] ");
    out.append(info.suggestion);
    return out;
}

std::string sanitize_app_name(std::string_view in)
{
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < in.size() && chars < MAX_CANDIDATE_APP_CHARS;) {
        auto c = static_cast<unsigned char>(in[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
        if (i + len > in.size())
            break;
        if (c < 0x20 || c == 0x7F) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xF];
        } else if (len == 1 && c >= 0x80) {
            out += "\\x";
            out += "0123456789abcdef"[c >> 4];
            out += "0123456789abcdef"[c & 0xF];
        } else {
            out.append(in.substr(i, len));
        }
        i += len;
        ++chars;
    }
    return out;
}

} // namespace nd_core
