// The mock's registry report (§6): the mock backend itself, the planned Wayland entry every
// backend lists, and capabilities that mirror Linux/X11 (notifications have no platform API there,
// so the mock reports them unsupported rather than faking them).

#include "backend/mock/mock_backend.h"

#include <array>

namespace nd_mock {

namespace {

using nd_core::CapabilityEntry;
using nd_core::ConsentKind;
using nd_core::Status;

struct CapabilityRow {
    const char* name;
    Status status;
    ConsentKind consent;
};

// §6.2, in contract order.
constexpr std::array<CapabilityRow, 11> CAPABILITIES = {{
    {"read_tree", Status::available, ConsentKind::session},
    {"act_semantic", Status::available, ConsentKind::session},
    {"capture_window", Status::available, ConsentKind::session},
    {"input_takeover", Status::available, ConsentKind::takeover},
    {"takeover_indicator", Status::available, ConsentKind::takeover},
    {"takeover_handback", Status::available, ConsentKind::takeover},
    {"list_notifications", Status::unsupported, ConsentKind::session},
    {"dismiss_notification", Status::unsupported, ConsentKind::session},
    {"invoke_notification_action", Status::unsupported, ConsentKind::session},
    {"clipboard_read", Status::available, ConsentKind::separate},
    {"clipboard_write", Status::available, ConsentKind::session},
}};

} // namespace

nd_core::RegistryReport MockBackend::registry()
{
    nd_core::RegistryReport report;
    report.platform = "linux";
    report.session_type = "mock";
    report.backends.push_back(nd_core::BackendEntry{"mock", Status::available, true, std::nullopt});
    report.backends.push_back(nd_core::planned_wayland_entry());
    for (const auto& row : CAPABILITIES) {
        CapabilityEntry entry;
        entry.name = row.name;
        entry.status = row.status;
        entry.consent = row.consent;
        if (row.status == Status::unsupported)
            entry.reason_code = "no_platform_api";
        report.capabilities.push_back(std::move(entry));
    }
    report.permissions.push_back(nd_core::PermissionEntry{"accessibility", "not_applicable", std::nullopt});
    report.permissions.push_back(nd_core::PermissionEntry{"screen_capture", "not_applicable", std::nullopt});

    std::size_t files = 0, windows = 0;
    {
        std::lock_guard lock(m_state->mutex);
        files = m_state->fixture_files.size();
        windows = m_state->windows.size();
    }
    report.probes.push_back(nd_core::Probe{"mock desktop", "ok",
                                           std::to_string(files) + " fixture files loaded, " +
                                               std::to_string(windows) + " windows open"});
    return report;
}

} // namespace nd_mock
