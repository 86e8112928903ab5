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

#include <algorithm>
#include <fstream>
#include <sstream>


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

namespace {

std::string read_text(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

TEST(RegistryServerJson, TheCommittedCopyIsWhatTheManifestMakes)
{
    const auto generated = nd_driver::registry_server_json();
    EXPECT_EQ(read_text(std::string(NISH_SOURCE_DIR) + "/server.json"), generated.dump(2) + "\n")
        << "server.json is stale: run build/bin/nish-docgen --write-server-json server.json";
}

TEST(RegistryServerJson, KeepsTheRegistrysRules)
{
    const auto s = nd_driver::registry_server_json();
    const auto name = s["name"].get<std::string>();
    EXPECT_EQ(std::count(name.begin(), name.end(), '/'), 1) << "a reverse-DNS namespace, one slash, a name";
    EXPECT_LE(s["description"].get<std::string>().size(), 100u);
    EXPECT_EQ(s["version"], nd_core::DRIVER_VERSION) << "a concrete version, the program's";
    const auto& meta = s["_meta"]["io.modelcontextprotocol.registry/publisher-provided"];
    EXPECT_EQ(meta["contract_version"], nd_core::CONTRACT_VERSION);
    EXPECT_EQ(meta["launch"]["args"], nd_driver::manifest()["launch"]["args"]);
    EXPECT_EQ(meta["daemon"]["args"], json({"mcp", "--connect"}));
    EXPECT_FALSE(s.contains("packages")) << "the registry has no Debian package type";
}

TEST(Manifest, NamesTheDaemonAndItsSocketMethods)
{
    const auto d = nd_driver::manifest()["daemon"];
    EXPECT_EQ(d["args"], json({"daemon"}));
    EXPECT_EQ(d["methods"], json({"metadata"}));
    EXPECT_EQ(d["connect"]["args"], json({"mcp", "--connect"}));
}

} // namespace
