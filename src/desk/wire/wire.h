#pragma once

// The desk wire (docs/wire.md), implemented once: the daemon, `shuttle mcp`, the CLI and the script
// runtime all speak it. A frame is a 4-byte big-endian length and that many bytes of UTF-8 JSON.
//
//   request  {"agent_id": string, "tool": string, "args": object}   agent_id "" and args null by default
//   response {"text": string, "is_error": bool, "image_b64"?: string, "image_mime"?: string}
//            shuttle never sends "secrets"; image_mime names a picture that is no PNG (the vision
//            verbs' image/jpeg), absent for a PNG
//
// The daemon reads `tool` before it decodes the rest (peek_tool), so routing a frame to a service
// or refusing an unknown tool costs a scan of the bytes up to that key, not a parse of the args.

#include "core/result.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nd_desk::wire {

inline constexpr std::size_t HEADER_BYTES = 4;
// Requests are small (the largest is a script's source or a text to type); responses carry PNGs.
inline constexpr std::size_t MAX_REQUEST_BYTES = 8u << 20;
inline constexpr std::size_t MAX_RESPONSE_BYTES = 64u << 20;

struct Request {
    std::string agent_id;
    std::string tool;
    nlohmann::json args; // null when absent
};

struct Response {
    std::string text;
    bool is_error = false;
    std::optional<std::string> image_b64;
    std::optional<std::string> image_mime; // absent: image/png
};

// The 4-byte header of a payload of `size` bytes, and its inverse.
std::string header_for(std::size_t size);
std::uint32_t size_from_header(const unsigned char header[HEADER_BYTES]);

// The top-level "tool" string of a request payload, found without decoding the rest. Returns
// nothing when the payload is not a JSON object, has no string "tool" at the top level, or is
// malformed before the key is reached. The view points into `payload`, unless the name holds an
// escape: then it is decoded into `scratch` and the view points there.
std::optional<std::string_view> peek_tool(std::string_view payload, std::string& scratch);

// Full decodes. Errors are invalid_arguments with a message naming the field at fault.
nd_core::Result<Request> decode_request(std::string_view payload);
nd_core::Result<Response> decode_response(std::string_view payload);

std::string encode_request(const Request&);
std::string encode_response(const Response&);

// A whole frame: header and payload.
std::string frame(std::string_view payload);

// Shorthands for the common answers.
Response ok_text(std::string text);
Response error_text(std::string text);

} // namespace nd_desk::wire
