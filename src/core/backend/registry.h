#pragma once

// The backend registry and the doctor report (§6). Backends report entries and capabilities from
// real probes; this file turns them into health_report's fields and the doctor report
// (schema "nish-driver/doctor", schema_version 2), and holds the report's JSON Schema.

#include "core/model/background_routes.h"
#include "core/result.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_core {

enum class Status : std::uint8_t { available, unavailable, unsupported, planned };
enum class ConsentKind : std::uint8_t { session, takeover, separate, host_approval };

// Reason codes (§6.3), as strings: display_unreachable, display_not_local, x11_extension_missing,
// atspi_bus_unreachable, atspi_bus_not_advertised, xres_missing, composite_missing, xtest_missing,
// xinput2_missing, no_platform_api, not_built, wayland_session_unsupported, and the reserved
// wayland ones. reason_codes() lists them all; an entry may only use one of these.
const std::vector<std::string_view>& reason_codes();
bool is_reason_code(std::string_view);
// The plain action sentence a person can act on, one per reason code.
std::string_view reason_action(std::string_view reason_code);

struct BackendEntry {
    std::string id; // mock, x11, atspi, wayland-portal
    Status status = Status::available;
    bool required = false;
    std::optional<std::string> reason_code;
};

struct CapabilityEntry {
    std::string name; // read_tree, act_semantic, ... (capability_names())
    Status status = Status::available;
    std::optional<std::string> reason_code;
    ConsentKind consent = ConsentKind::session;
};

struct PermissionEntry {
    std::string name;   // accessibility, screen_capture
    std::string status; // granted, missing, not_applicable
    std::optional<std::string> reason_code;
    // Whether the driver cannot work without it; decides next_steps' required for a missing
    // permission no backend entry explains. Not part of the permissions array itself.
    bool required = false;
};

struct Probe {
    std::string label;
    std::string status; // ok, warn, fail
    std::string message;
};

struct RegistryReport {
    std::string platform = "linux";
    std::string session_type = "none"; // x11, wayland, none, mock
    std::vector<BackendEntry> backends;
    std::vector<CapabilityEntry> capabilities;
    std::vector<PermissionEntry> permissions;
    std::vector<Probe> probes;
    // The background input routes each toolkit takes, as measured on this platform
    // (model/background_routes.h); empty where the backend sends no background input.
    std::vector<BackgroundRoutes> background_input;

    // At least one required backend, and every required backend available.
    bool ready() const;
    const CapabilityEntry* capability(std::string_view name) const;
};

// §6.2, in contract order.
const std::vector<std::string_view>& capability_names();

std::string_view status_name(Status);
std::string_view consent_name(ConsentKind);

// Checks that a report only uses known names and codes (reason codes, capability names, permission
// and probe statuses, session types) and that every entry that is not available says why.
// doctor_report() renders any report; backends call this in their tests.
Result<void> check_report(const RegistryReport&);

// The full doctor report (§6.4).
nlohmann::json doctor_report(const RegistryReport&);
// The doctor report's JSON Schema (draft 7).
const nlohmann::json& doctor_schema();
// health_report's backends and capabilities arrays.
nlohmann::json backends_json(const RegistryReport&);
nlohmann::json capabilities_json(const RegistryReport&);

// The registry entries of a build without a Linux backend, and the planned Wayland entry; shared by
// every backend so the doctor always lists the same ids.
BackendEntry planned_wayland_entry();

} // namespace nd_core
