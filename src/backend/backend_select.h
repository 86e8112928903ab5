#pragma once

// Backends by name (STYLE.md habit 3): which exist in this build, and opening one. A name this build
// does not have answers with a clear reason instead of a silent fallback.

#include "core/backend/backend.h"

#include <memory>
#include <string>
#include <vector>

namespace nd_backend {

struct BackendOptions {
    std::string name = "auto"; // auto | mock | linux
    std::string fixture_dir;   // mock: empty = the shipped fixtures
};

nd_core::Result<std::unique_ptr<nd_core::Backend>> open_backend(const BackendOptions&);

// The registry of a machine whose platform backend could not be opened: what the doctor reports
// without a backend (x11 and atspi not built in this build, wayland planned).
nd_core::RegistryReport platform_report_without_backend();

} // namespace nd_backend
