// config.toml (docs/config.md): the keys this desk knows, their types, and clear errors for the rest.

#include "desk/config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

using nd_desk::parse_config;

TEST(DeskConfig, EmptyTextIsTheDefaults)
{
    auto c = parse_config("");
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_TRUE(c->allow.empty());
    EXPECT_FALSE(c->socket_group.has_value());
    EXPECT_TRUE(c->allows("anything"));
}

TEST(DeskConfig, KnownKeys)
{
    auto c = parse_config(R"(
[daemon]
socket_group = "desk"

[apps]
allow = ["gtk3-widget-factory", "Zenity"]

[input]
confirm = "off"
background = false

[tools]
plugins = "/opt/shuttle/tools.d"
)");
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->socket_group, "desk");
    EXPECT_TRUE(c->allows("gtk3-widget-factory"));
    EXPECT_TRUE(c->allows("zenity")) << "app names compare without case";
    EXPECT_FALSE(c->allows("chromium"));
    EXPECT_EQ(c->plugins_dir, "/opt/shuttle/tools.d");
}

TEST(DeskConfig, ErrorsNameTheKeyOrThePlace)
{
    struct Case {
        const char* text;
        const char* expected;
    } cases[] = {
        {"[apps]\nalow = []\n", "apps.alow"},
        {"[apps]\nallow = \"gedit\"\n", "apps.allow must be a list"},
        {"[apps]\nallow = [1]\n", "app names"},
        {"[daemon]\nsocket_group = 5\n", "socket_group"},
        {"[input]\nbackground = 1\n", "input.background must be true or false"},
        {"[input]\nmode = \"sideways\"\n", "input.mode must be"},
        {"[input]\nmode = \"foreground\"\nbackground = true\n", "contradicts input.mode"},
        {"[input]\nconfirm = \"always\"\n", "input.confirm must be \"off\", \"acts\" or \"all\""},
        {"[input]\nconfirm = true\n", "input.confirm must be"},
        {"[input]\nconfirm_timeout_s = 0\n", "input.confirm_timeout_s must be a whole number of seconds from 1 to 600"},
        {"[input]\nconfirm_timeout_s = 601\n", "input.confirm_timeout_s"},
        {"[input]\nconfirm_timeout_s = 2.5\n", "input.confirm_timeout_s"},
        {"[input]\nconfirm_timeout_s = \"30\"\n", "input.confirm_timeout_s"},
        {"[tools]\nplugins = \"relative\"\n", "absolute"},
        {"[tools]\nscript_run = 0\n", "tools.script_run must be true or false"},
        {"[nonsense]\n", "unknown key"},
        {"[apps\nallow = []\n", "line 1"},
        {"apps = 3\n", "must be a table"},
    };
    for (const auto& c : cases) {
        auto r = parse_config(c.text, "/x/config.toml");
        ASSERT_FALSE(r.ok()) << c.text;
        EXPECT_NE(r.error().message.find(c.expected), std::string::npos) << c.text << " -> " << r.error().message;
        EXPECT_NE(r.error().message.find("config.toml"), std::string::npos);
    }
}

TEST(DeskConfig, ConfirmIsOffActsOrAllWithATimeout)
{
    using Confirm = nd_desk::DeskConfig::ConfirmMode;
    auto none = parse_config("", "/x/config.toml");
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none->confirm, Confirm::off);
    EXPECT_EQ(none->confirm_timeout_s, 30);
    auto acts = parse_config("[input]\nconfirm = \"acts\"\nconfirm_timeout_s = 45\n", "/x/config.toml");
    ASSERT_TRUE(acts.ok()) << acts.error().text();
    EXPECT_EQ(acts->confirm, Confirm::acts);
    EXPECT_EQ(acts->confirm_timeout_s, 45);
    auto all = parse_config("[input]\nconfirm = \"all\"\n", "/x/config.toml");
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(all->confirm, Confirm::all);
}

TEST(DeskConfig, InputModeIsForegroundBackgroundOrAutoAndBackgroundTrueMeansBackground)
{
    using Mode = nd_desk::DeskConfig::InputMode;
    const std::pair<const char*, Mode> cases[] = {
        {"", Mode::foreground},
        {"[input]\nmode = \"foreground\"\n", Mode::foreground},
        {"[input]\nmode = \"background\"\n", Mode::background},
        {"[input]\nmode = \"auto\"\n", Mode::automatic},
        {"[input]\nbackground = true\n", Mode::background},
        {"[input]\nbackground = false\n", Mode::foreground},
        {"[input]\nbackground = true\nmode = \"auto\"\n", Mode::automatic},
    };
    for (const auto& [text, mode] : cases) {
        auto r = parse_config(text, "/x/config.toml");
        ASSERT_TRUE(r.ok()) << text << " -> " << r.error().message;
        EXPECT_EQ(r->input_mode, mode) << text;
    }
}

TEST(DeskConfig, AMissingFileIsTheDefaultsAndAnUnreadableOneAnError)
{
    auto missing = nd_desk::load_config("/nonexistent-dir/config.toml");
    ASSERT_TRUE(missing.ok()) << missing.error().message;
    auto dir = nd_desk::load_config("/");
    EXPECT_FALSE(dir.ok() && !dir->allow.empty());
}

namespace {

// Found by config_fuzz: a whole-number key given a float too big for int64 is refused, never cast.
TEST(ConfigFuzzFindings, AHugeFloatForAnIntegerKeyIsRefused)
{
    for (const char* text : {"[input]\nconfirm_timeout_s = 5e40\n", "[models]\ntimeout_ms = 5e40\n"}) {
        auto config = nd_desk::parse_config(text);
        ASSERT_FALSE(config) << text;
        EXPECT_EQ(config.error().code, nd_core::ErrorCode::invalid_arguments);
    }
}

} // namespace
