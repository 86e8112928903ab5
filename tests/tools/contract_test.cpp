// The contract's own conformance checks (§8): input schemas keep the 0.6 rules; every tool is
// called on the mock and each output is validated against output_schema(tool) or error_schema().

#include "core/errors.h"
#include "core/model/schemas.h"
#include "driver/tool_registry.h"
#include "tool_harness.h"
#include "schema_validate.h"

#include <functional>
#include <map>
#include <set>

namespace {

using nd_test::Reply;
using nd_test::ToolHarness;
using nlohmann::json;

bool contains_ref(const json& j)
{
    if (j.is_object()) {
        for (auto& [k, v] : j.items())
            if (k == "$ref" || contains_ref(v))
                return true;
    } else if (j.is_array()) {
        for (const auto& v : j)
            if (contains_ref(v))
                return true;
    }
    return false;
}

TEST(Contract, InputSchemasKeepTheRules)
{
    ToolHarness h;
    auto tools = h.dispatcher().list_tools();
    ASSERT_EQ(tools.size(), nd_driver::all_tools().size());
    std::set<std::string> names;
    for (const auto& t : tools) {
        const auto name = t["name"].get<std::string>();
        EXPECT_TRUE(names.insert(name).second) << "duplicate tool " << name;
        const auto& s = t["inputSchema"];
        EXPECT_EQ(s["type"], "object") << name;
        EXPECT_TRUE(s.contains("properties") && s["properties"].is_object()) << name;
        EXPECT_FALSE(contains_ref(s)) << name;
        for (auto combinator : {"anyOf", "oneOf", "allOf", "not"})
            EXPECT_FALSE(s.contains(combinator)) << name;
        EXPECT_LT(s.dump().size(), 12000u) << name;
        EXPECT_TRUE(t["annotations"].contains("readOnlyHint")) << name;
        // destructiveHint means something only for a tool that does not only read.
        EXPECT_EQ(t["annotations"].contains("destructiveHint"), !t["annotations"]["readOnlyHint"].get<bool>()) << name;
        EXPECT_FALSE(t["description"].get<std::string>().empty()) << name;
    }
    for (auto expected : {"list_windows", "get_window_state", "start_session", "end_session", "get_session_state",
             "click", "double_click", "right_click", "type_text", "set_value", "press_key", "hotkey", "scroll", "drag",
             "bring_to_front", "move_cursor", "health_report", "clipboard_read", "clipboard_write",
             "list_notifications", "dismiss_notification", "invoke_notification_action", "list_app_actions",
             "app_action"})
        EXPECT_TRUE(names.count(expected)) << expected;
}

struct Scenario {
    // Prepares the harness and returns the arguments of the call.
    std::function<json(ToolHarness&)> setup;
    bool expect_success = true;
};

std::map<std::string, Scenario> scenarios()
{
    auto takeover = [](ToolHarness& h) { h.start({{"input", "takeover"}, {"clipboard_read", true}}); };
    return {
        {"list_windows", {[](ToolHarness& h) { h.start(); return json::object(); }}},
        {"get_window_state",
            {[](ToolHarness& h) {
                h.start();
                return json{{"app", "Settings"}, {"include_screenshot", true}};
            }}},
        {"start_session", {[](ToolHarness&) { return json{{"apps", {"Settings"}}}; }}},
        {"end_session", {[](ToolHarness& h) { h.start(); return json::object(); }}},
        {"get_session_state", {[](ToolHarness& h) { h.start(); return json::object(); }}},
        {"click", {[](ToolHarness& h) { h.start(); return json{{"element_token", h.token("Settings", "Remember me")}}; }}},
        {"double_click",
            {[](ToolHarness& h) { h.start(); return json{{"element_token", h.token("Calculator", "7")}}; }}},
        {"right_click",
            {[](ToolHarness& h) { h.start(); return json{{"element_token", h.token("Settings", "Sign in")}}; }, false}},
        {"type_text",
            {[](ToolHarness& h) {
                h.start();
                return json{{"element_token", h.token("Settings", "Username")}, {"text", "ada"},
                    {"observe", {{"tree", true}, {"screenshot", true}}}};
            }}},
        {"set_value",
            {[](ToolHarness& h) {
                h.start();
                return json{{"element_token", h.token("Settings", "Username")}, {"value", "grace"}};
            }}},
        {"press_key", {[=](ToolHarness& h) { takeover(h); return json{{"key", "Return"}}; }}},
        {"hotkey", {[=](ToolHarness& h) { takeover(h); return json{{"keys", {"ctrl", "a"}}}; }}},
        {"scroll", {[=](ToolHarness& h) { takeover(h); return json{{"app", "Chatter"}, {"direction", "down"}}; }}},
        {"drag",
            {[=](ToolHarness& h) {
                takeover(h);
                h.mock().raise(62914561);
                auto from = h.token("Calculator", "1");
                auto to = from.substr(0, from.find(':')) + ":" + h.token("Calculator", "2").substr(from.find(':') + 1);
                return json{{"element_token", from}, {"to_token", to}};
            }}},
        {"bring_to_front", {[=](ToolHarness& h) { takeover(h); return json{{"app", "Settings"}}; }}},
        {"move_cursor",
            {[=](ToolHarness& h) {
                takeover(h);
                return json{{"app", "Chatter"}, {"x", 10}, {"y", 10}, {"duration_ms", 30}};
            }}},
        {"health_report", {[](ToolHarness&) { return json::object(); }}},
        {"clipboard_read",
            {[=](ToolHarness& h) {
                takeover(h);
                h.mock().set_clipboard_text("plain words");
                return json::object();
            }}},
        {"clipboard_write", {[](ToolHarness& h) { h.start(); return json{{"text", "hello"}}; }}},
        {"list_notifications", {[](ToolHarness&) { return json::object(); }, false}},
        {"dismiss_notification", {[](ToolHarness&) { return json{{"id", "1"}}; }, false}},
        {"invoke_notification_action", {[](ToolHarness&) { return json{{"id", "1"}, {"action", "open"}}; }, false}},
        {"list_app_actions", {[](ToolHarness&) { return json{{"pid", 6001}}; }, false}},
        {"app_action", {[](ToolHarness&) { return json{{"pid", 6001}, {"action", "excel.set_range_values"}}; }, false}},
    };
}

TEST(Contract, EveryToolCalledAndEveryOutputValid)
{
    auto table = scenarios();
    for (const auto& def : nd_driver::all_tools())
        ASSERT_TRUE(table.count(std::string(def.decl.name))) << "no scenario for " << def.decl.name;
    for (auto& [name, scenario] : table) {
        SCOPED_TRACE(name);
        ToolHarness h;
        auto args = scenario.setup(h);
        auto r = h.call(name, args);
        EXPECT_EQ(r.is_error, !scenario.expect_success) << r.text;
        EXPECT_FALSE(r.text.empty());
        if (r.is_error) {
            EXPECT_EQ(nd_test::schema_errors(nd_core::schemas::error_schema(), r.structured), "") << r.structured.dump();
            EXPECT_EQ(r.text.rfind(r.code() + ": ", 0), 0u) << r.text;
            EXPECT_NE(r.text.find("[retry: " + r.retry() + "] "), std::string::npos) << r.text;
        } else {
            auto schema = nd_driver::output_schema(name);
            ASSERT_TRUE(schema.is_object());
            EXPECT_EQ(nd_test::schema_errors(schema, r.structured), "") << r.structured.dump().substr(0, 2000);
        }
    }
}

TEST(Contract, UnsupportedToolsSayUnsupported)
{
    ToolHarness h;
    for (auto name : {"list_notifications", "dismiss_notification", "invoke_notification_action", "list_app_actions",
             "app_action"}) {
        auto r = h.call(name, {{"id", "1"}, {"action", "x"}});
        EXPECT_TRUE(r.is_error) << name;
        EXPECT_EQ(r.code(), "unsupported") << name << ": " << r.text;
    }
}

TEST(Contract, ErrorSchemaRejectsABrokenEnvelope)
{
    json broken = {{"ok", false}, {"error", {{"code", "made_up"}, {"message", "x"}}}};
    EXPECT_NE(nd_test::schema_errors(nd_core::schemas::error_schema(), broken), "");
}

} // namespace
