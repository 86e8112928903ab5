#pragma once

// The toolkit an app names over AT-SPI (Application.ToolkitName on its root: "gtk" for GTK3's
// bridge, "GTK" for GTK4, "Qt", "Chromium"), and the one of a process's windows.

#include "backend/linux/atspi/atspi_bus.h"

#include <string>

namespace nd_linux {

// Empty when the app answers without one; app_not_responding or timed_out when it does not
// answer by the deadline: an app busy at its start (Java's bridge building its cache) is not
// an app without a toolkit, and a holder that remembered the empty name would read it wrongly.
nd_core::Result<std::string> toolkit_name(AtspiBus&, const std::string& app_bus, Deadline);

// The toolkit of the first AT-SPI app of `pid`; empty when the process has none; an error as
// above when it does not answer within a second.
nd_core::Result<std::string> toolkit_of_pid(AtspiBus&, std::int64_t pid);

} // namespace nd_linux
