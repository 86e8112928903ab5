#include "core/backend/registry.h"

#include "core/version.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <string>

namespace nd_core {

namespace {

struct ReasonRow {
    std::string_view code;
    std::string_view action;
};

// §6.3 in contract order, the reserved Wayland codes last. Each action is one sentence a person
// can follow without knowing the driver's internals.
constexpr std::array<ReasonRow, 18> REASONS = {{
    {"display_unreachable", "Start nish-driver from inside your desktop session, or set DISPLAY to your X display."},
    {"display_not_local", "Run nish-driver on the computer whose screen it should use; remote X displays are not supported."},
    {"x11_extension_missing", "Use an X server that offers the XTEST, XInput 2, Composite and X-Resource extensions, such as Xorg."},
    {"atspi_bus_unreachable", "Turn on assistive technologies in your desktop's accessibility settings, then sign out and in again."},
    {"atspi_bus_not_advertised", "Install at-spi2-core (the accessibility bus), then sign out and in again so apps can find it."},
    {"xres_missing", "Use an X server with the X-Resource extension, such as Xorg, so nish-driver can tell which app owns a window."},
    {"composite_missing", "Turn on the Composite extension of your X server so nish-driver can capture a window's own contents."},
    {"xtest_missing", "Use an X server with the XTEST extension, such as Xorg, to allow visible takeover."},
    {"xinput2_missing", "Use an X server with XInput 2.1 or newer, such as Xorg, so nish-driver notices when you take control back."},
    {"no_platform_api", "Nothing to fix: this system offers no interface for it, so nish-driver does not provide it."},
    {"not_built", "Install a nish-driver build that includes this backend."},
    {"wayland_session_unsupported", "Sign out and choose an X11 (Xorg) session on the login screen; Wayland is not supported yet."},
    {"wayland_portal_not_built", "The Wayland portals backend is planned; use an X11 session for now."},
    {"portal_unavailable", "Install xdg-desktop-portal and your desktop's portal backend, then sign out and in again."},
    {"portal_screencast_denied", "Allow screen sharing for nish-driver when your desktop asks, or in its privacy settings."},
    {"portal_remote_desktop_denied", "Allow remote control for nish-driver when your desktop asks, or in its privacy settings."},
    {"portal_global_shortcuts_denied", "Allow global shortcuts for nish-driver in your desktop's settings so the stop shortcut works."},
    {"compositor_unsupported", "Use a desktop whose compositor offers the screen cast and remote desktop portals, such as GNOME or KDE Plasma."},
}};

constexpr std::array<std::string_view, 11> CAPABILITIES = {
    "read_tree",          "act_semantic",         "capture_window",
    "input_takeover",     "takeover_indicator",   "takeover_handback",
    "list_notifications", "dismiss_notification", "invoke_notification_action",
    "clipboard_read",     "clipboard_write",
};

constexpr std::array<std::string_view, 6> SESSION_TYPES = {"x11", "wayland", "none", "mock", "aqua", "desktop"};
constexpr std::array<std::string_view, 3> PERMISSION_STATUSES = {"granted", "missing", "not_applicable"};
constexpr std::array<std::string_view, 3> PROBE_STATUSES = {"ok", "warn", "fail"};

template<std::size_t N>
bool one_of(const std::array<std::string_view, N>& names, std::string_view name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

template<std::size_t N>
nlohmann::json enum_of(const std::array<std::string_view, N>& names)
{
    nlohmann::json out = nlohmann::json::array();
    for (std::string_view n : names)
        out.push_back(n);
    return out;
}

nlohmann::json reason_json(const std::optional<std::string>& reason)
{
    return reason ? nlohmann::json(*reason) : nlohmann::json(nullptr);
}

// The action of a reason code, or null when there is no code (or an unknown one, which
// check_report() refuses).
nlohmann::json action_json(const std::optional<std::string>& reason)
{
    std::string_view action = reason ? reason_action(*reason) : std::string_view{};
    return action.empty() ? nlohmann::json(nullptr) : nlohmann::json(action);
}

Error report_error(std::string message) { return make_error(ErrorCode::internal_error, std::move(message)); }

} // namespace

const std::vector<std::string_view>& reason_codes()
{
    static const std::vector<std::string_view> codes = [] {
        std::vector<std::string_view> out;
        for (const ReasonRow& row : REASONS)
            out.push_back(row.code);
        return out;
    }();
    return codes;
}

bool is_reason_code(std::string_view code) { return !reason_action(code).empty(); }

std::string_view reason_action(std::string_view reason_code)
{
    for (const ReasonRow& row : REASONS)
        if (row.code == reason_code)
            return row.action;
    return {};
}

const std::vector<std::string_view>& capability_names()
{
    static const std::vector<std::string_view> names(CAPABILITIES.begin(), CAPABILITIES.end());
    return names;
}

std::string_view status_name(Status status)
{
    switch (status) {
    case Status::available: return "available";
    case Status::unavailable: return "unavailable";
    case Status::unsupported: return "unsupported";
    case Status::planned: return "planned";
    }
    return "unavailable";
}

std::string_view consent_name(ConsentKind consent)
{
    switch (consent) {
    case ConsentKind::session: return "session";
    case ConsentKind::takeover: return "takeover";
    case ConsentKind::separate: return "separate";
    case ConsentKind::host_approval: return "host_approval";
    }
    return "separate";
}

bool RegistryReport::ready() const
{
    // A registry with nothing required cannot read or act on anything, so it is not ready.
    bool any_required = false;
    for (const BackendEntry& b : backends) {
        if (!b.required)
            continue;
        any_required = true;
        if (b.status != Status::available)
            return false;
    }
    return any_required;
}

const CapabilityEntry* RegistryReport::capability(std::string_view name) const
{
    for (const CapabilityEntry& c : capabilities)
        if (c.name == name)
            return &c;
    return nullptr;
}

Result<void> check_report(const RegistryReport& report)
{
    if (!one_of(SESSION_TYPES, report.session_type))
        return report_error("unknown session_type in the registry report");
    auto check_reason = [](const std::optional<std::string>& reason, bool needed, std::string_view what,
                           std::size_t i) -> Result<void> {
        if (reason && !is_reason_code(*reason))
            return report_error(std::string(what) + " " + std::to_string(i) + " has an unknown reason_code");
        if (needed && !reason)
            return report_error(std::string(what) + " " + std::to_string(i) + " is not available and gives no reason_code");
        if (!needed && reason)
            return report_error(std::string(what) + " " + std::to_string(i) + " is available but carries a reason_code");
        return {};
    };
    for (std::size_t i = 0; i < report.backends.size(); ++i) {
        const BackendEntry& b = report.backends[i];
        if (b.id.empty())
            return report_error("backend " + std::to_string(i) + " has no id");
        TRY_VOID(check_reason(b.reason_code, b.status != Status::available, "backend", i));
    }
    for (std::size_t i = 0; i < report.capabilities.size(); ++i) {
        const CapabilityEntry& c = report.capabilities[i];
        if (!one_of(CAPABILITIES, c.name))
            return report_error("capability " + std::to_string(i) + " has an unknown name");
        TRY_VOID(check_reason(c.reason_code, c.status != Status::available, "capability", i));
    }
    for (std::size_t i = 0; i < report.permissions.size(); ++i) {
        const PermissionEntry& p = report.permissions[i];
        if (p.name.empty() || !one_of(PERMISSION_STATUSES, p.status))
            return report_error("permission " + std::to_string(i) + " has no name or an unknown status");
        TRY_VOID(check_reason(p.reason_code, p.status == "missing", "permission", i));
    }
    for (std::size_t i = 0; i < report.probes.size(); ++i)
        if (report.probes[i].label.empty() || !one_of(PROBE_STATUSES, report.probes[i].status))
            return report_error("probe " + std::to_string(i) + " has no label or an unknown status");
    return {};
}

nlohmann::json backends_json(const RegistryReport& report)
{
    nlohmann::json out = nlohmann::json::array();
    for (const BackendEntry& b : report.backends)
        out.push_back({{"id", b.id},
                       {"status", status_name(b.status)},
                       {"required", b.required},
                       {"reason_code", reason_json(b.reason_code)},
                       {"action", action_json(b.reason_code)}});
    return out;
}

nlohmann::json capabilities_json(const RegistryReport& report)
{
    nlohmann::json out = nlohmann::json::array();
    for (const CapabilityEntry& c : report.capabilities)
        out.push_back({{"name", c.name},
                       {"status", status_name(c.status)},
                       {"reason_code", reason_json(c.reason_code)},
                       {"action", action_json(c.reason_code)},
                       {"consent", consent_name(c.consent)}});
    return out;
}

namespace {

nlohmann::json permissions_json(const RegistryReport& report)
{
    nlohmann::json out = nlohmann::json::array();
    for (const PermissionEntry& p : report.permissions)
        out.push_back({{"name", p.name},
                       {"status", p.status},
                       {"reason_code", reason_json(p.reason_code)},
                       {"action", action_json(p.reason_code)}});
    return out;
}

// One step per distinct reason code, in the order the report first gives it: unavailable backends
// first, then missing permissions, which join the step of a backend with the same reason.
nlohmann::json next_steps_json(const RegistryReport& report)
{
    nlohmann::json steps = nlohmann::json::array();
    auto step_for = [&steps](const std::string& reason) -> nlohmann::json& {
        for (nlohmann::json& step : steps)
            if (step["reason_code"] == reason)
                return step;
        steps.push_back({{"reason_code", reason},
                         {"backend", nullptr},
                         {"permission", nullptr},
                         {"required", false},
                         {"action", action_json(reason)}});
        return steps.back();
    };
    for (const BackendEntry& b : report.backends) {
        if (b.status != Status::unavailable || !b.reason_code)
            continue;
        nlohmann::json& step = step_for(*b.reason_code);
        if (step["backend"].is_null())
            step["backend"] = b.id;
        step["required"] = step["required"].get<bool>() || b.required;
    }
    for (const PermissionEntry& p : report.permissions) {
        if (p.status != "missing" || !p.reason_code)
            continue;
        nlohmann::json& step = step_for(*p.reason_code);
        if (step["permission"].is_null())
            step["permission"] = p.name;
        step["required"] = step["required"].get<bool>() || p.required;
    }
    return steps;
}

} // namespace

nlohmann::json doctor_report(const RegistryReport& report)
{
    nlohmann::json probes = nlohmann::json::array();
    for (const Probe& p : report.probes)
        probes.push_back({{"label", p.label}, {"status", p.status}, {"message", p.message}});
    bool ready = report.ready();
    nlohmann::json out = {
        {"schema", "nish-driver/doctor"},
        {"schema_version", 2},
        {"driver_version", DRIVER_VERSION},
        {"contract_version", CONTRACT_VERSION},
        {"platform", report.platform},
        {"session_type", report.session_type},
        {"ready", ready},
        {"backends", backends_json(report)},
        {"capabilities", capabilities_json(report)},
        {"permissions", permissions_json(report)},
        {"next_steps", next_steps_json(report)},
        // The driver has no network code at all; the report says so for the first-run wizard.
        {"network", {{"code_paths", "none"}, {"telemetry", false}, {"update_check", false}}},
        {"ok", ready},
        {"probes", std::move(probes)},
    };
    if (!report.background_input.empty()) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& r : report.background_input)
            rows.push_back({{"toolkit", r.toolkit}, {"routes", r.routes}, {"note", r.note}});
        out["background_input"] = std::move(rows);
    }
    return out;
}

