// The program surface others rely on: --version, manifest, doctor --json (valid against doctor_schema(), exit
// 0 only when ready, with and without a usable backend), and clear refusals of bad arguments.

#include "core/backend/registry.h"
#include "core/version.h"
#include "driver/manifest.h"
#include "pipe_lines.h"
#include "schema_validate.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

nd_test::CommandRun run(const std::string& args)
{
    // Without a desktop, whatever the caller's environment: these tests describe a machine with none.
    return nd_test::run_command("env -u DISPLAY -u AT_SPI_BUS_ADDRESS NISH_AUDIT_LOG= " + std::string(NISH_BIN_DIR) +
                                "/nish-driver " + args + " 2>&1 </dev/null");
}

TEST(Cli, Version)
{
    auto r = run("--version");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find(nd_core::CONTRACT_VERSION), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(nd_core::DRIVER_VERSION), std::string::npos) << r.out;
}

TEST(Cli, ManifestPrintsTheDriversManifest)
{
    auto r = run("manifest");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(nlohmann::json::parse(r.out), nd_driver::manifest());
}

TEST(Cli, DoctorWithoutAPlatformBackendIsNotReady)
{
    auto r = run("doctor --json");
    EXPECT_EQ(r.status, 1) << r.out;
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(nd_test::schema_errors(nd_core::doctor_schema(), doc), "");
    EXPECT_EQ(doc["schema"], "nish-driver/doctor");
    EXPECT_EQ(doc["schema_version"], 2);
    EXPECT_EQ(doc["contract_version"], nd_core::CONTRACT_VERSION);
    EXPECT_EQ(doc["ready"], false);
    EXPECT_EQ(doc["ok"], false);
    bool planned_wayland = false;
    for (const auto& b : doc["backends"])
        if (b["id"] == "wayland-portal")
            planned_wayland = b["status"] == "planned" && b["reason_code"] == "wayland_portal_not_built";
    EXPECT_TRUE(planned_wayland);
    EXPECT_FALSE(doc["next_steps"].empty());
}

TEST(Cli, DoctorOnTheMockIsReady)
{
    auto r = run("doctor --json --backend mock");
    EXPECT_EQ(r.status, 0) << r.out;
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(nd_test::schema_errors(nd_core::doctor_schema(), doc), "");
    EXPECT_EQ(doc["session_type"], "mock");
    EXPECT_EQ(doc["ready"], true);
    EXPECT_EQ(doc["network"]["code_paths"], "none");
}

TEST(Cli, BadArgumentsAreRefusedClearly)
{
    auto unknown = run("mcp --frobnicate");
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.out.find("unknown argument --frobnicate"), std::string::npos) << unknown.out;
    auto consent = run("mcp --consent yes");
    EXPECT_EQ(consent.status, 2);
    EXPECT_NE(consent.out.find("--consent takes only auto"), std::string::npos) << consent.out;
    auto linux_backend = run("mcp --backend linux");
    EXPECT_EQ(linux_backend.status, 2);
    EXPECT_NE(linux_backend.out.find("backend_unavailable"), std::string::npos) << linux_backend.out;
    auto missing = run("mcp --backend mock --fixtures /nonexistent-fixture-dir");
    EXPECT_EQ(missing.status, 2) << missing.out;
    auto help = run("--help");
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("tests and demos only"), std::string::npos);
    // Every command and flag is named and said what it does.
    for (const std::string word : {"nish-driver mcp", "nish-driver daemon", "nish-driver metadata", "nish-driver doctor",
             "nish-driver manifest", "--backend", "--consent", "--fixtures", "--control-fd", "--connect", "--socket", "--json"})
        EXPECT_NE(help.out.find(word), std::string::npos) << word;
}

TEST(Cli, McpWithoutConsentDeniesSessions)
{
    // Without --consent auto this build asks no one, so nothing is granted.
    const std::string cmd = "printf '%s\\n' "
                            "'{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"start_session\",\"arguments\":{}}}'"
                            " | NISH_AUDIT_LOG= "
        + std::string(NISH_BIN_DIR) + "/nish-driver mcp --backend mock";
    auto r = nd_test::run_command(cmd);
    EXPECT_EQ(r.status, 0);
    auto reply = nlohmann::json::parse(r.out);
    EXPECT_EQ(reply["result"]["isError"], true);
    EXPECT_EQ(reply["result"]["structuredContent"]["error"]["code"], "consent_denied");
}

} // namespace
