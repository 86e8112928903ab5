#pragma once

// Placeholders in fixture strings (ids, names, values, descriptions, secrets), so one template
// yields many distinct elements: {i}, {i%N}, {i+M}, {i%N+M}, each with an optional zero-padded
// width {i%60:2}; {pick:a|b|c} (item i mod count); {text} (an insert's source text); {{ and }} for
// literal braces. A placeholder without its context ({i} outside a repeat or insert) is an error,
// so a typo in a fixture is reported instead of shipped.

#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nd_mock {

struct PlaceholderContext {
    std::optional<std::int64_t> index;
    std::optional<std::string> text;
};

nd_core::Result<std::string> expand_placeholders(std::string_view, const PlaceholderContext&);

} // namespace nd_mock
