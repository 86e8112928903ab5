#pragma once

// Strict UTF-8: one decoder for every place that walks text by character (JSON escaping, app name
// cuts, label cuts, typing). Overlong forms, surrogates and code points past U+10FFFF are invalid.

#include <cstddef>
#include <string>
#include <string_view>

namespace nd_core {

// Length of the valid sequence at s[i] (1 to 4), or 0 when the bytes there are not valid UTF-8.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i, char32_t* code_point = nullptr);
bool valid_utf8(std::string_view s);
// Appends the UTF-8 encoding of a code point (1 to 4 bytes); the caller passes a valid one.
void append_utf8(std::string& out, char32_t code_point);
// The number of characters (code points) in `s`, an invalid byte counting as one.
std::size_t utf8_length(std::string_view s);
// The text cut to at most `cap` bytes at a character boundary (whole when it fits).
std::string utf8_cut(std::string text, std::size_t cap);

} // namespace nd_core
