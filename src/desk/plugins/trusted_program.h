#pragma once

// The programs the daemon runs for plugins and services run as its user, started by an agent's
// call. Anyone who can change such a program, or swap it in its directory, could make that user
// run their code, so the daemon runs only a program that this user or root alone can change
// (docs/security.md): a regular executable file owned by this user or root that neither its group
// nor others may write, in a directory owned by this user or root that neither group nor others
// may write unless it is sticky (/tmp), where nobody may rename another's file.

#include <optional>
#include <string>

namespace nd_desk {

// Why `path` may not be run, or nullopt when it may. A missing program or directory is no reason
// here (a plugin file may be read before its program is installed; starting a missing one fails
// with its own error); one that exists is judged as above. Checked when the file is read and again
// each time the program is started.
std::optional<std::string> untrusted_program(const std::string& path);

} // namespace nd_desk
