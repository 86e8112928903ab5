// docs/desk-verbs.md is generated from the verb declarations; the committed copy must match, and every
// verb's declaration must be usable: a description, typed arguments, a schema MCP clients accept.

#include "desk/desk_docs.h"
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

TEST(DeskDocs, EveryVerbIsDeclaredWhole)
{
    std::set<std::string> names;
    const std::regex name_rule("^[a-z][a-z0-9_]*$");
    for (const auto& v : nd_desk::desk_verbs()) {
        EXPECT_TRUE(std::regex_match(v.name, name_rule)) << v.name;
        EXPECT_TRUE(names.insert(v.name).second) << "twice: " << v.name;
        EXPECT_FALSE(v.description.empty()) << v.name;
        EXPECT_TRUE(static_cast<bool>(v.handler)) << v.name;
        auto schema = nd_desk::input_schema(v);
        EXPECT_EQ(schema["type"], "object") << v.name;
        for (const auto& a : v.args)
            EXPECT_FALSE(a.description.empty()) << v.name << "." << a.name;
        EXPECT_EQ(nd_desk::find_verb("desk_" + v.name), &v);
    }
    EXPECT_EQ(nd_desk::find_verb("screen"), nullptr) << "wire names carry the desk_ prefix";
    EXPECT_EQ(nd_desk::find_verb("desk_nonesuch"), nullptr);
}
