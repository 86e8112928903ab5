// The routes-per-toolkit table (core/model/background_routes.h): Qt takes sent key and button
// events, GTK3, GTK4, Chromium and an unknown AT-SPI toolkit get the AT-SPI routes only, and xterm, or an app without AT-SPI, gets none, each saying why.

#include "core/model/background_routes.h"

#include <gtest/gtest.h>

namespace {

using nd_core::background_routes;

TEST(BackgroundRoutes, QtTakesKeysTheOthersDoNot)
{
    const auto qt = background_routes("Qt", "codeeditor");
    EXPECT_EQ(qt.toolkit, "Qt");
    EXPECT_TRUE(qt.takes("keys"));
    EXPECT_TRUE(qt.takes("actions"));
    for (const char* name : {"gtk", "GTK", "Chromium", "chrome", "SomethingNew"}) {
        const auto r = background_routes(name, "app");
        EXPECT_FALSE(r.takes("keys")) << name;
        EXPECT_TRUE(r.takes("actions")) << name;
        EXPECT_FALSE(r.note.empty()) << name;
    }
    EXPECT_TRUE(background_routes("gtk", "").takes("text"));
    EXPECT_FALSE(background_routes("Chromium", "").takes("text")) << "its web fields have no EditableText";
    EXPECT_EQ(background_routes("gtk", "").toolkit, "GTK3");
    EXPECT_EQ(background_routes("GTK", "").toolkit, "GTK4");
    EXPECT_EQ(background_routes("SomethingNew", "").toolkit, "SomethingNew");
}

TEST(BackgroundRoutes, QtTakesButtonEventsTheOthersDoNot)
{
    EXPECT_TRUE(background_routes("Qt", "").takes("buttons"));
    for (const char* name : {"gtk", "GTK", "Chromium", "SomethingNew"})
        EXPECT_FALSE(background_routes(name, "").takes("buttons")) << name;
    EXPECT_FALSE(background_routes("", "XTerm").takes("buttons"));
}

TEST(BackgroundRoutes, XtermAndAppsWithoutAtspiGetNone)
{
    for (const char* cls : {"XTerm", "UXTerm"}) {
        const auto r = background_routes("", cls);
        EXPECT_EQ(r.toolkit, "Xt");
        EXPECT_TRUE(r.routes.empty());
        EXPECT_NE(r.note.find("allowSendEvents"), std::string::npos);
    }
    const auto unknown = background_routes("", "SomeGame");
    EXPECT_TRUE(unknown.routes.empty());
    EXPECT_NE(unknown.note.find("no accessibility interface"), std::string::npos);
}

} // namespace
