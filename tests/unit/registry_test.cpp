#include "core/backend/registry.h"
#include "core/version.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <set>
#include <string>

namespace {

using namespace nd_core;
using nlohmann::json;

// Validates against doctor_schema(); returns the validator's messages, empty when valid.
std::string schema_errors(const json& doc)
{
    valijson::Schema schema;
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter schema_adapter(doctor_schema());
    parser.populateSchema(schema_adapter, schema);
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter doc_adapter(doc);
    if (validator.validate(schema, doc_adapter, &results))
        return {};
    std::string out;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
        for (const std::string& part : error.context)
            out += part;
        out += ": " + error.description + "\n";
    }
    return out.empty() ? "invalid" : out;
}

RegistryReport not_ready_report()
{
    RegistryReport r;
    r.session_type = "x11";
    r.backends = {
        {"x11", Status::available, true, std::nullopt},
        {"atspi", Status::unavailable, true, std::string("atspi_bus_unreachable")},
        planned_wayland_entry(),
    };
    r.capabilities = {
        {"read_tree", Status::unavailable, std::string("atspi_bus_unreachable"), ConsentKind::session},
        {"takeover_handback", Status::unavailable, std::string("xinput2_missing"), ConsentKind::takeover},
        {"clipboard_read", Status::available, std::nullopt, ConsentKind::separate},
        {"list_notifications", Status::unsupported, std::string("no_platform_api"), ConsentKind::session},
    };
    r.permissions = {
        {"accessibility", "missing", std::string("atspi_bus_unreachable")},
        {"screen_capture", "not_applicable", std::nullopt},
        {"input_monitoring", "missing", std::string("xinput2_missing")},
    };
    r.probes = {{"display server", "ok", "X11 :0"}, {"accessibility bus", "fail", "no bus"}};
    return r;
}

RegistryReport ready_report()
{
    RegistryReport r;
    r.session_type = "mock";
    r.backends = {{"mock", Status::available, true, std::nullopt}, planned_wayland_entry()};
    for (std::string_view name : capability_names())
        r.capabilities.push_back({std::string(name), Status::available, std::nullopt, ConsentKind::session});
    r.permissions = {{"accessibility", "granted", std::nullopt}};
    return r;
}

TEST(RegistryTest, ReasonCodesHaveActions)
{
    const auto& codes = reason_codes();
    EXPECT_EQ(codes.size(), 18u);
    std::set<std::string_view> unique(codes.begin(), codes.end());
    EXPECT_EQ(unique.size(), codes.size());
    for (const char* code : {"display_unreachable", "xinput2_missing", "wayland_session_unsupported",
                             "wayland_portal_not_built", "portal_global_shortcuts_denied", "compositor_unsupported"})
        EXPECT_TRUE(is_reason_code(code)) << code;
    for (std::string_view code : codes) {
        std::string_view action = reason_action(code);
        ASSERT_FALSE(action.empty()) << code;
        EXPECT_EQ(action.back(), '.') << code;                 // one sentence
        EXPECT_EQ(action.find(". "), std::string_view::npos) << code;
    }
    EXPECT_FALSE(is_reason_code("made_up"));
    EXPECT_TRUE(reason_action("made_up").empty());
}

TEST(RegistryTest, NamesInContractOrder)
{
    const auto& names = capability_names();
    ASSERT_EQ(names.size(), 11u);
    EXPECT_EQ(names.front(), "read_tree");
    EXPECT_EQ(names[5], "takeover_handback");
    EXPECT_EQ(names.back(), "clipboard_write");
    EXPECT_EQ(status_name(Status::planned), "planned");
    EXPECT_EQ(consent_name(ConsentKind::host_approval), "host_approval");
}

TEST(RegistryTest, Readiness)
{
    EXPECT_FALSE(not_ready_report().ready());
    EXPECT_TRUE(ready_report().ready());
    EXPECT_FALSE(RegistryReport().ready()); // nothing required, nothing to work with
    RegistryReport r = ready_report();
    r.backends.push_back({"extra", Status::unavailable, false, std::string("not_built")});
    EXPECT_TRUE(r.ready());
    ASSERT_NE(r.capability("clipboard_read"), nullptr);
    EXPECT_EQ(r.capability("clipboard_read")->name, "clipboard_read");
    EXPECT_EQ(r.capability("nope"), nullptr);
}

