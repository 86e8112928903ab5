#pragma once

// Small element trees for the core's unit tests (snapshot, views, view_render, snapshot_store,
// diff). A test adds elements in preorder, naming each one's parent; the builder gives each a
// distinct backend key, and snapshot() runs finish_tree() as a backend read would.

#include "core/backend/tree_reader.h"
#include "core/model/snapshot.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nd_test {

inline constexpr std::uint32_t PLAIN = nd_core::STATE_ENABLED | nd_core::STATE_SHOWING;

class TreeBuilder {
public:
    // Appends an element under `parent` (-1 for the root) and returns its index. Calls must come in
    // preorder: a parent before its children, a subtree complete before its next sibling.
    std::int32_t add(std::int32_t parent, std::string role, std::string name = {}, std::uint32_t states = PLAIN)
    {
        nd_core::Element e;
        e.role = std::move(role);
        e.name = std::move(name);
        e.states = states;
        e.parent = parent;
        e.key = "k" + std::to_string(m_elements.size());
        m_elements.push_back(std::move(e));
        return static_cast<std::int32_t>(m_elements.size() - 1);
    }

    nd_core::Element& at(std::int32_t index) { return m_elements.at(static_cast<std::size_t>(index)); }

    std::vector<nd_core::Element> elements() const { return m_elements; }

    nd_core::RawTree raw() const { return nd_core::RawTree{m_elements, false}; }

    nd_core::Snapshot snapshot(std::string id = "s1") const
    {
        nd_core::Snapshot s;
        s.id = std::move(id);
        s.window.window_id = 7;
        s.window.pid = 70;
        s.window.app = "Test";
        s.elements = m_elements;
        s.structure_hash = nd_core::finish_tree(s.elements);
        return s;
    }

private:
    std::vector<nd_core::Element> m_elements;
};

// True when `s` is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
inline bool valid_utf8(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        auto b0 = static_cast<unsigned char>(s[i]);
        std::size_t len = b0 < 0x80 ? 1 : (b0 & 0xE0) == 0xC0 ? 2 : (b0 & 0xF0) == 0xE0 ? 3 : (b0 & 0xF8) == 0xF0 ? 4 : 0;
        if (len == 0 || i + len > s.size())
            return false;
        std::uint32_t cp = len == 1 ? b0 : b0 & (0x7F >> len);
        for (std::size_t k = 1; k < len; ++k) {
            auto b = static_cast<unsigned char>(s[i + k]);
            if ((b & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (b & 0x3F);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF
            || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

// Counts the characters (code points) of valid UTF-8 text.
inline std::size_t utf8_length(std::string_view s)
{
    std::size_t n = 0;
    for (char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
            ++n;
    return n;
}

} // namespace nd_test
