#pragma once

// The audit log: one JSON object per line, appended to a file only the person can read.
//
// What may be recorded is decided by the types of AuditEntry, not by the care of each caller:
// event and reason are AuditNames, which only string literals in the driver's own source can
// make; the outcome is an error code; everything else is a number, a driver-made identifier or
// the app's own name. There is no field that could hold a key name, a typed character, a pointer
// position or clipboard text (contract §4.3, §5.2). docs/audit.md lists the fields.
//
// AuditLog is thread-safe and never throws. A write that fails warns once on stderr and the
// driver carries on: losing the log must not stop the person's work. A log with an empty path is
// disabled and records nothing.

#include "core/errors.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace nd_core {

// A name written in the driver's source: lower-case letters, digits, '_' and '.', at most 48
// characters. The constructor is consteval, so a name can only come from a literal and a typo in
// one fails the build.
class AuditName {
public:
    constexpr AuditName() = default;
    consteval AuditName(const char* literal)
        : m_name(literal)
    {
        if (!valid(m_name))
            throw "audit names are lower-case identifiers of at most 48 characters";
    }

    constexpr std::string_view view() const { return m_name; }
    constexpr bool empty() const { return m_name.empty(); }

    // The name among `allowed` that equals `value`, if any. This maps a runtime value (a
    // paused_reason kept as a string, say) onto a fixed name without letting the value through.
    static std::optional<AuditName> match(std::string_view value, std::initializer_list<AuditName> allowed);

    static constexpr bool valid(std::string_view name)
    {
        if (name.empty() || name.size() > 48)
            return false;
        for (char c : name)
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'))
                return false;
        return true;
    }

private:
    std::string_view m_name;
};

// "ok", or the name of the error code a call failed with.
class AuditOutcome {
public:
    static AuditOutcome ok() { return AuditOutcome(); }
    static AuditOutcome failed(ErrorCode code) { return AuditOutcome(code); }
    std::string_view name() const;

private:
    AuditOutcome() = default;
    explicit AuditOutcome(ErrorCode code) : m_error(code) {}
    std::optional<ErrorCode> m_error;
};

// Who resumed a paused takeover (§4.3).
enum class AuditBy : std::uint8_t { none, indicator, host };

struct AuditEntry {
    AuditName event;     // "tool_call", "session.start", "takeover.paused", ...
    std::string session; // the driver's session id, e.g. "mcp:host:4242"
    // The registry's own name of a registered tool, never the name a request asked for. Written
    // only if it is an identifier ([a-z0-9_], at most 64 characters), else as "invalid".
    std::string_view tool;
    std::optional<AuditOutcome> outcome;
    std::optional<std::int64_t> window_id;
    std::optional<std::int64_t> pid;
    std::optional<std::string> app; // the app's own name, escaped and cut to 64 characters
    std::optional<std::int64_t> element_index;
    std::optional<std::int64_t> text_length;      // characters typed or set, never the characters
    std::optional<std::int64_t> clipboard_length; // bytes read or written, never the text
    AuditName reason;                             // paused_reason, a revocation reason, ...
    AuditBy by = AuditBy::none;
    // The driver's monotonic clock in ms, as in the host events; the log's own clock when absent.
    std::optional<std::int64_t> at_ms;
};

// The JSON line (without its newline) that AuditLog writes for an entry at these times.
// Field order: time, at_ms, event, then the entry's fields in declaration order; absent ones are
// left out.
std::string audit_line(const AuditEntry&, std::chrono::system_clock::time_point wall, std::int64_t at_ms);

// The driver's monotonic clock in milliseconds (CLOCK_MONOTONIC).
std::int64_t monotonic_ms();

class AuditLog {
public:
    // An empty path gives a disabled log. Nothing is opened until the first record.
    explicit AuditLog(std::string path);
    ~AuditLog();
    AuditLog(const AuditLog&) = delete;
    AuditLog& operator=(const AuditLog&) = delete;

    // NISH_AUDIT_LOG if set (empty disables the log), else $XDG_STATE_HOME/nish-driver/audit.jsonl
    // (when absolute), else $HOME/.local/state/nish-driver/audit.jsonl, else empty.
    static std::string default_path();

    bool enabled() const { return !m_path.empty(); }
    const std::string& path() const { return m_path; }

    // Appends one line. Creates missing directories 0700 and the file 0600. Returns whether the
    // line was written; an entry without an event is not.
    bool record(const AuditEntry&) noexcept;

private:
    bool open_locked();
    void warn_once(const char* what, int error) noexcept;

    std::string m_path;
    std::mutex m_mutex;
    int m_fd = -1;
    std::atomic<bool> m_warned = false;
};

} // namespace nd_core
