#include "backend/mock/placeholders.h"

#include <charconv>
#include <vector>

namespace nd_mock {

namespace {

using nd_core::ErrorCode;
using nd_core::make_error;

bool parse_int(std::string_view text, std::int64_t& out)
{
    if (text.empty())
        return false;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

nd_core::Error bad(std::string_view body, std::string_view why)
{
    return make_error(ErrorCode::invalid_arguments, "placeholder {" + std::string(body) + "}: " + std::string(why));
}

// `i`, then optional `%N`, `+M` and `:W`, in that order.
nd_core::Result<std::string> expand_index(std::string_view body, std::int64_t index)
{
    std::string_view rest = body.substr(1);
    std::int64_t width = 0;
    if (auto colon = rest.find(':'); colon != std::string_view::npos) {
        if (!parse_int(rest.substr(colon + 1), width) || width < 0 || width > 12)
            return bad(body, "width must be 0..12");
        rest = rest.substr(0, colon);
    }
    std::int64_t value = index;
    std::int64_t add = 0;
    if (auto plus = rest.find('+'); plus != std::string_view::npos) {
        if (!parse_int(rest.substr(plus + 1), add))
            return bad(body, "expected a number after +");
        rest = rest.substr(0, plus);
    }
    if (!rest.empty()) {
        std::int64_t mod = 0;
        if (rest[0] != '%' || !parse_int(rest.substr(1), mod) || mod <= 0)
            return bad(body, "expected i, i%N, i+M or i%N+M with N > 0");
        value %= mod;
    }
    value += add;
    std::string digits = std::to_string(value);
    if (static_cast<std::int64_t>(digits.size()) < width)
        digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
    return digits;
}

nd_core::Result<std::string> expand_one(std::string_view body, const PlaceholderContext& ctx)
{
    if (body == "text") {
        if (!ctx.text)
            return bad(body, "only an insert with text_from has {text}");
        return *ctx.text;
    }
    if (body.starts_with("pick:")) {
        if (!ctx.index)
            return bad(body, "outside a repeat or insert");
        std::vector<std::string_view> items;
        std::string_view list = body.substr(5);
        for (std::size_t start = 0;;) {
            auto bar = list.find('|', start);
            items.push_back(list.substr(start, bar == std::string_view::npos ? list.npos : bar - start));
            if (bar == std::string_view::npos)
                break;
            start = bar + 1;
        }
        auto n = static_cast<std::int64_t>(items.size());
        return std::string(items[static_cast<std::size_t>(((*ctx.index % n) + n) % n)]);
    }
    if (!body.empty() && body[0] == 'i') {
        if (!ctx.index)
            return bad(body, "outside a repeat or insert");
        return expand_index(body, *ctx.index);
    }
    return bad(body, "unknown placeholder (use i, pick:, text, or {{ }} for braces)");
}

} // namespace

nd_core::Result<std::string> expand_placeholders(std::string_view text, const PlaceholderContext& ctx)
{
    if (text.find_first_of("{}") == std::string_view::npos)
        return std::string(text);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
            out += c;
            ++i;
            continue;
        }
        if (c == '}')
            return make_error(ErrorCode::invalid_arguments, "unmatched } in \"" + std::string(text) + "\" (write }})");
        if (c != '{') {
            out += c;
            continue;
        }
        auto close = text.find('}', i + 1);
        if (close == std::string_view::npos)
            return make_error(ErrorCode::invalid_arguments, "unclosed { in \"" + std::string(text) + "\" (write {{)");
        out += TRY(expand_one(text.substr(i + 1, close - i - 1), ctx));
        i = close;
    }
    return out;
}

} // namespace nd_mock
