#include "backend/linux/linux_registry.h"

namespace nd_linux {

namespace {

using nd_core::CapabilityEntry;
using nd_core::ConsentKind;
using nd_core::Status;

CapabilityEntry cap(std::string name, Status status, std::optional<std::string> reason, ConsentKind consent)
{
    if (status == Status::available)
        reason.reset();
    return {std::move(name), status, std::move(reason), consent};
}

std::optional<std::string> x11_reason(const X11Probe& x)
{
    if (!x.reachable)
        return "display_unreachable";
    if (!x.local)
        return "display_not_local";
    return std::nullopt;
}

std::optional<std::string> atspi_reason(const AtspiProbe& a)
{
    if (!a.advertised)
        return "atspi_bus_not_advertised";
    if (!a.reachable)
        return "atspi_bus_unreachable";
    return std::nullopt;
}

} // namespace

nd_core::RegistryReport linux_registry(const X11Probe& x, const AtspiProbe& a)
{
    nd_core::RegistryReport r;
    r.platform = "linux";
    r.session_type = x.reachable ? "x11" : "none";
    r.background_input = nd_core::measured_background_routes();
    const auto xr = x11_reason(x);
    const auto ar = atspi_reason(a);
    r.backends = {
        {"x11", xr ? Status::unavailable : Status::available, true, xr},
        {"atspi", ar ? Status::unavailable : Status::available, true, ar},
        nd_core::planned_wayland_entry(),
    };
    const auto tree_status = ar ? Status::unavailable : Status::available;
    std::optional<std::string> capture_reason = xr;
    if (!capture_reason && !x.extensions.composite)
        capture_reason = "composite_missing";
    // The clipboard is X11Clipboard; clipboard_read also needs the host's approval per call, which
    // the dispatcher asks on the control pipe (and refuses without one).
    // Takeover needs XTEST (to act), XInput 2.1 (to see the person take control back, §4.3) and
    // SHAPE (a click-through indicator): input_takeover is available only with all three.
    std::optional<std::string> handback_reason = xr;
    if (!xr && !x.extensions.xinput2_1)
        handback_reason = "xinput2_missing";
    std::optional<std::string> indicator_reason = xr;
    if (!xr && !x.extensions.shape)
        indicator_reason = "x11_extension_missing"; // SHAPE: a click-through indicator
    std::optional<std::string> takeover_reason = xr;
    if (!xr && !x.extensions.xtest)
        takeover_reason = "xtest_missing";
    if (!takeover_reason)
        takeover_reason = handback_reason ? handback_reason : indicator_reason;
    auto status_of = [](const std::optional<std::string>& reason) {
        return reason ? Status::unavailable : Status::available;
    };
    r.capabilities = {
        cap("read_tree", tree_status, ar, ConsentKind::session),
        cap("act_semantic", tree_status, ar, ConsentKind::session),
        cap("capture_window", capture_reason ? Status::unavailable : Status::available, capture_reason,
            ConsentKind::session),
        cap("input_takeover", status_of(takeover_reason), takeover_reason, ConsentKind::takeover),
        cap("takeover_indicator", status_of(indicator_reason), indicator_reason, ConsentKind::takeover),
        cap("takeover_handback", status_of(handback_reason), handback_reason, ConsentKind::takeover),
        cap("list_notifications", Status::unsupported, "no_platform_api", ConsentKind::session),
        cap("dismiss_notification", Status::unsupported, "no_platform_api", ConsentKind::session),
        cap("invoke_notification_action", Status::unsupported, "no_platform_api", ConsentKind::session),
        cap("clipboard_read", xr ? Status::unavailable : Status::available, xr, ConsentKind::separate),
        cap("clipboard_write", xr ? Status::unavailable : Status::available, xr, ConsentKind::session),
    };
    r.permissions = {
        {"accessibility", ar ? "missing" : "granted", ar},
        {"screen_capture", "not_applicable", std::nullopt},
    };
    r.probes.push_back({"display server", x.reachable ? "ok" : "fail",
        x.reachable ? "X11 " + x.display + (x.local ? "" : " (not local)") : (x.error.empty() ? "no display" : x.error)});
    if (x.reachable) {
        auto ext = [&](const char* label, bool ok) {
            r.probes.push_back({label, ok ? "ok" : "warn", ok ? "present" : "missing"});
        };
        ext("XTEST", x.extensions.xtest);
        ext("XInput 2.1", x.extensions.xinput2_1);
        ext("X-Resource", x.extensions.xres);
        ext("Composite", x.extensions.composite);
        ext("MIT-SHM", x.extensions.shm);
        ext("RECORD", x.extensions.record);
        // Whether only the person's own mouse can answer the consent dialog and Continue
        // (docs/linux-x11.md, "Who may answer").
        if (!x.extensions.xinput2_1)
            r.probes.push_back({"person-only approvals", "fail",
                "no XInput 2: no click can be told to be the person's, so the consent dialog can only be denied and "
                "Continue never resumes"});
        else if (!x.extensions.record)
            r.probes.push_back({"person-only approvals", "warn",
                "XInput 2 refuses clicks from XTEST devices, but without RECORD a program that sends a click in a "
                "physical device's name cannot be told apart"});
        else
            r.probes.push_back({"person-only approvals", "ok",
                "enforced: XInput 2 names each click's device and RECORD shows every program's synthetic input"});
    }
    r.probes.push_back({"AT-SPI bus", ar ? "fail" : "ok", ar ? (a.error.empty() ? *ar : a.error) : a.address});
    return r;
}

} // namespace nd_linux
