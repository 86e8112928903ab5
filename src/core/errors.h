#pragma once

// The error table as a type. ErrorCode has one value per row of errors.def; a code that is not in
// the table cannot be constructed, so it cannot be emitted. Error is the value every layer returns
// when something fails; the MCP front turns it into the contract's envelope (§2.1).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

enum class ErrorCode : std::uint8_t {
#define NISH_ERROR(code, disposition, suggestion) code,
#include "core/errors.def"
#undef NISH_ERROR
};

enum class Retry : std::uint8_t { safe, unsafe, after_refresh, never };

struct ErrorInfo {
    ErrorCode code;
    std::string_view name;
    Retry retry;
    std::string_view suggestion;
};

// The whole table, in file order.
std::span<const ErrorInfo> error_table();
const ErrorInfo& error_info(ErrorCode);
std::string_view error_name(ErrorCode);
std::string_view retry_name(Retry);
std::optional<ErrorCode> error_code_from_name(std::string_view);

struct Candidate {
    std::int64_t window_id = 0;
    std::int64_t pid = 0;
    std::string app; // untrusted app text; escaped and cut when the envelope is built
};

struct Error {
    ErrorCode code = ErrorCode::internal_error;
    std::string message; // one line; bounded identifiers only, never app text
    std::vector<Candidate> candidates; // ambiguous_target / ambiguous_window_target only
    bool candidates_truncated = false;
    // Extra fields that ride along (§2.1).
    std::optional<std::string> effect;        // "refused" | "stopped"
    std::optional<std::int64_t> typed_characters;
    std::optional<std::string> paused_reason; // with user_took_over
    std::optional<std::string> escalation_reason;

    Error() = default;
    Error(ErrorCode c, std::string msg) : code(c), message(std::move(msg)) {}

    // `<code>: <message> [retry: <disposition>] <suggestion>` (§2.1).
    std::string text() const;
};

inline constexpr std::size_t MAX_CANDIDATES = 8;
inline constexpr std::size_t MAX_CANDIDATE_APP_CHARS = 64;

// Escapes control characters and cuts to 64 characters (UTF-8 aware) for a candidate's app name.
std::string sanitize_app_name(std::string_view);

} // namespace nd_core
