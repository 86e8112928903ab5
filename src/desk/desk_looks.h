#pragma once

// What an act may change on an element itself, to tell the act's effect by when no other read
// back exists (background click and drag, desk_background.h).

#include "core/model/element.h"

#include <cstdint>
#include <string>

namespace nd_desk {

struct Looks {
    std::uint32_t states = 0;
    std::string name, value;
    bool operator==(const Looks&) const = default;
};

// The element's states (its focus left out: the focus may move with any act, which is no sign of
// the act's own effect), name and value.
Looks looks_of(const nd_core::Element&);

// What differs, in words ("now checked, its value changed"); empty when nothing does.
std::string looks_change(const Looks& before, const Looks& after);

} // namespace nd_desk
