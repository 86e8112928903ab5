// The driver's manifest (docs/manifest.md) is made from the registries: its tools are tools/list's
// entries in order with their output schemas, its contract_version is the contract's, and every
// control pipe method it lists is one the pipe answers. (cli_test runs `nish-driver manifest`.)

#include "core/backend/registry.h"
#include "core/version.h"
#include "driver/control/control_commands.h"
#include "driver/dispatcher.h"
#include "driver/manifest.h"
#include "driver/tool_registry.h"
#include "tool_harness.h"

#include <gtest/gtest.h>


namespace {

using nlohmann::json;

TEST(Manifest, CarriesTheContractVersionAndHowToLaunch)
{
    const auto m = nd_driver::manifest();
    EXPECT_EQ(m["schema"], "nish-driver/manifest");
    EXPECT_EQ(m["schema_version"], nd_driver::MANIFEST_SCHEMA_VERSION);
    EXPECT_EQ(m["name"], "nish-driver");
    EXPECT_EQ(m["version"], nd_core::DRIVER_VERSION);
    EXPECT_EQ(m["contract_version"], nd_core::CONTRACT_VERSION);
    EXPECT_EQ(m["launch"]["args"], json({"mcp"}));
    EXPECT_EQ(m["launch"]["transport"], "stdio");
    EXPECT_EQ(m["mcp"]["protocol_versions"][0], "2026-07-28");
    ASSERT_EQ(m["capabilities"].size(), nd_core::capability_names().size());
    EXPECT_EQ(m["capabilities"][0], "read_tree");
}

TEST(Manifest, ItsToolsAreWhatTheServerLists)
{
    nd_test::ToolHarness h;
    nd_driver::Dispatcher dispatcher(h.engine());
    const auto listed = dispatcher.list_tools();
    const auto tools = nd_driver::manifest()["tools"];
    ASSERT_EQ(tools.size(), listed.size());
    for (std::size_t i = 0; i < tools.size(); ++i) {
        auto entry = tools[i];
        const auto name = entry["name"].get<std::string>();
        ASSERT_TRUE(entry.contains("outputSchema")) << name;
        EXPECT_EQ(entry["outputSchema"], nd_driver::output_schema(name)) << name;
        entry.erase("outputSchema");
        EXPECT_EQ(entry, listed[i]) << name;
    }
}

TEST(Manifest, EveryControlMethodItListsIsAnswered)
{
    nd_test::ToolHarness h;
    nd_driver::ApprovalBroker broker([](std::string_view) { return true; });
    nd_driver::ControlCommands commands(h.engine(), &broker);
    const auto listed = nd_driver::manifest()["control_pipe"]["methods"];
    ASSERT_EQ(listed.size(), nd_driver::CONTROL_METHODS.size());
    for (const auto& method : listed) {
        const auto reply = json::parse(commands.handle(json({{"method", method}}).dump()));
        EXPECT_NE(reply.value(json::json_pointer("/error/code"), std::string()), "unknown_method") << method;
    }
}

} // namespace
