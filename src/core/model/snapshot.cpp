#include "core/model/snapshot.h"

#include <charconv>
#include <functional>

namespace nd_core {

namespace {

// FNV-1a, 64 bit, over each field's std::hash: cheap, good enough to tell two structures apart.
constexpr std::uint64_t FNV_OFFSET = 1469598103934665603ull;
constexpr std::uint64_t FNV_PRIME = 1099511628211ull;

// A field's bytes are hashed eight at a time (std::hash, stable within a build: the hash never
// leaves the process), then folded in with FNV-1a; so ("ab","c") and ("a","bc") differ.
void mix(std::uint64_t& h, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i) {
        h ^= (v >> (8 * i)) & 0xFF;
        h *= FNV_PRIME;
    }
}

void mix(std::uint64_t& h, std::string_view bytes)
{
    mix(h, static_cast<std::uint64_t>(std::hash<std::string_view>{}(bytes)));
    mix(h, static_cast<std::uint64_t>(bytes.size()));
}

void mix(std::uint64_t& h, std::int64_t v) { mix(h, static_cast<std::uint64_t>(v)); }

} // namespace

std::uint64_t finish_tree(std::vector<Element>& elements)
{
    const auto n = static_cast<std::int32_t>(elements.size());
    for (auto& e : elements) {
        e.child_count = 0;
        e.descendant_count = 0;
    }
    for (std::int32_t i = 0; i < n; ++i) {
        auto& e = elements[i];
        if (e.parent >= 0 && e.parent < i) {
            e.depth = elements[e.parent].depth + 1;
            ++elements[e.parent].child_count;
        } else {
            e.parent = -1;
            e.depth = 0;
        }
    }
    // Preorder: walking backwards, every element's descendants are already counted.
    for (std::int32_t i = n - 1; i >= 0; --i) {
        const auto& e = elements[i];
        if (e.parent >= 0)
            elements[e.parent].descendant_count += e.descendant_count + 1;
    }
    std::uint64_t h = FNV_OFFSET;
    for (const auto& e : elements) {
        mix(h, static_cast<std::int64_t>(e.parent));
        mix(h, e.role);
        mix(h, e.key);
        // Whether an element is on screen is structure too: a notebook page that goes away behind
        // another, or a row scrolled out of view, must not keep acting through an old token.
        mix(h, static_cast<std::int64_t>(e.states & STATE_SHOWING));
    }
    return h;
}

std::string format_token(std::string_view snapshot_id, std::int32_t index)
{
    std::string out;
    out.reserve(snapshot_id.size() + 8);
    out.append(snapshot_id);
    out.push_back(':');
    char buf[12];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, index);
    (void)ec;
    out.append(buf, end);
    return out;
}

bool parse_token(std::string_view text, ParsedToken& out)
{
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 >= text.size() || text.size() > 64)
        return false;
    auto id = text.substr(0, colon);
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return false;
    auto digits = text.substr(colon + 1);
    std::int32_t index = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || index < 0)
        return false;
    out.snapshot_id = std::string(id);
    out.index = index;
    return true;
}

} // namespace nd_core
