// The Linux registry from probe results: every combination gives a report valid against
// doctor_schema(), with the reason codes of §6.3 and ready only when both required parts are there.

#include "backend/linux/linux_registry.h"
#include "../tools/schema_validate.h"

#include <gtest/gtest.h>

namespace {

using nd_linux::AtspiProbe;
using nd_linux::X11Probe;

X11Probe good_x11()
{
    X11Probe x;
    x.reachable = true;
    x.local = true;
    x.display = ":90";
    x.extensions = {true, true, true, true, true, true};
    return x;
}

AtspiProbe good_atspi()
{
    AtspiProbe a;
    a.reachable = true;
    a.advertised = true;
    a.address = "unix:path=/run/a11y";
    return a;
}

const nd_core::BackendEntry& backend(const nd_core::RegistryReport& r, const std::string& id)
{
    for (const auto& b : r.backends)
        if (b.id == id)
            return b;
    throw std::runtime_error("no backend " + id);
}

TEST(LinuxRegistry, ReadyWithDisplayAndBus)
{
    auto r = nd_linux::linux_registry(good_x11(), good_atspi());
    EXPECT_TRUE(r.ready());
    EXPECT_EQ(r.session_type, "x11");
    EXPECT_EQ(r.capability("read_tree")->status, nd_core::Status::available);
    EXPECT_EQ(r.capability("capture_window")->status, nd_core::Status::available);
    EXPECT_EQ(r.capability("list_notifications")->status, nd_core::Status::unsupported);
    EXPECT_EQ(*r.capability("list_notifications")->reason_code, "no_platform_api");
    EXPECT_TRUE(nd_core::check_report(r).ok());
    EXPECT_EQ(nd_test::schema_errors(nd_core::doctor_schema(), nd_core::doctor_report(r)), "");
}

TEST(LinuxRegistry, ReasonsForEachMissingPart)
{
    X11Probe none;
    none.error = "cannot open display";
    auto r = nd_linux::linux_registry(none, good_atspi());
    EXPECT_FALSE(r.ready());
    EXPECT_EQ(*backend(r, "x11").reason_code, "display_unreachable");
    EXPECT_EQ(r.session_type, "none");

    auto remote = good_x11();
    remote.local = false;
    EXPECT_EQ(*backend(nd_linux::linux_registry(remote, good_atspi()), "x11").reason_code, "display_not_local");

    AtspiProbe unadvertised;
    auto u = nd_linux::linux_registry(good_x11(), unadvertised);
    EXPECT_EQ(*backend(u, "atspi").reason_code, "atspi_bus_not_advertised");
    EXPECT_EQ(u.capability("read_tree")->status, nd_core::Status::unavailable);

    AtspiProbe dead = good_atspi();
    dead.reachable = false;
    EXPECT_EQ(*backend(nd_linux::linux_registry(good_x11(), dead), "atspi").reason_code, "atspi_bus_unreachable");

    auto no_composite = good_x11();
    no_composite.extensions.composite = false;
    EXPECT_EQ(*nd_linux::linux_registry(no_composite, good_atspi()).capability("capture_window")->reason_code,
        "composite_missing");
    auto no_xi = good_x11();
    no_xi.extensions.xinput2_1 = false;
    EXPECT_EQ(*nd_linux::linux_registry(no_xi, good_atspi()).capability("takeover_handback")->reason_code,
        "xinput2_missing");

    for (const auto& report : {r, u}) {
        EXPECT_TRUE(nd_core::check_report(report).ok());
        auto doc = nd_core::doctor_report(report);
        EXPECT_EQ(nd_test::schema_errors(nd_core::doctor_schema(), doc), "");
        EXPECT_FALSE(doc["next_steps"].empty());
    }
}

} // namespace
