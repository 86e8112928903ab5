#pragma once

// The X server's input devices as the approval surfaces judge them (docs/linux-x11.md, "Who may
// answer"): for each device its id, name, whether it is a master, and whether the server marked it
// as an XTEST device (the device property "XTEST Device", which the server sets on the XTEST slave
// pair it creates for every master, including masters created later).
//
// Read afresh for each judgement (one round trip for the list, one batch for the properties):
// approval clicks are rare, and a list kept between clicks could miss a device that came or went.

#include "backend/linux/x11/x11_display.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nd_linux {

struct InputDevice {
    std::uint16_t id = 0;
    std::string name;
    bool master = false;
    bool xtest = false;
};

// Every device of the server. Errors: timed_out, backend_unavailable.
nd_core::Result<std::vector<InputDevice>> list_input_devices(X11Display&, Deadline);

// Whether input from `source` (an XI2 event's sourceid) may count as the person's own hand: a
// device the server lists, not a master (input a client sends through a master names the master as
// its source), and not an XTEST device, unless it is the test mark's device
// (person_mark/person_mark.h), which only test executables have.
bool is_person_source(const std::vector<InputDevice>&, std::uint16_t source, const std::string& marked);

} // namespace nd_linux
