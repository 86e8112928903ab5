// finish_tree (depth, child and descendant counts, the structure hash) and element tokens
// <snapshot_id>:<N> (docs/tokens.md).

#include "core/model/snapshot.h"

#include "tree_fixture.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

using namespace nd_core;
using nd_test::TreeBuilder;

namespace {

// 0 frame
//   1 tool_bar
//     2 push_button
//     3 push_button
//   4 panel
//     5 list
//       6 list_item
//         7 label
//       8 list_item
//   9 status_bar
TreeBuilder sample()
{
    TreeBuilder t;
    t.add(-1, "frame", "Window");
    t.add(0, "tool_bar", "Tools");
    t.add(1, "push_button", "Bold");
    t.add(1, "push_button", "Italic");
    t.add(0, "panel", "Body");
    t.add(4, "list", "Messages");
    t.add(5, "list_item", "one");
    t.add(6, "label", "hello");
    t.add(5, "list_item", "two");
    t.add(0, "status_bar", "Status");
    return t;
}

std::uint64_t hash_of(const TreeBuilder& t)
{
    auto elements = t.elements();
    return finish_tree(elements);
}

} // namespace

TEST(FinishTree, FillsDepthAndCounts)
{
    auto elements = sample().elements();
    (void)finish_tree(elements);
    struct Expect {
        std::int32_t depth, children, descendants;
    };
    const Expect expected[] = {
        {0, 3, 9}, {1, 2, 2}, {2, 0, 0}, {2, 0, 0}, {1, 1, 4}, {2, 2, 3}, {3, 1, 1}, {4, 0, 0}, {3, 0, 0}, {1, 0, 0},
    };
    ASSERT_EQ(elements.size(), std::size(expected));
    for (std::size_t i = 0; i < elements.size(); ++i) {
        EXPECT_EQ(elements[i].depth, expected[i].depth) << "element " << i;
        EXPECT_EQ(elements[i].child_count, expected[i].children) << "element " << i;
        EXPECT_EQ(elements[i].descendant_count, expected[i].descendants) << "element " << i;
    }
}

TEST(FinishTree, OverwritesStaleCounts)
{
    auto elements = sample().elements();
    for (auto& e : elements) {
        e.depth = 99;
        e.child_count = 99;
        e.descendant_count = 99;
    }
    (void)finish_tree(elements);
    EXPECT_EQ(elements[0].depth, 0);
    EXPECT_EQ(elements[0].descendant_count, 9);
    EXPECT_EQ(elements[7].child_count, 0);
    EXPECT_EQ(elements[7].depth, 4);
}

TEST(FinishTree, ABadParentLinkMakesAnotherRootInsteadOfACrash)
{
    TreeBuilder t;
    t.add(-1, "frame");
    t.add(0, "panel");
    t.add(5, "label");   // parent after itself
    t.add(3, "label");   // parent is itself
    t.add(-7, "label");  // negative
    auto elements = t.elements();
    (void)finish_tree(elements);
    for (std::size_t i = 2; i < elements.size(); ++i) {
        EXPECT_EQ(elements[i].parent, -1) << i;
        EXPECT_EQ(elements[i].depth, 0) << i;
    }
    EXPECT_EQ(elements[0].child_count, 1);
    EXPECT_EQ(elements[0].descendant_count, 1);
}

TEST(FinishTree, EmptyAndSingle)
{
    std::vector<Element> none;
    EXPECT_EQ(finish_tree(none), finish_tree(none));
    TreeBuilder one;
    one.add(-1, "frame");
    auto elements = one.elements();
    (void)finish_tree(elements);
    EXPECT_EQ(elements[0].child_count, 0);
    EXPECT_EQ(elements[0].descendant_count, 0);
    EXPECT_NE(hash_of(one), finish_tree(none));
}

TEST(StructureHash, IsStable)
{
    EXPECT_EQ(hash_of(sample()), hash_of(sample()));
}

