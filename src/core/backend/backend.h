#pragma once

// A backend is a set of small interfaces chosen by name (--backend mock|linux). It owns them; the
// engine borrows them for its lifetime. A part the backend lacks is null, and the tools that need it
// answer unsupported or backend_unavailable. registry() reports the backend's registry entries and
// capabilities (§6) from real probes.

#include "core/backend/actuator.h"
#include "core/backend/capture.h"
#include "core/backend/clipboard.h"
#include "core/backend/confirm.h"
#include "core/backend/window_keys.h"
#include "core/backend/window_pointer.h"
#include "core/model/background_routes.h"
#include "core/backend/consent.h"
#include "core/backend/element_finder.h"
#include "core/backend/input_lease.h"
#include "core/backend/input_watcher.h"
#include "core/backend/overlay.h"
#include "core/backend/own_surfaces.h"
#include "core/backend/screen.h"
#include "core/backend/synthetic_input.h"
#include "core/backend/tree_reader.h"
#include "core/backend/window_source.h"
#include "core/backend/registry.h"

#include <string>
#include <vector>

namespace nd_core {

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    virtual std::string session_type() const = 0; // "mock", "x11", ...

    virtual WindowSource* windows() = 0;
    virtual TreeReader* trees() = 0;
    virtual ElementFinder* finder() = 0; // searches by name and role (docs/linux-atspi.md)
    virtual Actuator* actuator() = 0;
    virtual SyntheticInput* input() = 0;
    virtual InputWatcher* watcher() = 0;
    virtual Capture* capture() = 0;
    virtual Clipboard* clipboard() = 0;
    virtual Overlay* overlay() = 0;

    // The whole screen, for the desk (screen.h); null when the backend has none.
    virtual Screen* screen() { return nullptr; }

    // The windows only the person may answer (own_surfaces.h), of every nish process on this
    // display; null when the backend shows none. Every input path asks it before sending.
    virtual OwnSurfaces* own_surfaces() { return nullptr; }

    // The right to send synthetic input for one act (input_lease.h), taken without waiting. Refused
    // (backend_unavailable) while another program's takeover holds the display. The default grants
    // it: a backend whose input nobody else shares needs no lock.
    virtual Result<std::unique_ptr<InputLease>> lease_input() { return free_input_lease(); }

    virtual RegistryReport registry() = 0;
    // Environment variables an app the desk starts must not inherit from this process (the Linux
    // backend: AT_SPI_BUS_ADDRESS when the session bus announces the same bus, docs/linux-atspi.md).
    virtual std::vector<std::string> launch_env_hidden() const { return {}; }
    // Environment variables ("NAME=value") an app the desk starts is given, in place of any it
    // would inherit (the Linux backend: every toolkit's accessibility on, docs/linux-atspi.md).
    virtual std::vector<std::string> launch_env_set() const { return {}; }
    // The platform's own consent dialog (§6), the default consent provider with this backend;
    // null when the backend has none (then only --consent auto grants anything).
    virtual ConsentProvider* consent_dialog() { return nullptr; }
    // The platform's own confirm dialog (core/backend/confirm.h) for confirm mode; null when the
    // backend has none (then confirm mode refuses every call it would ask about).
    virtual ConfirmProvider* confirm_dialog() { return nullptr; }
    // Key events sent to one window without focusing it (window_keys.h); null when the backend
    // has no such route.
    virtual WindowKeys* window_keys() { return nullptr; }
    // Button events sent to one window without raising it (window_pointer.h); null when the
    // backend has no such route.
    virtual WindowPointer* window_pointer() { return nullptr; }
    // The background input routes the window's toolkit takes (model/background_routes.h).
    virtual BackgroundRoutes background_routes(const WindowInfo&) { return {"", {}, "this backend sends no background input"}; }
};

} // namespace nd_core
