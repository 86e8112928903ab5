#include "desk/vision/typed_count.h"

#include "core/encode/utf8.h"
#include "desk/desk.h"

#include <algorithm>
#include <string>
#include <string_view>

namespace nd_desk {

namespace {

std::u32string decode(const std::string& s)
{
    std::u32string out;
    for (std::size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        const auto len = nd_core::utf8_sequence_length(s, i, &cp);
        if (len == 0) {
            ++i; // an app's text is untrusted: skip a bad byte
            continue;
        }
        out.push_back(cp);
        i += len;
    }
    return out;
}

// Line ends as a field may store them: \r\n and \r typed become \n.
std::u32string normalise(std::u32string s)
{
    std::u32string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == U'\r') {
            out.push_back(U'\n');
            if (i + 1 < s.size() && s[i + 1] == U'\n')
                ++i;
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

} // namespace

std::int64_t count_characters(const std::string& text)
{
    return static_cast<std::int64_t>(normalise(decode(text)).size());
}

std::int64_t landed_characters(const std::string& before_text, const std::string& after_text, const std::string& text)
{
    const auto before = normalise(decode(before_text)), after = normalise(decode(after_text)), typed = normalise(decode(text));
    auto common = [&](std::u32string_view part) {
        std::size_t n = 0;
        while (n < part.size() && n < typed.size() && part[n] == typed[n])
            ++n;
        return static_cast<std::int64_t>(n);
    };
    std::size_t start = 0;
    while (start < before.size() && start < after.size() && before[start] == after[start])
        ++start;
    std::size_t end = 0;
    while (end < before.size() - start && end < after.size() - start
        && before[before.size() - 1 - end] == after[after.size() - 1 - end])
        ++end;
    // What changed between the common start and the common end (a selection the typing replaced
    // is gone from it).
    std::int64_t best = common(std::u32string_view(after).substr(start, after.size() - start - end));
    // A pure insertion at the caret may sit left of where the common start ends ("ba" typed into
    // "a|b" reads "abab"): try each insertion point that keeps the text on both sides.
    if (after.size() >= before.size()) {
        const auto grown = after.size() - before.size();
        // after = before[:k] + inserted + before[k:] holds for k up to `start` (the common start) and
        // from before.size() - suffix (the common end, unbounded by the start) on.
        std::size_t suffix = 0;
        while (suffix < before.size() && before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
            ++suffix;
        const auto lowest = std::max(before.size() - suffix, start > grown ? start - grown : std::size_t{0});
        for (auto k = lowest; k <= start; ++k)
            best = std::max(best, common(std::u32string_view(after).substr(k, grown)));
    }
    return best;
}

std::optional<FocusedField> focused_text(Desk& desk, const nd_core::WindowInfo& window)
{
    auto snap = desk.read(window);
    if (!snap)
        return std::nullopt;
    for (const auto& e : (*snap)->elements) {
        if (!e.is(nd_core::STATE_FOCUSED) || e.secure() || !e.is(nd_core::STATE_EDITABLE))
            continue;
        auto lock = desk.lock_backend();
        auto* actuator = desk.backend().actuator();
        if (!actuator)
            return std::nullopt;
        auto value = actuator->read_value((*snap)->window, e);
        if (!value)
            return std::nullopt;
        return FocusedField{(*snap)->window, e, std::move(*value)};
    }
    return std::nullopt;
}

TypedCount landed(Desk& desk, const FocusedField& field, const std::string& text, std::int64_t sent)
{
    const auto total = count_characters(text);
    nd_core::Result<std::string> after = nd_core::make_error(nd_core::ErrorCode::backend_unavailable, "no actuator");
    {
        auto lock = desk.lock_backend();
        if (auto* actuator = desk.backend().actuator())
            after = actuator->read_value(field.window, field.element);
    }
    if (!after)
        return {sent, total, true};
    return {std::min(sent, landed_characters(field.before, *after, text)), total, false};
}

} // namespace nd_desk
