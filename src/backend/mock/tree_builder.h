#pragma once

// Builds element nodes from fixture JSON (docs/mock.md, "Elements"): expands {"repeat": ...}
// blocks and {"use": "<template>"} references, fills placeholders, checks every field and gives
// each element its key. Errors name the JSON path of the bad element; the loader adds the file.

#include "backend/mock/mock_model.h"
#include "backend/mock/placeholders.h"
#include "core/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <set>
#include <string>

namespace nd_mock {

class TreeBuilder {
public:
    // `templates` is the app's "templates" object (may be null). `keys` holds the keys already in
    // use in the window and receives the new ones; `next_auto` numbers elements without an id.
    TreeBuilder(const nlohmann::json* templates, std::set<std::string>& keys, std::int64_t& next_auto)
        : m_templates(templates), m_keys(keys), m_next_auto(next_auto)
    {
    }

    nd_core::Result<std::unique_ptr<Node>> build(const nlohmann::json& element, const PlaceholderContext&,
                                                 const std::string& path);

private:
    nd_core::Result<std::unique_ptr<Node>> build_node(const nlohmann::json& element, const PlaceholderContext&,
                                                      const std::string& path, int use_depth);
    nd_core::Result<void> build_children(const nlohmann::json& children, Node& parent, const PlaceholderContext&,
                                         const std::string& path, int use_depth);
    nd_core::Result<nlohmann::json> resolve_use(const nlohmann::json& element, const std::string& path, int use_depth);
    nd_core::Result<void> fill_fields(Node&, const nlohmann::json& element, const PlaceholderContext&,
                                      const std::string& path);
    nd_core::Result<void> parse_effects(Node&, const nlohmann::json& effects, const std::string& path);
    nd_core::Result<Effect> parse_effect(const Node&, const nlohmann::json& effect, const std::string& path);

    const nlohmann::json* m_templates;
    std::set<std::string>& m_keys;
    std::int64_t& m_next_auto;
    int m_nesting = 0; // elements being built, outermost to innermost
};

// Parses a frame: [x, y, w, h] or {"x":..,"y":..,"w":..,"h":..}, w and h not negative.
nd_core::Result<nd_core::Frame> parse_frame(const nlohmann::json&, const std::string& path);

} // namespace nd_mock
