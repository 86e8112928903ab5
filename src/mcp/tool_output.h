#pragma once

// What a tool call produces, already serialized: structuredContent as one JSON object, the text
// block, and an optional image block. The MCP server wraps it without re-encoding the tree.

#include <atomic>
#include <optional>
#include <string>

namespace nd_mcp {

struct ImageBlock {
    std::string mime_type = "image/png";
    std::string data_base64;
};

struct ToolOutput {
    bool is_error = false;
    std::string structured; // a serialized JSON object
    std::string text;
    std::optional<ImageBlock> image;
};

// Per-call context the server hands to a tool.
struct CallContext {
    // Set when the client cancels the request (notifications/cancelled); long calls check it.
    const std::atomic<bool>* cancelled = nullptr;
    bool is_cancelled() const { return cancelled && cancelled->load(std::memory_order_relaxed); }
};

} // namespace nd_mcp