TEST(StructureHash, IgnoresNamesValuesStatesAndTheRest)
{
    const auto base = hash_of(sample());
    auto t = sample();
    t.at(2).name = "Bold (Ctrl+B)";
    t.at(7).value = "a new value";
    t.at(6).states |= STATE_FOCUSED | STATE_SELECTED;
    t.at(9).description = "described";
    t.at(3).actions = {"click", "press"};
    t.at(4).frame = {1, 2, 3, 4};
    t.at(4).has_frame = true;
    EXPECT_EQ(hash_of(t), base);
}

TEST(StructureHash, RolesKeysAndParentsAreStructure)
{
    const auto base = hash_of(sample());
    {
        // An element leaving the screen (a notebook page switched away) is structural.
        auto t = sample();
        t.at(5).states ^= STATE_SHOWING;
        EXPECT_NE(hash_of(t), base) << "showing";
    }
    {
        auto t = sample();
        t.at(3).role = "toggle_button";
        EXPECT_NE(hash_of(t), base) << "role";
    }
    {
        auto t = sample();
        t.at(8).key = "another";
        EXPECT_NE(hash_of(t), base) << "key";
    }
    {
        // The second list_item moves from the list to the panel: same preorder, other parent.
        auto t = sample();
        t.at(8).parent = 4;
        EXPECT_NE(hash_of(t), base) << "parent";
    }
    {
        auto t = sample();
        t.add(0, "label", "added");
        EXPECT_NE(hash_of(t), base) << "an added element";
    }
}

TEST(StructureHash, FieldBoundariesCount)
{
    // ("ab", "c") and ("a", "bc") as role and key must not collide.
    TreeBuilder a, b;
    a.add(-1, "ab");
    a.at(0).key = "c";
    b.add(-1, "a");
    b.at(0).key = "bc";
    EXPECT_NE(hash_of(a), hash_of(b));
}

TEST(Token, Formats)
{
    EXPECT_EQ(format_token("s12", 7), "s12:7");
    EXPECT_EQ(format_token("s1", 0), "s1:0");
    EXPECT_EQ(format_token("s1", std::numeric_limits<std::int32_t>::max()), "s1:2147483647");
}

TEST(Token, RoundTrips)
{
    for (std::string_view id : {"s1", "s123456", "a-b_c9"})
        for (std::int32_t index : {0, 1, 17, 4999, std::numeric_limits<std::int32_t>::max()}) {
            ParsedToken parsed;
            ASSERT_TRUE(parse_token(format_token(id, index), parsed)) << id << ":" << index;
            EXPECT_EQ(parsed.snapshot_id, id);
            EXPECT_EQ(parsed.index, index);
        }
}

TEST(Token, RejectsMalformedText)
{
    const std::string_view bad[] = {
        "", ":", "s1:", ":3", "s1:-1", "s1:x", "S1:3", "s1:3:4", "s1", "3", "s1:+3", "s1: 3", "s1:3 ", " s1:3",
        "s1:3x", "s1:0x1", "s1::3", "s 1:3", "s1.2:3", "s\xC3\xA9:3",
        "s1:2147483648",        // past int32
        "s1:99999999999999999", // far past it
    };
    for (auto text : bad) {
        ParsedToken parsed;
        EXPECT_FALSE(parse_token(text, parsed)) << testing::PrintToString(std::string(text));
    }
}

TEST(Token, LengthIsCappedAtSixtyFour)
{
    ParsedToken parsed;
    const std::string at_cap = "s" + std::string(61, '1') + ":5"; // 64 characters
    ASSERT_EQ(at_cap.size(), 64u);
    EXPECT_TRUE(parse_token(at_cap, parsed));
    EXPECT_EQ(parsed.index, 5);
    const std::string over = "s" + std::string(62, '1') + ":5";
    EXPECT_FALSE(parse_token(over, parsed));
    const std::string huge = "s" + std::string(100000, '1') + ":5";
    EXPECT_FALSE(parse_token(huge, parsed));
}
