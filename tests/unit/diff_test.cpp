// Diffs between two reads of a window, matched by backend key: added, removed and changed (name,
// value, states), the entry cap, and secure values that never appear.

#include "core/model/diff.h"

#include "tree_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace nd_core;
using nd_test::PLAIN;
using nd_test::TreeBuilder;

namespace {

const std::string SECRET_BEFORE = "old-secret-value";
const std::string SECRET_AFTER = "new-secret-value";

// frame "Window" (win) > push_button "OK" (ok), text "Name" = "Ada" (name), password_text (pw)
TreeBuilder base()
{
    TreeBuilder t;
    t.add(-1, "frame", "Window");
    t.at(0).key = "win";
    t.add(0, "push_button", "OK");
    t.at(1).key = "ok";
    t.add(0, "text", "Name", PLAIN | STATE_EDITABLE);
    t.at(2).key = "name";
    t.at(2).value = "Ada";
    t.add(0, "password_text", "Password", PLAIN | STATE_EDITABLE);
    t.at(3).key = "pw";
    return t;
}

std::string json_of(const Diff& d, const Snapshot& after)
{
    std::string out;
    JsonWriter w(out);
    write_diff_json(w, d, after);
    return out;
}

} // namespace

TEST(Diff, IdenticalReadsAreEmpty)
{
    const auto a = base().snapshot("s1");
    const auto b = base().snapshot("s1");
    const auto d = diff_snapshots(a, b);
    EXPECT_TRUE(d.empty());
    EXPECT_FALSE(d.structural);
    EXPECT_TRUE(d.entries.empty());
    EXPECT_FALSE(d.truncated);
}

TEST(Diff, Added)
{
    auto after = base();
    after.add(0, "label", "Saved");
    after.at(4).key = "saved";
    const auto d = diff_snapshots(base().snapshot("s1"), after.snapshot("s2"));
    EXPECT_TRUE(d.structural);
    EXPECT_EQ(d.added, 1);
    EXPECT_EQ(d.removed, 0);
    EXPECT_EQ(d.changed, 0);
    ASSERT_EQ(d.entries.size(), 1u);
    EXPECT_EQ(d.entries[0].kind, DiffEntry::Kind::added);
    EXPECT_EQ(d.entries[0].index, 4);
    EXPECT_EQ(d.entries[0].role, "label");
    EXPECT_EQ(d.entries[0].name, "Saved");
}

TEST(Diff, Removed)
{
    TreeBuilder after;
    after.add(-1, "frame", "Window");
    after.at(0).key = "win";
    after.add(0, "text", "Name", PLAIN | STATE_EDITABLE);
    after.at(1).key = "name";
    after.at(1).value = "Ada";
    after.add(0, "password_text", "Password", PLAIN | STATE_EDITABLE);
    after.at(2).key = "pw";
    const auto d = diff_snapshots(base().snapshot("s1"), after.snapshot("s2"));
    EXPECT_TRUE(d.structural);
    EXPECT_EQ(d.added, 0);
    EXPECT_EQ(d.removed, 1);
    EXPECT_EQ(d.changed, 0);
    ASSERT_EQ(d.entries.size(), 1u);
    EXPECT_EQ(d.entries[0].kind, DiffEntry::Kind::removed);
    EXPECT_EQ(d.entries[0].index, 1); // its index in the before read
    EXPECT_EQ(d.entries[0].name, "OK");
}

TEST(Diff, ChangedNameValueAndStates)
{
    auto after = base();
    after.at(1).name = "Done";
    after.at(2).value = "Grace";
    after.at(2).states |= STATE_FOCUSED;
    const auto d = diff_snapshots(base().snapshot("s1"), after.snapshot("s1"));
    EXPECT_FALSE(d.structural);
    EXPECT_EQ(d.added, 0);
    EXPECT_EQ(d.removed, 0);
    EXPECT_EQ(d.changed, 3);
    ASSERT_EQ(d.entries.size(), 3u);

    EXPECT_EQ(d.entries[0].kind, DiffEntry::Kind::changed);
    EXPECT_EQ(d.entries[0].index, 1);
    EXPECT_EQ(d.entries[0].field, "name");
    EXPECT_EQ(d.entries[0].from, "OK");
    EXPECT_EQ(d.entries[0].to, "Done");
    EXPECT_EQ(d.entries[0].name, "Done"); // the element's name in the after read

    EXPECT_EQ(d.entries[1].index, 2);
    EXPECT_EQ(d.entries[1].field, "value");
    EXPECT_EQ(d.entries[1].from, "Ada");
    EXPECT_EQ(d.entries[1].to, "Grace");

    EXPECT_EQ(d.entries[2].index, 2);
    EXPECT_EQ(d.entries[2].field, "states");
    EXPECT_EQ(d.entries[2].from, "enabled,editable,showing");
    EXPECT_EQ(d.entries[2].to, "focused,enabled,editable,showing");
}

TEST(Diff, MatchesByKeyNotByPosition)
{
    // The same elements in another order (one moved): no name or value changes are reported.
    TreeBuilder after;
    after.add(-1, "frame", "Window");
    after.at(0).key = "win";
    after.add(0, "text", "Name", PLAIN | STATE_EDITABLE);
    after.at(1).key = "name";
    after.at(1).value = "Ada";
    after.add(0, "push_button", "OK");
    after.at(2).key = "ok";
    after.add(0, "password_text", "Password", PLAIN | STATE_EDITABLE);
    after.at(3).key = "pw";
    const auto d = diff_snapshots(base().snapshot("s1"), after.snapshot("s2"));
    EXPECT_TRUE(d.structural);
    EXPECT_EQ(d.added, 0);
    EXPECT_EQ(d.removed, 0);
    EXPECT_EQ(d.changed, 0);
}

