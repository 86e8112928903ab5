#pragma once

// Observations attached to results: the default tree view of a snapshot, and a screenshot as an
// image block. Failures become observe.error / observe.screenshot_error, never the call's error.

#include "core/encode/json_writer.h"
#include "driver/tool.h"

namespace nd_driver {

struct ObserveRequest {
    bool tree = false;
    bool screenshot = false;
    bool any() const { return tree || screenshot; }
};

ObserveRequest observe_request(const Args&);

// Captures the snapshot's window: writes "screenshot": {mime_type, width, height} and sets
// out.image, or writes "screenshot_error": {error object} when the capture is refused or fails.
void write_screenshot(nd_core::JsonWriter&, ToolEnv&, const nd_core::Snapshot&, ToolOutput& out);

// Writes "observe": {...} into an open object, and sets out.image when a screenshot was taken.
// `read_error` is set when the settled read itself failed.
void write_observe(nd_core::JsonWriter&, ToolEnv&, const ObserveRequest&, const nd_core::SnapshotPtr&,
    const nd_core::Error* read_error, ToolOutput& out);

} // namespace nd_driver
