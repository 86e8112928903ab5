#pragma once

// The contract this driver implements and the driver's own version. The contract version is
// reported by `nish-driver --version`, health_report and the doctor; this is its one source.
namespace nd_core {

inline constexpr const char* CONTRACT_VERSION = "0.8.0";
inline constexpr const char* DRIVER_VERSION = NISH_DRIVER_VERSION;

} // namespace nd_core
