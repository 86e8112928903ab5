#pragma once

// The shape every host control pipe shares (docs/control-pipe.md): one JSON object per line in,
// {"method":m,"params":{...},"id":x}; one reply line out, an ack {"event":"ack","method":m,"id":x,...}
// or an error {"event":"error","method":m|null,"id":x,"error":{...}}. The driver's control pipe and
// the desk's host channel parse and answer with these, so their lines never drift apart.

#include "core/encode/json_writer.h"
#include "core/errors.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace nd_mcp {

struct ControlRequest {
    std::string method;
    nlohmann::json params = nlohmann::json::object();
    nlohmann::json id; // null when absent or not a string or integer
};

// Parses one request line into `out`. Returns the error line to answer instead when the line is
// not one JSON object with a method string and an object (or null) params; the error echoes the id
// and method when they were read.
std::optional<std::string> parse_control_request(std::string_view line, ControlRequest& out);

// {"event":"error","method":m|null[,"id":x],"error":{code,...}}; `request` may be null.
std::string control_error_line(const nd_core::Error&, const ControlRequest* request);

// Opens an ack object: {"event":"ack","method":m[,"id":x] — the caller adds its fields and closes it.
void begin_control_ack(nd_core::JsonWriter&, const ControlRequest&);

// The reply to a line longer than the pipe's cap (the line itself was never held).
std::string control_line_too_long(std::size_t max_line_bytes);

} // namespace nd_mcp
