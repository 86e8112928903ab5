#pragma once

// The Linux backend: windows, capture and probes over X11 (xcb); trees and semantic actions over
// AT-SPI (sd-bus). Opened by name (--backend linux, or auto when a display is reachable).
// Takeover input over XTEST, the person's input over XInput 2, the indicator, the consent dialog and
// the clipboard are X11 parts of their own (docs/linux-x11.md); a part whose extension the server
// lacks is null, and the registry says why.

#include "backend/linux/atspi/atspi_actuator.h"
#include "backend/linux/atspi/atspi_bus.h"
#include "backend/linux/atspi/atspi_finder.h"
#include "backend/linux/atspi/atspi_tree_reader.h"
#include "backend/linux/x11/x11_capture.h"
#include "backend/linux/x11/x11_clipboard.h"
#include "backend/linux/x11/x11_confirm_dialog.h"
#include "backend/linux/x11/x11_consent_dialog.h"
#include "backend/linux/x11/x11_input.h"
#include "backend/linux/x11/x11_overlay.h"
#include "backend/linux/x11/x11_own_surfaces.h"
#include "backend/linux/x11/x11_press_clock.h"
#include "backend/linux/x11/x11_screen.h"
#include "backend/linux/x11/x11_watcher.h"
#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_windows.h"
#include "backend/linux/x11/x11_window_control.h"
#include "backend/linux/x11/x11_window_keys.h"
#include "backend/linux/x11/x11_window_pointer.h"
#include "core/backend/backend.h"
#include "core/backend/window_control.h"

#include <map>
#include <memory>
#include <mutex>

namespace nd_linux {

class LinuxBackend final : public nd_core::Backend, public nd_core::DeskParts {
public:
    // Needs a reachable local X display and the accessibility bus; errors say which is missing.
    static nd_core::Result<std::unique_ptr<LinuxBackend>> open();

    std::string name() const override { return "linux"; }
    std::string session_type() const override { return "x11"; }
    nd_core::WindowSource* windows() override { return m_windows.get(); }
    nd_core::TreeReader* trees() override { return m_trees.get(); }
    nd_core::ElementFinder* finder() override { return m_finder.get(); }
    nd_core::Actuator* actuator() override { return m_actuator.get(); }
    nd_core::SyntheticInput* input() override { return m_input.get(); }
    nd_core::InputWatcher* watcher() override { return m_watcher.get(); }
    nd_core::Capture* capture() override { return m_capture.get(); }
    nd_core::Clipboard* clipboard() override { return m_clipboard.get(); }
    nd_core::Overlay* overlay() override { return m_overlay.get(); }
    nd_core::ConsentProvider* consent_dialog() override { return m_consent.get(); }
    nd_core::ConfirmProvider* confirm_dialog() override { return m_confirm.get(); }
    nd_core::Screen* screen() override { return m_screen.get(); }
    nd_core::WindowKeys* window_keys() override { return m_window_keys.get(); }
    nd_core::WindowPointer* window_pointer() override { return m_window_pointer.get(); }
    // By the window's AT-SPI toolkit (asked once per process) and its WM_CLASS.
    nd_core::BackgroundRoutes background_routes(const nd_core::WindowInfo&) override;
    // Every nish process's consent dialog, indicator and Continue button on this display, found by
    // their mark, so that no input of ours lands on one (x11_own_surfaces.h).
    nd_core::OwnSurfaces* own_surfaces() override { return m_own_surfaces.get(); }
    // The per-display takeover lock for one desk act (x11_input_lease.h).
    nd_core::Result<std::unique_ptr<nd_core::InputLease>> lease_input() override;
    nd_core::RegistryReport registry() override;
    // AT_SPI_BUS_ADDRESS, when this process has it and the session bus announces the same address:
    // a Qt 6 app that inherits it never joins the bus (its bridge takes the variable's address
    // before anyone listens for "enabled"), and every toolkit finds the bus on the session bus.
    // NO_AT_BRIDGE too, which would keep the app's bridge off.
    std::vector<std::string> launch_env_hidden() const override;
    // GTK_MODULES with gail:atk-bridge, and the variables Qt, Chromium and Firefox read to turn
    // accessibility on (launch/launch_env.h).
    std::vector<std::string> launch_env_set() const override;
    nd_core::WindowControl* window_control() override { return m_window_control.get(); }
    nd_core::Result<std::vector<std::string>> key_bindings(const nd_core::WindowInfo&, const std::vector<nd_core::Element>&,
        std::chrono::milliseconds deadline) override;

private:
    LinuxBackend() = default;
    void open_takeover_parts();

    // First: the input, the overlay and the dialog read it until they are gone.
    std::unique_ptr<PressClock> m_press_clock;
    std::unique_ptr<PersonRule> m_person_rule; // the dialog's and the indicator's judge of clicks
    std::unique_ptr<X11Display> m_display;
    std::unique_ptr<X11Display> m_input_display; // XTEST on a connection of its own
    std::unique_ptr<X11Display> m_screen_display; // the screen's captures on one of their own
    std::unique_ptr<AtspiBus> m_bus;
    std::unique_ptr<X11WindowSource> m_windows;
    std::unique_ptr<X11WindowControl> m_window_control;
    std::unique_ptr<X11Capture> m_capture;
    std::unique_ptr<X11Capture> m_screen_capture; // on m_screen_display
    std::unique_ptr<X11Screen> m_screen;
    std::unique_ptr<X11OwnSurfaces> m_own_surfaces;
    std::unique_ptr<X11Clipboard> m_clipboard;
    std::unique_ptr<X11Input> m_input;
    std::unique_ptr<X11InputWatcher> m_watcher;
    std::unique_ptr<X11Overlay> m_overlay;
    std::unique_ptr<X11ConsentDialog> m_consent;
    std::unique_ptr<X11ConfirmDialog> m_confirm;
    std::unique_ptr<AtspiTreeReader> m_trees;
    std::unique_ptr<AtspiFinder> m_finder;
    std::unique_ptr<AtspiActuator> m_actuator;
    std::unique_ptr<X11WindowKeys> m_window_keys;
    std::unique_ptr<X11WindowPointer> m_window_pointer;
    std::mutex m_toolkits_mutex;
    std::map<std::int64_t, std::string> m_toolkits; // AT-SPI toolkit by pid (bounded)
};

} // namespace nd_linux
