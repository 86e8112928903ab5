#pragma once

// The right to send synthetic input on this desktop for the length of one act. On X11 two programs
// driving XTEST on one display would read each other's input as the person's (docs/architecture.md,
// "One engine per display"), so a lease there is the per-display takeover lock: while a driver's
// takeover holds it, no lease is granted. A backend whose input is private to its process (the
// mock) grants every lease. Owner: the caller; dropping the lease lets go of the right.

#include <memory>

namespace nd_core {

class InputLease {
public:
    virtual ~InputLease() = default;
};

// A lease that holds nothing: for backends that need no lock.
inline std::unique_ptr<InputLease> free_input_lease() { return std::make_unique<InputLease>(); }

} // namespace nd_core
