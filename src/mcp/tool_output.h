#pragma once

// What a tool call produces, already serialized: structuredContent as one JSON object, the text
// block, and an optional image block. The MCP server wraps it without re-encoding the tree.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

// What a host answers resources/read for one uri. found false: no resource has that uri (the
// server answers -32002 Resource not found). A non-empty error: the resource exists but could not
// be read now (the server answers -32603 with it). Otherwise the text, served as is.
struct ResourceText {
    bool found = false;
    std::string error;
    std::string mime_type;
    std::string text;
};

// Where a long call reports how far it has got: the server turns each report into a
// notifications/progress for the request's progress token. Thread-safe; reports that do not
// advance, or come within 100 ms of the last one, are dropped, so callers may report freely.
class ProgressSink {
public:
    virtual ~ProgressSink() = default;
    // progress grows with each report; total is 0 when unknown; message is a short line for people.
    virtual void report(double progress, double total, std::string_view message) = 0;
};

// Per-call context the server hands to a tool.
struct CallContext {
    // Set when the client cancels the request (notifications/cancelled); long calls check it.
    const std::atomic<bool>* cancelled = nullptr;
    // Set when the client asked for progress (a progressToken in the request's _meta).
    ProgressSink* progress = nullptr;

    bool is_cancelled() const { return cancelled && cancelled->load(std::memory_order_relaxed); }
    bool wants_progress() const { return progress != nullptr; }
    void report_progress(double done, double total = 0, std::string_view message = {}) const
    {
        if (progress)
            progress->report(done, total, message);
    }
};

} // namespace nd_mcp
