// Service declarations (docs/services.md, "Declaring a service"): every rule of the seed's schema
// refuses a file with a reason that starts with the field at fault, a bad service file leaves the
// others loaded, and names are unique across files.

#include "desk/desk_test_support.h"
#include "desk/plugins/plugin_set.h"
#include "desk/plugins/service_decl.h"

#include <gtest/gtest.h>

#include <fstream>

using nlohmann::json;

namespace {

json tool(const std::string& name)
{
    return {{"name", name}, {"description", "Does " + name + "."}, {"input_schema", {{"type", "object"}}}};
}

json service(const std::string& name, json tools)
{
    return {{"service", name}, {"bin", "/usr/bin/" + name}, {"tools", std::move(tools)}};
}

// A braced list of tools is their array. (Without this overload, clang reads a one-element list
// `{tool("a")}` as that one tool copied, where gcc makes it an array.)
json service(const std::string& name, std::initializer_list<json> tools)
{
    json list = json::array();
    for (const auto& t : tools)
        list.push_back(t);
    return service(name, std::move(list));
}

// The refusal's reason for `object`, or "" when it parses.
std::string refusal(const json& object, const std::vector<nd_desk::Service>& earlier = {})
{
    auto parsed = nd_desk::parse_service(object, "/x/s.json", earlier);
    return parsed ? std::string() : parsed.error().message;
}

bool starts(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

TEST(ServiceDecl, TheSeedsExampleParses)
{
    const json notes = json::parse(R"({"service": "notes", "bin": "/usr/local/bin/notes-service", "args": ["--serve"],
        "tools": [{"name": "notes_read", "description": "Read a note.", "input_schema": {"type": "object",
        "properties": {"title": {"type": "string"}}, "required": ["title"]}}, {"name": "notes_watch",
        "description": "Stream note changes.", "input_schema": {"type": "object"}, "mcp": false}]})");
    auto parsed = nd_desk::parse_service(notes, "/x/notes.json", {});
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->name, "notes");
    EXPECT_EQ(parsed->bin, "/usr/local/bin/notes-service");
    EXPECT_EQ(parsed->args, std::vector<std::string>{"--serve"});
    ASSERT_EQ(parsed->tools.size(), 2u);
    EXPECT_TRUE(parsed->tools[0].mcp);
    EXPECT_FALSE(parsed->tools[1].mcp);
    EXPECT_EQ(parsed->tools[0].input_schema["required"][0], "title");
    EXPECT_EQ(parsed->file, "/x/notes.json");
}

TEST(ServiceDecl, TheServiceName)
{
    EXPECT_EQ(refusal(service("notes", {tool("a")})), "");
    EXPECT_EQ(refusal(service("a1_b", {tool("a")})), "");
    for (const std::string bad : {"", "Notes", "1notes", "_notes", "no-tes", "nötes", "no tes"})
        EXPECT_TRUE(starts(refusal(service(bad, {tool("a")})), "service: ")) << bad;
    EXPECT_EQ(refusal(service(std::string(32, 'a'), {tool("a")})), "");
    EXPECT_TRUE(starts(refusal(service(std::string(33, 'a'), {tool("a")})), "service: "));
    json numeric = service("x", {tool("a")});
    numeric["service"] = 3;
    EXPECT_EQ(refusal(numeric), "service: must be a string, not a number");
    // Unique across files.
    auto first = nd_desk::parse_service(service("notes", {tool("a")}), "/x/a.json", {});
    ASSERT_TRUE(first.ok());
    const std::string again = refusal(service("notes", {tool("b")}), {*first});
    EXPECT_TRUE(starts(again, "service: notes is already the service of /x/a.json")) << again;
}

TEST(ServiceDecl, BinAndArgs)
{
    json s = service("notes", {tool("a")});
    s["bin"] = "notes-service";
    EXPECT_TRUE(starts(refusal(s), "bin: must be an absolute path")) << refusal(s);
    s["bin"] = "";
    EXPECT_TRUE(starts(refusal(s), "bin: "));
    s["bin"] = json::array();
    EXPECT_TRUE(starts(refusal(s), "bin: must be a string"));
    s["bin"] = "/bin/true";
    s["args"] = "--serve";
    EXPECT_TRUE(starts(refusal(s), "args: must be an array")) << refusal(s);
    s["args"] = json::array({"--serve", 2});
    EXPECT_TRUE(starts(refusal(s), "args[1]: must be a string")) << refusal(s);
    s["args"] = json::array({std::string("a\0b", 3)});
    EXPECT_TRUE(starts(refusal(s), "args[0]: holds a NUL")) << refusal(s);
    s["args"] = json::array();
    EXPECT_EQ(refusal(s), "");
    s.erase("args");
    EXPECT_EQ(refusal(s), "");
}

TEST(ServiceDecl, FieldsKnownAndRequired)
{
    json s = service("notes", {tool("a")});
    s["name"] = "x";
    EXPECT_TRUE(starts(refusal(s), "name: unknown field")) << refusal(s);
    for (const char* key : {"service", "bin", "tools"}) {
        json missing = service("notes", {tool("a")});
        missing.erase(key);
        EXPECT_TRUE(starts(refusal(missing), std::string(key) + ": missing")) << refusal(missing);
    }
    json extra_in_tool = tool("a");
    extra_in_tool["timeout"] = 3;
    EXPECT_TRUE(starts(refusal(service("notes", {extra_in_tool})), "tools[0].timeout: unknown field"));
    for (const char* key : {"name", "description", "input_schema"}) {
        json t = tool("a");
        t.erase(key);
        EXPECT_TRUE(starts(refusal(service("notes", {t})), "tools[0]." + std::string(key) + ": missing")) << key;
    }
}