TEST(RegistryTest, PlannedWaylandEntry)
{
    BackendEntry e = planned_wayland_entry();
    EXPECT_EQ(e.id, "wayland-portal");
    EXPECT_EQ(e.status, Status::planned);
    EXPECT_FALSE(e.required);
    EXPECT_EQ(e.reason_code, "wayland_portal_not_built");
}

TEST(RegistryTest, HealthArrays)
{
    json backends = backends_json(not_ready_report());
    ASSERT_EQ(backends.size(), 3u);
    EXPECT_EQ(backends[0], json({{"id", "x11"}, {"status", "available"}, {"required", true},
                                 {"reason_code", nullptr}, {"action", nullptr}}));
    EXPECT_EQ(backends[1]["reason_code"], "atspi_bus_unreachable");
    EXPECT_EQ(backends[1]["action"], std::string(reason_action("atspi_bus_unreachable")));
    EXPECT_EQ(backends[2]["action"], "The Wayland portals backend is planned; use an X11 session for now.");

    json caps = capabilities_json(not_ready_report());
    ASSERT_EQ(caps.size(), 4u);
    EXPECT_EQ(caps[2], json({{"name", "clipboard_read"}, {"status", "available"}, {"reason_code", nullptr},
                             {"action", nullptr}, {"consent", "separate"}}));
    EXPECT_EQ(caps[1]["consent"], "takeover");
}

TEST(RegistryTest, NotReadyReportJoinsNextSteps)
{
    json report = doctor_report(not_ready_report());
    EXPECT_EQ(schema_errors(report), "");
    EXPECT_EQ(report["schema"], "nish-driver/doctor");
    EXPECT_EQ(report["schema_version"], 2);
    EXPECT_EQ(report["driver_version"], DRIVER_VERSION);
    EXPECT_EQ(report["contract_version"], "0.8.0");
    EXPECT_EQ(report["session_type"], "x11");
    EXPECT_FALSE(report["ready"].get<bool>());
    EXPECT_FALSE(report["ok"].get<bool>());
    EXPECT_EQ(report["network"], json({{"code_paths", "none"}, {"telemetry", false}, {"update_check", false}}));
    EXPECT_EQ(report["permissions"][0]["action"], std::string(reason_action("atspi_bus_unreachable")));
    EXPECT_TRUE(report["permissions"][1]["action"].is_null());

    const json& steps = report["next_steps"];
    ASSERT_EQ(steps.size(), 2u) << steps.dump(2);
    // The missing accessibility permission joins the atspi backend's step.
    EXPECT_EQ(steps[0], json({{"reason_code", "atspi_bus_unreachable"}, {"backend", "atspi"},
                              {"permission", "accessibility"}, {"required", true},
                              {"action", std::string(reason_action("atspi_bus_unreachable"))}}));
    // A permission no backend explains gets its own step; the planned Wayland entry gets none.
    EXPECT_EQ(steps[1]["reason_code"], "xinput2_missing");
    EXPECT_TRUE(steps[1]["backend"].is_null());
    EXPECT_EQ(steps[1]["permission"], "input_monitoring");
    EXPECT_FALSE(steps[1]["required"].get<bool>());
}

TEST(RegistryTest, RequiredComesFromAnyJoinedEntry)
{
    RegistryReport r = not_ready_report();
    r.backends.push_back({"x11-extra", Status::unavailable, false, std::string("composite_missing")});
    r.permissions.push_back({"screen_capture2", "missing", std::string("composite_missing"), true});
    json steps = doctor_report(r)["next_steps"];
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[1]["reason_code"], "composite_missing");
    EXPECT_EQ(steps[1]["backend"], "x11-extra");
    EXPECT_EQ(steps[1]["permission"], "screen_capture2");
    EXPECT_TRUE(steps[1]["required"].get<bool>());
    EXPECT_EQ(schema_errors(doctor_report(r)), "");
}

