#pragma once

// Confirm mode (docs/confirm.md): before an act, or before every call, the person is asked to allow
// that one call. The question comes from a provider behind this interface: the platform's native
// dialog (Backend::confirm_dialog), a host on a control channel, or a scripted provider in tests.
// The request holds only what the person needs to decide, never typed text beyond its first
// characters, and none of it for a password field.

#include "core/result.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

struct ConfirmRequest {
    std::string verb;   // the tool as the caller named it: "desk_type"
    std::string app;    // the target window's app; empty when the call names none
    std::string window; // its title; empty when none
    std::string target; // "the element “Save” (button)", "the point (120, 340)"; empty when none
    // Typing: the text's length in characters and its first characters (at most
    // CONFIRM_TEXT_START of them). text_start is empty when the target is, or may be, a password
    // field (secure says which).
    std::optional<std::int64_t> text_chars;
    std::string text_start;
    bool secure = false;
};

inline constexpr std::size_t CONFIRM_TEXT_START = 12; // code points of typed text shown

enum class ConfirmOutcome : std::uint8_t {
    allowed,
    refused,   // the person (or the host) said no, or closed the dialog
    timed_out, // no answer within the timeout
    stopped,   // a safety stop ended the wait
};

std::string_view confirm_outcome_name(ConfirmOutcome);

// How long one ask may wait, and the stop it watches (thread-safe; may be empty).
struct ConfirmWait {
    std::chrono::milliseconds timeout{30000};
    std::function<bool()> stopped;
};

class ConfirmProvider {
public:
    virtual ~ConfirmProvider() = default;
    virtual std::string name() const = 0;
    // Blocks until an answer, the timeout or a stop. Errors: the provider could not ask at all
    // (no display, a host channel that is gone): the call is refused then too.
    virtual Result<ConfirmOutcome> ask(const ConfirmRequest&, const ConfirmWait&) = 0;
};

// Answers from a queue that a test fills; with the queue empty it refuses. Records every request.
class ScriptedConfirm final : public ConfirmProvider {
public:
    std::string name() const override { return "scripted"; }
    void push(ConfirmOutcome answer)
    {
        std::lock_guard lock(m_mutex);
        m_answers.push_back(answer);
    }
    std::vector<ConfirmRequest> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }
    Result<ConfirmOutcome> ask(const ConfirmRequest& req, const ConfirmWait&) override
    {
        std::lock_guard lock(m_mutex);
        m_requests.push_back(req);
        if (m_answers.empty())
            return ConfirmOutcome::refused;
        auto answer = m_answers.front();
        m_answers.pop_front();
        return answer;
    }

private:
    mutable std::mutex m_mutex;
    std::deque<ConfirmOutcome> m_answers;
    std::vector<ConfirmRequest> m_requests;
};

inline std::string_view confirm_outcome_name(ConfirmOutcome o)
{
    switch (o) {
    case ConfirmOutcome::allowed: return "allowed";
    case ConfirmOutcome::refused: return "refused";
    case ConfirmOutcome::timed_out: return "timed_out";
    case ConfirmOutcome::stopped: return "stopped";
    }
    return "refused";
}

} // namespace nd_core