TEST(ServiceDecl, Tools)
{
    EXPECT_EQ(refusal(service("notes", json::array())), "tools: is empty; a service serves at least one tool");
    EXPECT_TRUE(starts(refusal(service("notes", json::object())), "tools: must be an array"));
    EXPECT_TRUE(starts(refusal(service("notes", {tool("a"), "b"})), "tools[1]: must be an object, not a string"));
    json t = tool("a");
    t["mcp"] = "no";
    EXPECT_TRUE(starts(refusal(service("notes", {t})), "tools[0].mcp: must be a boolean"));
}

TEST(ServiceDecl, ToolNames)
{
    EXPECT_EQ(refusal(service("notes", {tool(std::string(64, 'n'))})), "");
    EXPECT_TRUE(starts(refusal(service("notes", {tool(std::string(65, 'n'))})), "tools[0].name: "));
    for (const std::string bad : {"", "Read", "9read", "read-note", "_read"})
        EXPECT_TRUE(starts(refusal(service("notes", {tool(bad)})), "tools[0].name: ")) << bad;
    for (const std::string built_in : {"gui_plan", "script_run", "desk", "screenshot", "status"}) {
        const auto why = refusal(service("notes", {tool(built_in)}));
        EXPECT_TRUE(starts(why, "tools[0].name: ")) << built_in << ": " << why;
    }
    EXPECT_EQ(refusal(service("notes", {tool("status")})), "tools[0].name: status is a built-in tool");
    for (const std::string prefixed : {"desk_read", "model_decide", "safety_stop", "desk_"})
        EXPECT_TRUE(starts(refusal(service("notes", {tool(prefixed)})), "tools[0].name: " + prefixed + " ")) << prefixed;
    EXPECT_EQ(refusal(service("notes", {tool("notes_run")})), "tools[0].name: notes_run ends in _run, which the plugins' tools take");
    EXPECT_EQ(refusal(service("notes", {tool("a"), tool("b"), tool("a")})), "tools[2].name: a is listed twice in this file");
    auto first = nd_desk::parse_service(service("files", {tool("open_file")}), "/x/a.json", {});
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(refusal(service("notes", {tool("open_file")}), {*first}),
        "tools[0].name: open_file is already a tool of service files (/x/a.json)");
}

TEST(ServiceDecl, DescriptionAndSchema)
{
    json t = tool("a");
    t["description"] = "";
    EXPECT_TRUE(starts(refusal(service("notes", {t})), "tools[0].description: is empty"));
    t["description"] = std::string(2048, 'd');
    EXPECT_EQ(refusal(service("notes", {t})), "");
    // Characters, not bytes: 2,048 two-byte characters pass, one more does not.
    std::string wide;
    for (int i = 0; i < 2048; ++i)
        wide += "é";
    t["description"] = wide;
    EXPECT_EQ(refusal(service("notes", {t})), "");
    t["description"] = wide + "é";
    EXPECT_EQ(refusal(service("notes", {t})), "tools[0].description: 2049 characters, more than 2048");
    t["description"] = 5;
    EXPECT_TRUE(starts(refusal(service("notes", {t})), "tools[0].description: must be a string"));
    t = tool("a");
    for (const json& bad : {json("object"), json::array(), json{{"type", "array"}}, json::object(), json{{"type", json::array({"object"})}}}) {
        t["input_schema"] = bad;
        EXPECT_TRUE(starts(refusal(service("notes", {t})), "tools[0].input_schema: ")) << bad.dump();
    }
}

TEST(ServiceDecl, ABadServiceFileLeavesTheOthersLoaded)
{
    nd_test::TempDir dir{"services"};
    auto write = [&](const std::string& name, const json& value) { std::ofstream(dir.path + "/" + name) << value.dump(); };
    write("a.json", service("alpha", {tool("alpha_get")}));
    write("b.json", service("beta", {tool("alpha_get")})); // the tool is alpha's
    write("c.json", service("alpha", {tool("gamma_get")})); // the service is alpha's
    write("d.json", service("delta", {tool("delta_get"), tool("delta_watch")}));
    write("e.json", json{{"name", "echo_run"}, {"description", "A plugin beside them."}, {"bin", "/bin/echo"}});
    auto set = nd_desk::load_plugins(dir.path);
    ASSERT_EQ(set.services.size(), 2u) << set.to_json();
    EXPECT_EQ(set.services[0].name, "alpha");
    EXPECT_EQ(set.services[1].name, "delta");
    ASSERT_EQ(set.loaded.size(), 1u);
    ASSERT_EQ(set.refused.size(), 2u);
    EXPECT_EQ(set.refused[0].file, dir.path + "/b.json");
    EXPECT_EQ(set.refused[0].reason, "tools[0].name: alpha_get is already a tool of service alpha (" + dir.path + "/a.json)");
    EXPECT_EQ(set.refused[1].file, dir.path + "/c.json");
    EXPECT_TRUE(starts(set.refused[1].reason, "service: alpha is already the service of ")) << set.refused[1].reason;
    const auto lines = set.log_lines();
    EXPECT_NE(std::find(lines.begin(), lines.end(), "service delta (2 tools) loaded from " + dir.path + "/d.json"), lines.end());
}

} // namespace
