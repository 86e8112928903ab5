#include "backend/linux/atspi/atspi_text_lag.h"

#include "core/encode/utf8.h"

#include <string>

namespace nd_linux {

namespace {

// The byte offset of character `n` of `s` (its size when `s` is shorter), an invalid byte
// counting as one character as nd_core::utf8_length counts it.
std::size_t byte_of_char(std::string_view s, std::size_t n)
{
    std::size_t i = 0;
    for (; n > 0 && i < s.size(); --n) {
        const std::size_t len = nd_core::utf8_sequence_length(s, i);
        i += len == 0 ? 1 : len;
    }
    return i;
}

} // namespace

bool inserted_short_of_the_end(std::string_view before, std::string_view after, std::int32_t position,
                               std::string_view text)
{
    if (position < 0 || text.empty())
        return false;
    const auto at = static_cast<std::size_t>(position);
    if (nd_core::utf8_length(before) != at)
        return false; // inserted at a caret, not at the reported end
    if (nd_core::utf8_length(after) <= at + nd_core::utf8_length(text))
        return false; // nothing after the inserted text
    const std::size_t start = byte_of_char(after, at);
    return after.substr(0, start) == before && after.substr(start, text.size()) == text;
}

} // namespace nd_linux
