#pragma once

// What the engine tells the host without being asked (§4.3): a takeover paused on the person's
// input, and a paused takeover resumed by the indicator's Continue or by the host. The driver front
// implements EngineEvents (the control pipe writes each as a JSON line) and hands it to the engine;
// without one, nothing is sent. The engine calls it with its mutex held, from whichever thread
// paused or resumed: an implementation must not call back into the engine and must not block for
// long (the control pipe bounds its writes).

#include <cstdint>
#include <string_view>

namespace nd_core {

// Who resumed a paused takeover.
enum class ResumeBy : std::uint8_t { indicator, host };
constexpr std::string_view resume_by_name(ResumeBy by) { return by == ResumeBy::host ? "host" : "indicator"; }

class EngineEvents {
public:
    virtual ~EngineEvents() = default;
    // paused_reason is pointer_moved, key_pressed or button_pressed; at_ms is Engine::now_ms().
    virtual void takeover_paused(std::string_view session, std::string_view paused_reason, std::int64_t at_ms) = 0;
    virtual void takeover_resumed(std::string_view session, ResumeBy, std::int64_t at_ms) = 0;
};

} // namespace nd_core
