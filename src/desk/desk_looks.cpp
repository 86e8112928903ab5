#include "desk/desk_looks.h"

namespace nd_desk {

Looks looks_of(const nd_core::Element& e)
{
    return {e.states & ~static_cast<std::uint32_t>(nd_core::STATE_FOCUSED), e.name, e.value};
}

std::string looks_change(const Looks& before, const Looks& after)
{
    std::string out;
    for (std::uint32_t bit = 0; bit < nd_core::STATE_COUNT; ++bit) {
        const auto mask = 1u << bit;
        if ((before.states & mask) == (after.states & mask))
            continue;
        out += (out.empty() ? "" : ", ") + std::string((after.states & mask) ? "now " : "no longer ") +
               std::string(nd_core::state_name(bit));
    }
    if (after.name != before.name)
        out += std::string(out.empty() ? "" : ", ") + "its name changed";
    if (after.value != before.value)
        out += std::string(out.empty() ? "" : ", ") + "its value changed";
    return out;
}

} // namespace nd_desk
