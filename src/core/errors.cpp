#include "core/errors.h"

#include "core/encode/utf8.h"

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
    static constexpr char HEX[] = "0123456789abcdef";
    auto escape = [&](std::string& out, unsigned value, bool unicode) {
        out += unicode ? "\\u00" : "\\x";
        out += HEX[(value >> 4) & 0xF];
        out += HEX[value & 0xF];
    };
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < in.size() && chars < MAX_CANDIDATE_APP_CHARS; ++chars) {
        char32_t cp = 0;
        auto len = utf8_sequence_length(in, i, &cp);
        if (len == 0) {
            // A byte that is not valid UTF-8 is shown as \xNN and counts as one character.
            escape(out, static_cast<unsigned char>(in[i]), false);
            ++i;
            continue;
        }
        if (cp < 0x20 || cp == 0x7F)
            escape(out, static_cast<unsigned>(cp), false);
        else if (cp >= 0x80 && cp <= 0x9F)
            escape(out, static_cast<unsigned>(cp), true); // C1 controls
        else
            out.append(in.substr(i, len));
        i += len;
    }
    return out;
}

} // namespace nd_core
