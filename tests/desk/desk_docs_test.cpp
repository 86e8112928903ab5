// docs/desk-verbs.md is generated from the verb declarations; the committed copy must match, and every
// verb's declaration must be usable: a description, typed arguments, a schema MCP clients accept.

#include "desk/desk_docs.h"
#include "desk/models/model_tool.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

TEST(DeskDocs, CommittedVerbReferenceIsCurrent)
{
    std::ifstream in(NISH_SOURCE_DIR "/docs/desk-verbs.md");
    std::stringstream committed;
    committed << in.rdbuf();
    EXPECT_EQ(committed.str(), nd_desk::desk_verbs_markdown()) << "docs/desk-verbs.md is stale: run build/bin/nish-docgen --write docs";
}

TEST(DeskDocs, CommittedModelToolReferenceIsCurrent)
{
    std::ifstream in(NISH_SOURCE_DIR "/docs/model-tools.md");
    std::stringstream committed;
    committed << in.rdbuf();
    EXPECT_EQ(committed.str(), nd_desk::model_tools_markdown()) << "docs/model-tools.md is stale: run build/bin/nish-docgen --write docs";
}

TEST(DeskDocs, EveryModelToolIsDeclaredWhole)
{
    for (const auto& m : nd_desk::model_tools()) {
        EXPECT_TRUE(m.decl.name.starts_with("model_")) << m.decl.name;
        EXPECT_FALSE(m.decl.description.empty()) << m.decl.name;
        EXPECT_TRUE(static_cast<bool>(m.handler)) << m.decl.name;
        EXPECT_EQ(m.decl.policy, nd_mcp::ArgPolicy::refuse) << m.decl.name;
        for (const auto& a : m.decl.args)
            EXPECT_FALSE(a.description.empty()) << m.decl.name << "." << a.name;
        EXPECT_EQ(nd_desk::find_verb(m.decl.name), nullptr) << "a model tool is no desk verb";
    }
}

TEST(DeskDocs, EveryVerbIsDeclaredWhole)
{
    std::set<std::string> names;
    const std::regex name_rule("^[a-z][a-z0-9_]*$");
    for (const auto& v : nd_desk::desk_verbs()) {
        const std::string name(v.verb());
        EXPECT_EQ(v.decl.name, "desk_" + name);
        EXPECT_TRUE(std::regex_match(name, name_rule)) << name;
        EXPECT_TRUE(names.insert(name).second) << "twice: " << name;
        EXPECT_FALSE(v.decl.description.empty()) << name;
        EXPECT_TRUE(static_cast<bool>(v.handler)) << name;
        EXPECT_EQ(v.decl.policy, nd_mcp::ArgPolicy::refuse) << name;
        auto schema = nd_mcp::input_schema(v.decl);
        EXPECT_EQ(schema["type"], "object") << name;
        for (const auto& a : v.decl.args)
            EXPECT_FALSE(a.description.empty()) << name << "." << a.name;
        EXPECT_EQ(nd_desk::find_verb(v.decl.name), &v);
    }
    EXPECT_EQ(nd_desk::find_verb("screen"), nullptr) << "wire names carry the desk_ prefix";
    EXPECT_EQ(nd_desk::find_verb("desk_nonesuch"), nullptr);
}
