// Arguments the contract lets a driver ignore (§1) are named, not silent (mcp/ignored_args.h): an
// unknown name with the declared one it likely meant, an optional argument of the wrong type, on
// success and on failure, in the result object and its text; nothing extra when nothing was
// ignored. The desk, which refuses such arguments, names the likely one and the ones it takes.

#include "mcp/ignored_args.h"
#include "tool_harness.h"

#include <gtest/gtest.h>

namespace {

using nlohmann::json;
using nd_test::ToolHarness;

TEST(IgnoredArguments, AnUnknownNameIsNamedWithTheOneItLikelyMeant)
{
    ToolHarness h;
    h.start();
    auto r = h.call("click", {{"element_token", h.token("Settings", "Remember me")}, {"mode", "foreground"}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.structured["effect"], "confirmed") << "the call still runs, as the contract says";
    EXPECT_EQ(r.structured["ignored_arguments"],
        json::array({{{"name", "mode"}, {"reason", "unknown"}, {"did_you_mean", "delivery_mode"}}}));
    EXPECT_NE(r.text.find("\nignored arguments: mode: unknown, did you mean delivery_mode?"), std::string::npos) << r.text;
}

TEST(IgnoredArguments, NamedOnFailureToo)
{
    ToolHarness h;
    h.start();
    auto r = h.call("click", {{"element_token", "s99:1"}, {"delivery_mod", "foreground"}});
    ASSERT_TRUE(r.is_error);
    EXPECT_EQ(r.structured["ok"], false);
    EXPECT_EQ(r.structured["ignored_arguments"][0]["did_you_mean"], "delivery_mode");
    // The error's own text form still leads (§2.1); the line follows it.
    EXPECT_EQ(r.text.rfind(r.code() + ": ", 0), 0u) << r.text;
    EXPECT_NE(r.text.find("\nignored arguments: delivery_mod: unknown, did you mean delivery_mode?"), std::string::npos);
}

TEST(IgnoredArguments, AWrongTypedOptionalArgumentIsNamedWithTheTypeItNeeds)
{
    ToolHarness h;
    h.start();
    auto r = h.call("get_window_state", {{"app", "Settings"}, {"max_elements", "lots"}, {"skeleton", true}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.structured["ignored_arguments"], json::array({{{"name", "max_elements"}, {"reason", "must be an integer"}}}));
}

TEST(IgnoredArguments, NothingIgnoredAddsNothing)
{
    ToolHarness h;
    h.start();
    auto r = h.call("list_windows", json::object());
    EXPECT_FALSE(r.structured.contains("ignored_arguments"));
    EXPECT_EQ(r.text.find("ignored arguments"), std::string::npos);
    // A far-off name gets no guess; many are cut to the first eight.
    json many = json::object();
    for (int i = 0; i < 20; ++i)
        many["zz" + std::to_string(i)] = i;
    auto cut = h.call("list_windows", many);
    ASSERT_EQ(cut.structured["ignored_arguments"].size(), nd_mcp::MAX_IGNORED_NAMED);
    EXPECT_FALSE(cut.structured["ignored_arguments"][0].contains("did_you_mean"));
}

TEST(IgnoredArguments, TheDeskRefusesNamingTheLikelyOneAndTheOnesItTakes)
{
    nd_mcp::ToolDecl decl;
    decl.name = "desk_press";
    decl.policy = nd_mcp::ArgPolicy::refuse;
    decl.args = {{.name = "id", .required = true}, {.name = "window"}};
    auto r = nd_mcp::check_arguments(decl, {{"id", "s1:2"}, {"windw", "x"}});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "windw: desk_press takes no such argument (did you mean window?); it takes id, window");
    EXPECT_TRUE(nd_mcp::ignored_arguments(decl, {{"windw", "x"}}).empty()) << "the desk refuses instead";
}

} // namespace
