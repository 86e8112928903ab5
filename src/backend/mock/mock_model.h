#pragma once

#include <chrono>

// The mock desktop's live model: apps, windows and element nodes, built from fixture files
// (fixture_loader.h) and changed by scripted effects (effects.h) and test hooks. Nodes own their
// children; a node's `key` is unique within its window and becomes Element::key. Nothing here is
// thread-safe on its own: MockDesktop guards the whole model with one mutex.

#include "core/model/element.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nd_mock {

// One scripted effect of an action (docs/mock.md, "Effects").
struct Effect {
    enum class Kind : std::uint8_t {
        toggle_state,
        add_state,
        remove_state,
        set_name,
        set_value,
        insert,
        remove,
        select,
        calc,
        close_window,
    };
    Kind kind = Kind::set_name;
    std::string target = "self"; // "self", "parent" or an element id of the same window
    std::uint32_t state = 0;     // toggle_state / add_state / remove_state
    std::string text;            // set_name / set_value text, calc key
    std::string prefix;          // calc: the fixed text before the display's expression
    // insert: the element (fixture syntax) to build, placed under `target`.
    nlohmann::json subtree;
    std::optional<std::int32_t> position; // insert: child index; none appends
    std::int32_t step_x = 0;              // insert: frame offset per existing child of the target
    std::int32_t step_y = 0;
    std::string text_from;    // insert: element id whose value fills the {text} placeholder
    bool clear_source = false; // insert: empty that element's value afterwards
    std::int32_t listed_ms = 0; // close_window: how long the window stays listed after its tree went
};

// What a node says of itself; Node adds its place in the tree. Kept apart so a copy of a tree
// (copy_tree) copies every fact, including ones added later.
struct NodeFacts {
    std::string key;
    std::string role;
    std::string name;
    std::string value;
    std::string description;
    std::string secret; // a secure field's contents; never copied into an Element
    std::string filter; // "" or "digits": what set_value / insert_text keep
    std::uint32_t states = 0;
    std::vector<std::string> actions;
    nd_core::Frame frame;
    bool has_frame = false;
    std::optional<std::pair<double, double>> range; // slider min, max
    std::map<std::string, std::vector<Effect>> effects; // by action name, and "select"
};

struct Node : NodeFacts {
    Node* parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;

    bool has_action(std::string_view action) const;
    bool secure() const;
};

struct MockWindow {
    nd_core::WindowInfo info;
    std::unique_ptr<Node> root;
    bool hung = false;
    // How long the app takes to answer a read; a read whose deadline is shorter fails with timed_out.
    std::chrono::milliseconds answer_time{0};
    std::int64_t next_auto_key = 1; // for elements without an id: "auto.<n>"
    bool closing = false;           // a close_window effect ran: the window goes once the act ends
    // An app that is closing drops its tree before the window system drops its window: with a
    // close_window's listed_ms, reads fail (window_target_not_found) while the window is listed.
    std::int32_t listed_ms = 0;
    bool tree_gone = false;
    std::chrono::steady_clock::time_point listed_until{};
    // The app's templates (fixture "templates"), shared by its windows, for inserts at run time.
    std::shared_ptr<const nlohmann::json> templates;
};

// A deep copy of a window: its tree node for node, parents pointing into the copy.
MockWindow copy_window(const MockWindow&);

// Preorder search by key; null when absent.
Node* find_node(Node& root, std::string_view key);
// Counts the nodes of a subtree, itself included.
std::int64_t count_nodes(const Node& root);
// Moves every frame of a subtree by (dx, dy).
void shift_frames(Node& root, std::int32_t dx, std::int32_t dy);

} // namespace nd_mock
