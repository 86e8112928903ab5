#pragma once

// What an app the desk starts is given so that every toolkit joins the AT-SPI bus, whatever the
// person's session turned on (docs/linux-atspi.md, "Apps the desk starts"): the variables the
// freedesktop accessibility guide names, and Chromium's and Firefox's own.
//
//   GTK_MODULES                       gail:atk-bridge added to what it held (GTK 2 loads no bridge
//                                     without them; GTK 3 has both built in and skips them)
//   GNOME_ACCESSIBILITY=1             Firefox and GTK 2 era programs
//   QT_ACCESSIBILITY=1                Qt 4 and 5
//   QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1  Qt 5 and 6, even when the bus's IsEnabled is false
//   ACCESSIBILITY_ENABLED=1           Chromium and Electron apps
//
// NO_AT_BRIDGE, which turns the bridge off, is not passed on (LinuxBackend::launch_env_hidden).

#include <string>
#include <string_view>
#include <vector>

namespace nd_linux {

// "NAME=value" entries for a launched app; `gtk_modules` is the value GTK_MODULES has here (empty
// when unset), kept in front of the modules added, each module once.
std::vector<std::string> accessibility_launch_env(std::string_view gtk_modules);

} // namespace nd_linux
