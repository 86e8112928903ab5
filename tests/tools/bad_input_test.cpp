// The bad-input table (§8): for every tool, wrong types, missing required arguments, unknown extra
// arguments, oversized strings and garbage tokens each give the contract's answer, never a crash.

#include "core/model/schemas.h"
#include "driver/tool_registry.h"
#include "schema_validate.h"
#include "tool_harness.h"

namespace {

using nd_driver::ArgType;
using nd_test::ToolHarness;
using nlohmann::json;

json wrong_value(ArgType t)
{
    switch (t) {
    case ArgType::string: return 12345;
    case ArgType::integer:
    case ArgType::number: return "12";
    case ArgType::boolean: return "true";
    case ArgType::string_array: return json::array({1, 2});
    case ArgType::object: return json::array({true});
    case ArgType::json: return 12345;
    }
    return nullptr;
}

json good_value(const nd_driver::ArgSpec& a)
{
    switch (a.type) {
    case ArgType::string: return a.enum_values.empty() ? json("x") : json(std::string(a.enum_values.front()));
    case ArgType::integer:
    case ArgType::number: return a.min && *a.min > 1 ? static_cast<std::int64_t>(*a.min) : 1;
    case ArgType::boolean: return false;
    case ArgType::string_array: return json::array({"Settings"});
    case ArgType::object: return json::object();
    case ArgType::json: return "x";
    }
    return nullptr;
}

// Every required argument with a plausible value.
json minimal_args(const nd_driver::ToolDef& def)
{
    json args = json::object();
    for (const auto& a : def.decl.args)
        if (a.required)
            args[std::string(a.name)] = good_value(a);
    return args;
}

void expect_envelope(const nd_test::Reply& r)
{
    if (r.is_error) {
        EXPECT_EQ(nd_test::schema_errors(nd_core::schemas::error_schema(), r.structured), "") << r.structured.dump();
    }
}

TEST(BadInput, WrongTypes)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    for (const auto& def : nd_driver::all_tools()) {
        if (def.decl.name == "start_session" || def.decl.name == "end_session")
            continue; // would change the session under the other calls; covered below
        for (const auto& a : def.decl.args) {
            SCOPED_TRACE(std::string(def.decl.name) + "." + std::string(a.name));
            auto args = minimal_args(def);
            args[std::string(a.name)] = wrong_value(a.type);
            auto r = h.call(def.decl.name, args);
            expect_envelope(r);
            const bool refused = r.is_error && r.code() == "invalid_arguments"
                && r.structured["error"]["message"].get<std::string>().rfind(std::string(a.name), 0) == 0;
            if (a.required || a.strict)
                EXPECT_TRUE(refused) << r.text;
            else
                EXPECT_FALSE(refused) << "a lenient argument of the wrong type is treated as absent: " << r.text;
        }
    }
}

TEST(BadInput, StartSessionWrongTypesAreRefused)
{
    ToolHarness h;
    for (auto [name, value] : std::vector<std::pair<std::string, json>>{
             {"apps", "Settings"}, {"input", true}, {"clipboard_read", "yes"}, {"lease_s", "60"}}) {
        auto r = h.call("start_session", {{name, value}});
        EXPECT_EQ(r.code(), "invalid_arguments") << name << ": " << r.text;
    }
    EXPECT_EQ(h.call("start_session", {{"lease_s", 5}}).code(), "invalid_arguments");
    EXPECT_EQ(h.call("start_session", {{"apps", json::array()}}).code(), "invalid_arguments");
    EXPECT_EQ(h.call("start_session", {{"input", "sideways"}}).code(), "invalid_arguments");
}

TEST(BadInput, MissingRequired)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    for (const auto& def : nd_driver::all_tools()) {
        for (const auto& a : def.decl.args) {
            if (!a.required)
                continue;
            SCOPED_TRACE(std::string(def.decl.name) + "." + std::string(a.name));
            auto args = minimal_args(def);
            args.erase(std::string(a.name));
            auto r = h.call(def.decl.name, args);
            EXPECT_EQ(r.code(), "invalid_arguments") << r.text;
            EXPECT_NE(r.text.find(std::string(a.name)), std::string::npos) << r.text;
        }
    }
}

