#pragma once

// The Linux backend's registry entries and capabilities (§6), from real probes of the display and
// the accessibility bus. A pure function of the probe results, so the doctor's answers for every
// combination are testable without a desktop.

#include "backend/linux/atspi/atspi_probe.h"
#include "backend/linux/x11/x11_probe.h"
#include "core/backend/registry.h"

namespace nd_linux {

nd_core::RegistryReport linux_registry(const X11Probe&, const AtspiProbe&);

} // namespace nd_linux
