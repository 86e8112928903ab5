#pragma once

// Which background input routes a window's toolkit takes (docs/desk-background.md, "Routes per
// toolkit"): one table, measured on the virtual desktop (tests/desk_linux/desk_background_keys_linux_test.cpp
// checks the key and button rows), that background key and drag choose from and the docs list.
//
//   actions  the element's own AT-SPI actions (press, click, activate...)
//   text     AT-SPI EditableText: text inserted at the caret, read back
//   value    AT-SPI Value: a scroll bar or slider set, read back
//   keys     key events sent to the window (XSendEvent): the toolkit reads core key events,
//            including those another client sends
//   buttons  left-button press, motion and release events sent to the window (XSendEvent): a
//            background drag
//
// GTK3, GTK4 and Chromium read the keyboard through XInput 2 and drop key events that another
// client sends to their window (and Chromium's web text fields offer no EditableText, so they take
// no text either); Qt5 reads core key events and takes them. Qt5 takes sent button events; GTK3
// takes them only while its window is the active one (so never behind the person's), GTK4 and
// Chromium drop them. Xt programs such as xterm refuse both (allowSendEvents is off by
// default) and have no AT-SPI at all.

#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

struct BackgroundRoutes {
    std::string toolkit;             // "GTK3", "GTK4", "Qt", "Chromium", "Xt", or the name the app gave
    std::vector<std::string> routes; // a subset of actions, text, value, keys, buttons, in that order
    std::string note;                // why a route is missing; empty when none is
    bool takes(std::string_view route) const;
};

// The routes of a window from its AT-SPI toolkit name (Application.ToolkitName: "gtk" from GTK3's
// bridge, "GTK" from GTK4, "Qt", "Chromium", ...; empty when the app has no AT-SPI) and its
// WM_CLASS class. An unknown toolkit with AT-SPI gets the AT-SPI routes and no keys or buttons,
// since events it might drop are never sent unchecked.
BackgroundRoutes background_routes(std::string_view atspi_toolkit, std::string_view wm_class);

// The measured rows of the table, one per toolkit (GTK3, GTK4, Qt, Chromium, Xt), for the driver's
// registry (doctor --json, "background_input") and the docs.
std::vector<BackgroundRoutes> measured_background_routes();

} // namespace nd_core
