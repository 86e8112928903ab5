#include "backend/mock/mock_tree_reader.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

namespace nd_mock {

namespace {

struct Walk {
    const nd_core::ReadLimits& limits;
    nd_core::RawTree& out;
};

// Preorder; returns false once max_elements is reached, so the walk stops everywhere.
bool visit(Walk& walk, const Node& node, std::int32_t parent, std::int32_t depth)
{
    if (static_cast<std::int32_t>(walk.out.elements.size()) >= walk.limits.max_elements) {
        walk.out.truncated = true;
        return false;
    }
    auto index = static_cast<std::int32_t>(walk.out.elements.size());
    nd_core::Element element = to_element(node);
    element.parent = parent;
    element.depth = depth;
    walk.out.elements.push_back(std::move(element));
    if (parent >= 0)
        ++walk.out.elements[static_cast<std::size_t>(parent)].child_count;
    if (node.children.empty())
        return true;
    if (depth + 1 > walk.limits.max_depth) {
        walk.out.truncated = true;
        return true;
    }
    for (const auto& child : node.children)
        if (!visit(walk, *child, index, depth + 1))
            return false;
    return true;
}

std::array<std::uint8_t, 3> role_colour(std::string_view role)
{
    // FNV-1a of the role, folded into mid-range colours so every role is visible on the background.
    std::uint32_t h = 2166136261u;
    for (char c : role)
        h = (h ^ static_cast<std::uint8_t>(c)) * 16777619u;
    return {static_cast<std::uint8_t>(64 + (h & 0x7f)), static_cast<std::uint8_t>(64 + ((h >> 8) & 0x7f)),
            static_cast<std::uint8_t>(64 + ((h >> 16) & 0x7f))};
}

void paint(nd_core::Image& image, const nd_core::Frame& window, const Node& node)
{
    if (node.has_frame && node.frame.has_area()) {
        auto colour = role_colour(node.role);
        std::int32_t x0 = std::max(node.frame.x - window.x, 0);
        std::int32_t y0 = std::max(node.frame.y - window.y, 0);
        std::int32_t x1 = std::min(node.frame.x - window.x + node.frame.w, image.width);
        std::int32_t y1 = std::min(node.frame.y - window.y + node.frame.h, image.height);
        for (std::int32_t y = y0; y < y1; ++y) {
            auto* row = image.rgba.data() + (static_cast<std::size_t>(y) * image.width) * 4;
            for (std::int32_t x = x0; x < x1; ++x) {
                auto* px = row + static_cast<std::size_t>(x) * 4;
                px[0] = colour[0];
                px[1] = colour[1];
                px[2] = colour[2];
                px[3] = 255;
            }
        }
    }
    for (const auto& child : node.children)
        paint(image, window, *child);
}

} // namespace

nd_core::Element to_element(const Node& node)
{
    nd_core::Element e;
    e.role = node.role;
    e.name = node.name;
    e.value = node.secure() ? std::string() : node.value;
    e.description = node.description;
    e.states = node.states;
    e.actions = node.actions;
    e.frame = node.frame;
    e.has_frame = node.has_frame;
    e.key = node.key;
    return e;
}

nd_core::Result<nd_core::RawTree> MockTreeReader::read_window(const nd_core::WindowInfo& info,
                                                              const nd_core::ReadLimits& limits)
{
    if (limits.max_elements <= 0 || limits.max_depth < 0)
        return nd_core::make_error(nd_core::ErrorCode::invalid_arguments,
                                   "read limits need max_elements > 0 and max_depth >= 0");
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    if (window->answer_time > limits.deadline)
        return nd_core::make_error(nd_core::ErrorCode::timed_out,
                                   "the app of window " + std::to_string(info.window_id) + " did not answer within " +
                                       std::to_string(limits.deadline.count()) + " ms");
    nd_core::RawTree tree;
    tree.elements.reserve(static_cast<std::size_t>(
        std::min<std::int64_t>(count_nodes(*window->root), limits.max_elements)));
    Walk walk{limits, tree};
    visit(walk, *window->root, -1, 0);
    // Deferred frames as the Linux backend defers them: the root's and secure fields' stay.
    if (limits.frames == nd_core::FrameMode::deferred) {
        tree.frames_deferred = true;
        for (std::size_t i = 1; i < tree.elements.size(); ++i)
            if (!tree.elements[i].secure()) {
                tree.elements[i].has_frame = false;
                tree.elements[i].frame = {};
            }
    }
    return tree;
}

nd_core::Result<void> MockTreeReader::read_frames(const nd_core::WindowInfo& info, std::vector<nd_core::Element>& elements,
                                                  const std::vector<std::int32_t>& indices,
                                                  std::chrono::milliseconds deadline, bool /*action_names: the mock's are named*/)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    if (window->answer_time > deadline)
        return nd_core::make_error(nd_core::ErrorCode::timed_out,
                                   "the app of window " + std::to_string(info.window_id) + " did not answer within " +
                                       std::to_string(deadline.count()) + " ms");
    ++m_frame_reads;
    // One pass over the window's nodes, then a look-up per row: a whole view asks for 5,000.
    std::unordered_map<std::string_view, const Node*> by_key;
    std::vector<const Node*> stack{window->root.get()};
    while (!stack.empty()) {
        const Node* node = stack.back();
        stack.pop_back();
        by_key.emplace(node->key, node);
        for (const auto& child : node->children)
            stack.push_back(child.get());
    }
    for (auto index : indices) {
        if (index < 0 || static_cast<std::size_t>(index) >= elements.size())
            continue;
        auto& e = elements[static_cast<std::size_t>(index)];
        auto it = by_key.find(e.key);
        if (it != by_key.end()) {
            e.frame = it->second->frame;
            e.has_frame = it->second->has_frame;
        }
    }
    return {};
}

nd_core::Result<nd_core::Image> MockCapture::capture_window(const nd_core::WindowInfo& info)
{
    std::lock_guard lock(m_state.mutex);
    MockWindow* window = TRY(live_window(m_state, info));
    const nd_core::Frame& frame = window->info.frame;
    nd_core::Image image;
    image.width = frame.w;
    image.height = frame.h;
    // A light grey background, then every element over its parent.
    image.rgba.assign(static_cast<std::size_t>(frame.w) * static_cast<std::size_t>(frame.h) * 4, 236);
    for (std::size_t i = 3; i < image.rgba.size(); i += 4)
        image.rgba[i] = 255;
    paint(image, frame, *window->root);
    return image;
}

} // namespace nd_mock