BackendEntry planned_wayland_entry()
{
    return BackendEntry{"wayland-portal", Status::planned, false, std::string("wayland_portal_not_built")};
}

namespace {

nlohmann::json nullable(nlohmann::json schema) { return {{"oneOf", nlohmann::json::array({{{"type", "null"}}, std::move(schema)})}}; }

nlohmann::json object_schema(const std::vector<std::string_view>& required, nlohmann::json properties)
{
    return {{"type", "object"},
            {"required", required},
            {"properties", std::move(properties)},
            {"additionalProperties", false}};
}

// An entry that is available has no reason and no action; any other status names its reason.
nlohmann::json reason_rule(const nlohmann::json& status_when_fine)
{
    return {{"if", {{"properties", {{"status", status_when_fine}}}}},
            {"then", {{"properties", {{"reason_code", {{"type", "null"}}}, {"action", {{"type", "null"}}}}}}},
            {"else", {{"properties", {{"reason_code", {{"type", "string"}}}, {"action", {{"type", "string"}}}}}}}};
}

nlohmann::json build_doctor_schema()
{
    const nlohmann::json reason = {{"type", "string"}, {"enum", reason_codes()}};
    const nlohmann::json action = {{"type", "string"}, {"minLength", 1}};
    const nlohmann::json status = {{"type", "string"}, {"enum", nlohmann::json::array({"available", "unavailable", "unsupported", "planned"})}};
    const nlohmann::json name = {{"type", "string"}, {"minLength", 1}};
    const nlohmann::json version = {{"type", "string"}, {"pattern", "^[0-9]+\\.[0-9]+\\.[0-9]+"}};

    nlohmann::json backend = object_schema(
        {"id", "status", "required", "reason_code", "action"},
        {{"id", name}, {"status", status}, {"required", {{"type", "boolean"}}},
         {"reason_code", nullable(reason)}, {"action", nullable(action)}});
    backend.update(reason_rule({{"const", "available"}}));

    nlohmann::json capability = object_schema(
        {"name", "status", "reason_code", "action", "consent"},
        {{"name", {{"type", "string"}, {"enum", capability_names()}}}, {"status", status},
         {"reason_code", nullable(reason)}, {"action", nullable(action)},
         {"consent", {{"type", "string"}, {"enum", nlohmann::json::array({"session", "takeover", "separate", "host_approval"})}}}});
    capability.update(reason_rule({{"const", "available"}}));

    nlohmann::json permission = object_schema(
        {"name", "status", "reason_code", "action"},
        {{"name", name}, {"status", {{"type", "string"}, {"enum", enum_of(PERMISSION_STATUSES)}}},
         {"reason_code", nullable(reason)}, {"action", nullable(action)}});
    permission.update(reason_rule({{"enum", nlohmann::json::array({"granted", "not_applicable"})}}));

    nlohmann::json step = object_schema(
        {"reason_code", "backend", "permission", "required", "action"},
        {{"reason_code", reason}, {"backend", nullable(name)}, {"permission", nullable(name)},
         {"required", {{"type", "boolean"}}}, {"action", action}});
    // A step explains at least one thing: a backend, a permission or both.
    step["not"] = {{"properties", {{"backend", {{"type", "null"}}}, {"permission", {{"type", "null"}}}}}};

    nlohmann::json network = object_schema(
        {"code_paths", "telemetry", "update_check"},
        {{"code_paths", {{"const", "none"}}}, {"telemetry", {{"const", false}}}, {"update_check", {{"const", false}}}});

    nlohmann::json probe = object_schema(
        {"label", "status", "message"},
        {{"label", name}, {"status", {{"type", "string"}, {"enum", enum_of(PROBE_STATUSES)}}},
         {"message", {{"type", "string"}}}});

    auto array_of = [](nlohmann::json items) { return nlohmann::json{{"type", "array"}, {"items", std::move(items)}}; };
    nlohmann::json schema = object_schema(
        {"schema", "schema_version", "driver_version", "contract_version", "platform", "session_type", "ready",
         "backends", "capabilities", "permissions", "next_steps", "network", "ok", "probes"},
        {{"schema", {{"const", "nish-driver/doctor"}}},
         {"schema_version", {{"const", 2}}},
         {"driver_version", version},
         {"contract_version", version},
         {"platform", name},
         {"session_type", {{"type", "string"}, {"enum", enum_of(SESSION_TYPES)}}},
         {"ready", {{"type", "boolean"}}},
         {"backends", array_of(backend)},
         {"capabilities", array_of(capability)},
         {"permissions", array_of(permission)},
         {"next_steps", array_of(step)},
         {"network", network},
         {"ok", {{"type", "boolean"}}},
         {"probes", array_of(probe)}});
    // Optional: the toolkits' background input routes (docs/desk-background.md).
    schema["properties"]["background_input"] = array_of(object_schema({"toolkit", "routes", "note"},
        {{"toolkit", {{"type", "string"}}},
         {"routes", array_of({{"type", "string"}, {"enum", nlohmann::json::array({"actions", "text", "value", "keys", "buttons"})}})},
         {"note", {{"type", "string"}}}}));
    schema["$schema"] = "http://json-schema.org/draft-07/schema#";
    schema["title"] = "nish-driver doctor report";
    // ok is the 0.6 name of ready and always equals it.
    schema["oneOf"] = nlohmann::json::array({
        {{"properties", {{"ready", {{"const", true}}}, {"ok", {{"const", true}}}}}},
        {{"properties", {{"ready", {{"const", false}}}, {"ok", {{"const", false}}}}}},
    });
    return schema;
}

} // namespace

const nlohmann::json& doctor_schema()
{
    static const nlohmann::json schema = build_doctor_schema();
    return schema;
}

} // namespace nd_core