TEST(BadInput, UnknownExtraArgumentsAreIgnored)
{
    ToolHarness h;
    h.start();
    auto plain = h.call("list_windows", json::object());
    auto extra = h.call("list_windows", {{"frobnicate", true}, {"zzz", json::array({1})}});
    EXPECT_FALSE(extra.is_error) << extra.text;
    // The same result, and the arguments it let go by named (ignored_args_test.cpp).
    EXPECT_EQ(extra.structured["ignored_arguments"].size(), 2u);
    extra.structured.erase("ignored_arguments");
    EXPECT_EQ(plain.structured, extra.structured);
    auto read = h.call("get_window_state", {{"app", "Calculator"}, {"no_such_argument", 7}});
    EXPECT_FALSE(read.is_error) << read.text;
}

TEST(BadInput, OversizedStrings)
{
    ToolHarness h;
    h.start({{"input", "takeover"}});
    for (const auto& def : nd_driver::all_tools()) {
        if (def.decl.name == "start_session")
            continue;
        for (const auto& a : def.decl.args) {
            if (a.type != ArgType::string || !a.enum_values.empty())
                continue;
            SCOPED_TRACE(std::string(def.decl.name) + "." + std::string(a.name));
            auto args = minimal_args(def);
            const std::size_t cap = a.max_length ? a.max_length : nd_mcp::DEFAULT_MAX_STRING_BYTES;
            args[std::string(a.name)] = std::string(cap + 1, 'a');
            auto r = h.call(def.decl.name, args);
            EXPECT_EQ(r.code(), "invalid_arguments") << r.text.substr(0, 300);
        }
    }
    // A 50 MB string is refused the same way, and the next call still works.
    auto r = h.call("type_text", {{"element_token", "s1:1"}, {"text", std::string(50 << 20, 'x')}});
    EXPECT_EQ(r.code(), "invalid_arguments");
    EXPECT_FALSE(h.call("list_windows").is_error);
}

TEST(BadInput, GarbageTokens)
{
    ToolHarness h;
    h.start();
    auto good = h.token("Settings", "Remember me");
    const auto id = good.substr(0, good.find(':'));
    struct Case {
        std::string token;
        std::string code;
    };
    for (const auto& c : std::vector<Case>{{"garbage", "invalid_arguments"}, {"", "invalid_arguments"},
             {":3", "invalid_arguments"}, {id + ":", "invalid_arguments"}, {id + ":-1", "invalid_arguments"},
             {id + ":x", "invalid_arguments"}, {"s999999:1", "stale_element_token"},
             {id + ":99999", "element_not_found"}, {std::string(64, 's') + ":1", "invalid_arguments"}}) {
        for (auto tool : {"click", "get_window_state"}) {
            json args = std::string(tool) == "click" ? json{{"element_token", c.token}} : json{{"root", c.token}};
            auto r = h.call(tool, args);
            EXPECT_EQ(r.code(), c.code) << tool << " " << c.token << ": " << r.text;
            expect_envelope(r);
        }
    }
}

TEST(BadInput, TokensFromAnotherSessionOrWindow)
{
    ToolHarness a;
    ToolHarness b;
    a.start();
    b.start();
    auto token = a.token("Settings", "Remember me");
    auto r = b.call("click", {{"element_token", token}});
    EXPECT_EQ(r.code(), "stale_element_token") << r.text;
    EXPECT_EQ(r.retry(), "after_refresh");

    // A new session in the same driver does not honour the old session's tokens.
    a.call("end_session");
    a.start();
    EXPECT_EQ(a.call("click", {{"element_token", token}}).code(), "stale_element_token");

    // root from one window with a window target naming another.
    auto calc = a.token("Calculator", "7");
    auto mixed = a.call("get_window_state", {{"window_id", 52428801}, {"root", calc}});
    EXPECT_EQ(mixed.code(), "invalid_arguments") << mixed.text;
}

TEST(BadInput, ArgumentsNotAnObject)
{
    ToolHarness h;
    auto r = h.call("list_windows", json::array({1, 2}));
    EXPECT_EQ(r.code(), "invalid_arguments");
    r = h.call("health_report", "text");
    EXPECT_EQ(r.code(), "invalid_arguments");
}

} // namespace
