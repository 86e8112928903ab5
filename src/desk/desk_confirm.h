#pragma once

// Confirm mode (docs/confirm.md): with [input] confirm = "acts", every call of a verb that changes
// the desktop, and with "all" every desk call, first asks the person (the backend's native dialog,
// or the host on the daemon's control pipe) to allow that one call. A no, a closed dialog, the
// timeout, a stop or a dialog that cannot be shown refuse the call with confirm_refused before
// anything is sent. Scripts, plugins and services pass the same gate: their desk calls come
// through the daemon like any other.

#include "core/backend/confirm.h"
#include "desk/verb.h"

namespace nd_desk {

class Desk;

// Whether confirm mode asks before this verb.
bool confirm_asks(const Desk&, const VerbDef&);

// What the person is shown for a call: the verb, the window its arguments name (else the active
// one), the element its node id names or the point it gives, and for typing the text's length
// and first characters, left out when the field it goes to is, or may be, a password field. Never
// fails: what cannot be told is left out, and the verb itself refuses a bad target afterwards.
nd_core::ConfirmRequest confirm_request(Desk&, const VerbDef&, const nlohmann::json& args);

// Asks when confirm mode asks (confirm_asks); Ok when allowed or not asked, else confirm_refused
// saying why (refused, no answer in time, stopped, no way to ask).
nd_core::Result<void> confirm_call(Desk&, const VerbDef&, const CallScope&, const nlohmann::json& args);

} // namespace nd_desk