TEST(RegistryTest, ReadyReportValidates)
{
    json report = doctor_report(ready_report());
    EXPECT_EQ(schema_errors(report), "");
    EXPECT_TRUE(report["ready"].get<bool>());
    EXPECT_TRUE(report["ok"].get<bool>());
    EXPECT_TRUE(report["next_steps"].empty());
    EXPECT_EQ(report["capabilities"].size(), capability_names().size());
}

TEST(RegistryTest, BackgroundInputRoutesAreListedAndValidate)
{
    auto with_routes = ready_report();
    with_routes.background_input = nd_core::measured_background_routes();
    json report = doctor_report(with_routes);
    EXPECT_EQ(schema_errors(report), "");
    ASSERT_EQ(report["background_input"].size(), 5u);
    EXPECT_EQ(report["background_input"][2],
        json({{"toolkit", "Qt"}, {"routes", {"actions", "text", "value", "keys", "buttons"}}, {"note", ""}}));
    EXPECT_FALSE(doctor_report(ready_report()).contains("background_input")) << "left out when the backend has none";
    report["background_input"][0]["routes"].push_back("telepathy");
    EXPECT_NE(schema_errors(report), "");
}

TEST(RegistryTest, BrokenReportsFailValidation)
{
    const json good = doctor_report(not_ready_report());
    auto broken = [&](auto edit) {
        json doc = good;
        edit(doc);
        return schema_errors(doc);
    };
    EXPECT_NE(broken([](json& d) { d.erase("backends"); }), "");
    EXPECT_NE(broken([](json& d) { d["schema_version"] = 1; }), "");
    EXPECT_NE(broken([](json& d) { d["ok"] = true; }), "");
    EXPECT_NE(broken([](json& d) { d["session_type"] = "beos"; }), "");
    EXPECT_NE(broken([](json& d) { d["backends"][1]["status"] = "broken"; }), "");
    EXPECT_NE(broken([](json& d) { d["backends"][1]["reason_code"] = "made_up"; }), "");
    EXPECT_NE(broken([](json& d) { d["backends"][1]["reason_code"] = nullptr; }), "");
    EXPECT_NE(broken([](json& d) { d["backends"][0]["reason_code"] = "not_built"; }), "");
    EXPECT_NE(broken([](json& d) { d["capabilities"][0]["consent"] = "always"; }), "");
    EXPECT_NE(broken([](json& d) { d["capabilities"][0]["name"] = "read_minds"; }), "");
    EXPECT_NE(broken([](json& d) { d["permissions"][0]["status"] = "maybe"; }), "");
    EXPECT_NE(broken([](json& d) { d["next_steps"][0]["backend"] = nullptr; d["next_steps"][0]["permission"] = nullptr; }), "");
    EXPECT_NE(broken([](json& d) { d["network"]["telemetry"] = true; }), "");
    EXPECT_NE(broken([](json& d) { d["probes"][0]["status"] = "great"; }), "");
    EXPECT_NE(broken([](json& d) { d["surprise"] = 1; }), "");
}

TEST(RegistryTest, CheckReport)
{
    EXPECT_TRUE(check_report(not_ready_report()).ok());
    EXPECT_TRUE(check_report(ready_report()).ok());

    RegistryReport r = ready_report();
    r.backends[0].reason_code = "made_up";
    EXPECT_FALSE(check_report(r).ok());

    r = ready_report();
    r.backends[0].status = Status::unavailable;
    auto result = check_report(r);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::internal_error);
    EXPECT_NE(result.error().message.find("backend 0"), std::string::npos);

    r = ready_report();
    r.capabilities[0].name = "teleport";
    EXPECT_FALSE(check_report(r).ok());

    r = ready_report();
    r.session_type = "beos";
    EXPECT_FALSE(check_report(r).ok());

    r = ready_report();
    r.permissions[0].status = "missing";
    EXPECT_FALSE(check_report(r).ok());

    r = ready_report();
    r.probes = {{"x", "meh", ""}};
    EXPECT_FALSE(check_report(r).ok());
}

} // namespace
