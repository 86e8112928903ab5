#pragma once

// Base64 (RFC 4648 §4, standard alphabet, with padding) for MCP image content.

#include <string>
#include <string_view>

namespace nd_core {

std::string base64_encode(std::string_view bytes);

} // namespace nd_core
