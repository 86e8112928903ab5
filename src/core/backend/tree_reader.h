#pragma once

// Reads one window's accessibility tree, whole, into values. The backend fills role, name, value
// (never for secure fields), states, actions, frame where cheap, parent links and key, in preorder;
// the engine calls finish_tree(). Every read has a deadline: a hung app yields app_not_responding
// or timed_out, never a hung driver.

#include "core/element.h"
#include "core/result.h"

#include <chrono>
#include <vector>

namespace nd_core {

struct ReadLimits {
    std::int32_t max_elements = 5000;
    std::int32_t max_depth = 200;
    std::chrono::milliseconds deadline{3000};
};

struct RawTree {
    std::vector<Element> elements; // preorder, parent < own index, [0] the window's root
    bool truncated = false;        // cut by the limits
};

class TreeReader {
public:
    virtual ~TreeReader() = default;
    virtual Result<RawTree> read_window(const WindowInfo&, const ReadLimits&) = 0;
};

} // namespace nd_core
