// The script runtime's generated files (runtime/verbs.generated.mjs, runtime/desk.d.ts) come from the
// verb declarations; the committed copies must match, so a script's `desk` cannot drift from the
// daemon's verbs.

#include "desk/runtime_gen.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

std::string committed(const std::string& name)
{
    std::ifstream in(std::string(NISH_SOURCE_DIR) + "/runtime/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST(RuntimeGen, CommittedFilesAreCurrent)
{
    EXPECT_EQ(committed("verbs.generated.mjs"), nd_desk::runtime_verbs_module())
        << "runtime/verbs.generated.mjs is stale: run build/bin/nish-docgen --write-runtime runtime";
    EXPECT_EQ(committed("desk.d.ts"), nd_desk::runtime_types())
        << "runtime/desk.d.ts is stale: run build/bin/nish-docgen --write-runtime runtime";
}

TEST(RuntimeGen, EveryVerbIsAFunction)
{
    const auto module = nd_desk::runtime_verbs_module();
    const auto types = nd_desk::runtime_types();
    for (const auto& v : nd_desk::desk_verbs()) {
        const std::string verb(v.verb());
        EXPECT_NE(module.find("\"tool\": \"" + v.decl.name + "\""), std::string::npos) << verb;
        EXPECT_NE(types.find("    " + verb + "("), std::string::npos) << verb;
    }
}

TEST(RuntimeGen, TypesFollowTheDeclarations)
{
    const auto types = nd_desk::runtime_types();
    // Required arguments positionally; an enum as a union of literals; optional ones marked.
    EXPECT_NE(types.find("    press(id: string): Promise<DeskResult>;"), std::string::npos);
    EXPECT_NE(types.find("    action: \"click\" | \"action\" | \"select\" | \"focus\";"), std::string::npos);
    EXPECT_NE(types.find("    find(name: string, more?: Omit<DeskFindArgs, \"name\">): Promise<DeskResult>;"), std::string::npos);
    EXPECT_NE(types.find("    since: Record<string, unknown>;"), std::string::npos);
    EXPECT_NE(types.find("    windows(): Promise<DeskResult>;"), std::string::npos);
    EXPECT_NE(types.find("    snapshot(args?: DeskSnapshotArgs): Promise<DeskResult>;"), std::string::npos);
}