TEST(Diff, SecureValuesNeverAppear)
{
    auto before = base();
    before.at(3).value = SECRET_BEFORE; // a backend never reads it; the diff must not leak it anyway
    auto after = base();
    after.at(3).value = SECRET_AFTER;
    // And a plain field that turns secure while its value changes.
    after.at(2).states |= STATE_SECURE;
    after.at(2).value = SECRET_AFTER;
    const auto b = before.snapshot("s1");
    const auto a = after.snapshot("s1");
    const auto d = diff_snapshots(b, a);
    for (const auto& e : d.entries) {
        EXPECT_NE(e.field, "value") << "a secure value change was reported";
        EXPECT_EQ(e.from.find("secret"), std::string::npos);
        EXPECT_EQ(e.to.find("secret"), std::string::npos);
        EXPECT_EQ(e.from.find("Ada"), std::string::npos);
    }
    // The state change itself is reported.
    ASSERT_EQ(d.entries.size(), 1u);
    EXPECT_EQ(d.entries[0].field, "states");
    EXPECT_EQ(json_of(d, a).find("secret"), std::string::npos);
}

TEST(Diff, LongTextIsCut)
{
    auto after = base();
    after.at(1).name = std::string(300, 'n');
    after.at(2).value = std::string(300, 'v');
    const auto d = diff_snapshots(base().snapshot("s1"), after.snapshot("s1"));
    ASSERT_EQ(d.entries.size(), 2u);
    EXPECT_EQ(nd_test::utf8_length(d.entries[0].name), 80u);
    EXPECT_EQ(nd_test::utf8_length(d.entries[0].to), 80u);
    EXPECT_EQ(nd_test::utf8_length(d.entries[1].to), 80u);
}

TEST(Diff, MaxEntriesCutSetsTruncatedButCountsEverything)
{
    TreeBuilder before;
    before.add(-1, "frame", "W");
    for (int i = 0; i < 10; ++i)
        before.add(0, "label", "old " + std::to_string(i));
    auto after = before;
    for (int i = 1; i <= 10; ++i)
        after.at(i).name = "new " + std::to_string(i);
    const auto b = before.snapshot("s1");
    const auto a = after.snapshot("s1");

    auto d = diff_snapshots(b, a, 3);
    EXPECT_EQ(d.changed, 10);
    EXPECT_EQ(d.entries.size(), 3u);
    EXPECT_TRUE(d.truncated);

    d = diff_snapshots(b, a, 10);
    EXPECT_EQ(d.entries.size(), 10u);
    EXPECT_FALSE(d.truncated);

    d = diff_snapshots(b, a, 0);
    EXPECT_EQ(d.changed, 10);
    EXPECT_TRUE(d.entries.empty());
    EXPECT_TRUE(d.truncated);
}

TEST(Diff, DefaultCapIsForty)
{
    TreeBuilder before;
    before.add(-1, "frame", "W");
    TreeBuilder after;
    after.add(-1, "frame", "W");
    for (int i = 0; i < 50; ++i)
        after.add(0, "label", "x");
    const auto d = diff_snapshots(before.snapshot("s1"), after.snapshot("s2"));
    EXPECT_EQ(d.added, 50);
    EXPECT_EQ(d.entries.size(), DIFF_MAX_ENTRIES);
    EXPECT_TRUE(d.truncated);
}

TEST(DiffJson, Shape)
{
    auto after = base();
    after.at(1).name = "Done";
    after.add(0, "label", "Saved");
    after.at(4).key = "saved";
    TreeBuilder before = base();
    before.add(0, "label", "Gone");
    before.at(4).key = "gone";
    const auto a = after.snapshot("s8");
    const auto d = diff_snapshots(before.snapshot("s7"), a);
    const auto j = nlohmann::json::parse(json_of(d, a));
    EXPECT_EQ(j["structural"], true);
    EXPECT_EQ(j["added"], 1);
    EXPECT_EQ(j["removed"], 1);
    EXPECT_EQ(j["changed"], 1);
    EXPECT_EQ(j["truncated"], false);
    ASSERT_EQ(j["entries"].size(), 3u);
    const auto& changed = j["entries"][0];
    EXPECT_EQ(changed["kind"], "changed");
    EXPECT_EQ(changed["element_index"], 1);
    EXPECT_EQ(changed["element_token"], "s8:1");
    EXPECT_EQ(changed["field"], "name");
    EXPECT_EQ(changed["from"], "OK");
    EXPECT_EQ(changed["to"], "Done");
    const auto& added = j["entries"][1];
    EXPECT_EQ(added["kind"], "added");
    EXPECT_EQ(added["element_token"], "s8:4");
    EXPECT_EQ(added["role"], "label");
    EXPECT_FALSE(added.contains("from"));
    const auto& removed = j["entries"][2];
    EXPECT_EQ(removed["kind"], "removed");
    EXPECT_EQ(removed["element_index"], 4);
    EXPECT_EQ(removed["name"], "Gone");
    EXPECT_FALSE(removed.contains("element_token")); // its element is not in the after read
}
