#pragma once

// Base64 (RFC 4648 §4, standard alphabet, with padding) for MCP image content.

#include <string>
#include <string_view>

namespace nd_core {

std::string base64_encode(std::string_view bytes);
// Decodes standard base64 with padding; false (and `out` unspecified) on any other byte or length.
bool base64_decode(std::string_view text, std::string& out);

} // namespace nd_core
