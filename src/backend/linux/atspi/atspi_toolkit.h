#pragma once

// The toolkit an app names over AT-SPI (Application.ToolkitName on its root: "gtk" for GTK3's
// bridge, "GTK" for GTK4, "Qt", "Chromium"), and the one of a process's windows.

#include "backend/linux/atspi/atspi_bus.h"

#include <string>

namespace nd_linux {

// Empty when the app does not answer within 500 ms or names none.
std::string toolkit_name(AtspiBus&, const std::string& app_bus);

// The toolkit of the first AT-SPI app of `pid`; empty when the process has none.
std::string toolkit_of_pid(AtspiBus&, std::int64_t pid);

} // namespace nd_linux
