#pragma once

// Reports the person's own input during a takeover (§4.3): key and button presses the driver did not
// send. Pointer movement is judged by the engine from pointer_position() at each check.

#include <optional>

namespace nd_core {

enum class PersonInput : std::uint8_t { pointer_moved, key_pressed, button_pressed };

class InputWatcher {
public:
    virtual ~InputWatcher() = default;
    // Starts watching (at takeover) and clears anything seen before.
    virtual void reset() = 0;
    // The person's first input since the last reset, if any.
    virtual std::optional<PersonInput> poll() = 0;
    // False once the watcher can no longer see the person's input (its connection broke): poll()
    // proves nothing then, so a takeover must end.
    virtual bool healthy() const { return true; }
};

} // namespace nd_core
