#pragma once

// "typed N of M" (docs/vision.md): how many characters of a typed text landed in the focused field,
// read back from the field rather than counted as sent. The field's text before and after is
// compared: the part that changed (what is left between their common start and common end) is
// what the typing inserted, and N is how much of the text it begins with. A field whose text
// cannot be read (no focused text element, a terminal, an app that hides it) counts the
// characters sent, and says so (unverified).

#include "core/model/element.h"

#include <cstdint>
#include <optional>
#include <string>

namespace nd_desk {

class Desk;

struct FocusedField {
    nd_core::WindowInfo window;
    nd_core::Element element;
    std::string before;
};

struct TypedCount {
    std::int64_t landed = 0;
    std::int64_t total = 0;
    bool unverified = false;
};

// The focused element of `window` and its text now, when it is a field whose text reads back.
std::optional<FocusedField> focused_text(Desk&, const nd_core::WindowInfo& window);

// The count after typing `text`, of which `sent` characters were sent.
TypedCount landed(Desk&, const FocusedField&, const std::string& text, std::int64_t sent);

// Pure: the characters of `text` that `after` shows inserted relative to `before`.
std::int64_t landed_characters(const std::string& before, const std::string& after, const std::string& text);

// The characters (code points) of valid UTF-8 text, a \r\n counted once (a field stores one line end).
std::int64_t count_characters(const std::string& text);

} // namespace nd_desk
