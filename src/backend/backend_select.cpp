#include "backend/backend_select.h"

#include "backend/mock/mock_backend.h"

#if NISH_HAVE_LINUX_BACKEND
#    include "backend/linux/linux_backend.h"
#    include "backend/linux/linux_registry.h"
#endif

#include <cstdlib>

namespace nd_backend {

using nd_core::ErrorCode;
using nd_core::make_error;

nd_core::Result<std::unique_ptr<nd_core::Backend>> open_backend(const BackendOptions& options)
{
    if (options.name == "mock") {
        auto dir = options.fixture_dir.empty() ? nd_mock::MockBackend::default_fixture_dir() : options.fixture_dir;
        auto mock = TRY(nd_mock::MockBackend::load(dir));
        return std::unique_ptr<nd_core::Backend>(std::move(mock));
    }
#if NISH_HAVE_LINUX_BACKEND
    if (options.name == "linux" || options.name == "auto") {
        auto linux_backend = nd_linux::LinuxBackend::open();
        if (!linux_backend.ok()) {
            auto e = std::move(linux_backend).error();
            if (options.name == "auto")
                e.message += "; run nish-driver doctor, or --backend mock for the scripted test desktop";
            return e;
        }
        return std::unique_ptr<nd_core::Backend>(std::move(linux_backend).value());
    }
#else
    if (options.name == "linux" || options.name == "auto")
        return make_error(ErrorCode::backend_unavailable,
            "this build has no Linux backend; run with --backend mock for the scripted test desktop");
#endif
    return make_error(ErrorCode::invalid_arguments, "unknown backend '" + options.name + "' (known: mock, linux)");
}

nd_core::RegistryReport platform_report_without_backend()
{
#if NISH_HAVE_LINUX_BACKEND
    // Built with the Linux backend: the probes say why it could not open.
    return nd_linux::linux_registry(nd_linux::probe_x11(), nd_linux::probe_atspi());
#else
    nd_core::RegistryReport r;
    r.platform = "linux";
    r.session_type = "none";
    r.backends = {
        {"x11", nd_core::Status::unavailable, true, "not_built"},
        {"atspi", nd_core::Status::unavailable, true, "not_built"},
        nd_core::planned_wayland_entry(),
    };
    for (auto name : nd_core::capability_names()) {
        nd_core::CapabilityEntry c{std::string(name), nd_core::Status::unavailable, "not_built", nd_core::ConsentKind::session};
        if (name == "list_notifications" || name == "dismiss_notification" || name == "invoke_notification_action") {
            c.status = nd_core::Status::unsupported;
            c.reason_code = "no_platform_api";
        }
        if (name == "input_takeover" || name == "takeover_indicator" || name == "takeover_handback")
            c.consent = nd_core::ConsentKind::takeover;
        if (name == "clipboard_read")
            c.consent = nd_core::ConsentKind::separate;
        r.capabilities.push_back(std::move(c));
    }
    r.permissions = {{"accessibility", "missing", "not_built"}, {"screen_capture", "not_applicable", std::nullopt}};
    r.probes = {{"backend", "fail", "this build has no Linux backend"}};
    return r;
#endif
}

} // namespace nd_backend
