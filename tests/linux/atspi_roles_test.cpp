// The AT-SPI value mappings, without a desktop: role names, state bits, keys, numbers and the
// choice of a window's top-level.

#include "backend/linux/atspi/atspi_locator.h"
#include "backend/linux/atspi/atspi_message.h"
#include "backend/linux/atspi/atspi_roles.h"

#include <systemd/sd-bus.h>
#include <gtest/gtest.h>

namespace {

using namespace nd_linux;

TEST(AtspiRoles, every_role_number_has_a_snake_case_name)
{
    EXPECT_EQ(atspi_role_name(43), "push_button");
    EXPECT_EQ(atspi_role_name(7), "check_box");
    EXPECT_EQ(atspi_role_name(38), "page_tab_list");
    EXPECT_EQ(atspi_role_name(40), "password_text");
    EXPECT_EQ(atspi_role_name(23), "frame");
    EXPECT_EQ(atspi_role_name(129), "push_button_menu");
    EXPECT_EQ(atspi_role_name(130), "unknown");
    EXPECT_EQ(atspi_role_name(0xffffffffu), "unknown");
    for (std::uint32_t r = 0; r < 130; ++r) {
        auto name = atspi_role_name(r);
        ASSERT_FALSE(name.empty());
        for (char c : name)
            EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_') << name;
    }
}

TEST(AtspiRoles, states_map_to_our_bits)
{
    AtspiStates s;
    s.low = (1u << ATSPI_STATE_FOCUSED) | (1u << ATSPI_STATE_SENSITIVE) | (1u << ATSPI_STATE_CHECKED) |
            (1u << ATSPI_STATE_SHOWING) | (1u << ATSPI_STATE_MULTI_LINE);
    std::uint32_t ours = map_states(61, s);
    EXPECT_TRUE(ours & nd_core::STATE_FOCUSED);
    EXPECT_TRUE(ours & nd_core::STATE_ENABLED);
    EXPECT_TRUE(ours & nd_core::STATE_CHECKED);
    EXPECT_TRUE(ours & nd_core::STATE_SHOWING);
    EXPECT_TRUE(ours & nd_core::STATE_MULTI_LINE);
    EXPECT_FALSE(ours & nd_core::STATE_SECURE);
    EXPECT_FALSE(ours & nd_core::STATE_CHECKABLE);

    AtspiStates checkable;
    checkable.high = 1u << (ATSPI_STATE_CHECKABLE - 32);
    EXPECT_TRUE(map_states(29, checkable) & nd_core::STATE_CHECKABLE);
    EXPECT_TRUE(map_states(7, AtspiStates{}) & nd_core::STATE_CHECKABLE); // a check box by role
    EXPECT_TRUE(map_states(ATSPI_ROLE_PASSWORD_TEXT, AtspiStates{}) & nd_core::STATE_SECURE);
    EXPECT_TRUE(is_secure_role(ATSPI_ROLE_PASSWORD_TEXT));
    EXPECT_FALSE(is_secure_role(61));
}

TEST(AtspiRoles, interfaces_and_value_roles)
{
    EXPECT_EQ(interface_bit("org.a11y.atspi.Action"), IF_ACTION);
    EXPECT_EQ(interface_bit("org.a11y.atspi.EditableText"), IF_EDITABLE_TEXT);
    EXPECT_EQ(interface_bit("org.example.Other"), 0u);
    EXPECT_TRUE(is_text_role(61));
    EXPECT_TRUE(is_value_role(51));
    EXPECT_FALSE(is_text_role(ATSPI_ROLE_PASSWORD_TEXT));
    EXPECT_FALSE(is_value_role(43));
}

TEST(AtspiKeys, round_trip_and_refuse_what_is_not_ours)
{
    ObjectRef ref{":1.42", "/org/a11y/atspi/accessible/17"};
    EXPECT_EQ(ref.key(), ":1.42|/org/a11y/atspi/accessible/17");
    auto back = parse_key(ref.key());
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, ref);
    EXPECT_FALSE(parse_key(""));
    EXPECT_FALSE(parse_key("no bar"));
    EXPECT_FALSE(parse_key(":1.42|not/a/path"));
    EXPECT_FALSE(parse_key(":1.42|/bad//path"));
    EXPECT_FALSE(parse_key("bad name!|/org/a11y"));
    EXPECT_FALSE(parse_key("|/org/a11y"));
    EXPECT_TRUE(ObjectRef({":1.2", "/org/a11y/atspi/null"}).null());
    // is_object_key answers as parse_key, and its paths are D-Bus's (sd-bus's own check).
    for (const char* path : {"/", "/a", "/a/b_1/C9", "", "a", "//", "/a/", "/a//b", "/a-b", "/a.b", "/a|b", "/é",
             "/org/a11y/atspi/accessible/17|5~00", "/org/a11y/atspi/accessible/root"}) {
        const std::string key = std::string(":1.42|") + path;
        EXPECT_EQ(is_object_key(key), sd_bus_object_path_is_valid(path) > 0) << path;
        EXPECT_EQ(is_object_key(key), parse_key(key).has_value()) << path;
    }
    EXPECT_FALSE(is_object_key("no bar"));
    EXPECT_FALSE(is_object_key("|/org"));
}

// A heading's level attribute: a small positive number, else no level.
TEST(AtspiRoles, heading_levels_are_small_positive_numbers)
{
    EXPECT_EQ(heading_level("1"), 1);
    EXPECT_EQ(heading_level("2"), 2);
    EXPECT_EQ(heading_level("12"), 12);
    EXPECT_EQ(heading_level("0"), 0);
    EXPECT_EQ(heading_level(""), 0);
    EXPECT_EQ(heading_level("-1"), 0);
    EXPECT_EQ(heading_level("2a"), 0);
    EXPECT_EQ(heading_level("123"), 0);
    EXPECT_EQ(heading_level(" 2"), 0);
}

// A Qt item view's cell: its key names the view, its index and a hash of its name, and reads back
// as the view's child at that index; another name at the same place is another key.
TEST(AtspiKeys, positional_keys_name_the_place_and_the_text)
{
    ObjectRef view{":1.42", "/org/a11y/atspi/accessible/17"};
    const auto key = positional_key(view, 5, "Getting Started");
    EXPECT_EQ(key.rfind(":1.42|/org/a11y/atspi/accessible/17|5~", 0), 0u) << key;
    EXPECT_FALSE(parse_key(key)) << "not an object path of its own";
    auto child = parse_child_key(key);
    ASSERT_TRUE(child);
    EXPECT_EQ(child->container, view);
    EXPECT_EQ(child->row, 5);
    EXPECT_EQ(child->column, -1);
    EXPECT_EQ(positional_key(view, 5, "Getting Started"), key);
    EXPECT_NE(positional_key(view, 5, "Getting started"), key);
    EXPECT_NE(positional_key(view, 6, "Getting Started"), key);
    EXPECT_EQ(parse_child_key(child_key(view, 3, 2))->column, 2);
    EXPECT_FALSE(parse_child_key(":1.42|/org/a11y/atspi/accessible/17|x~00"));
    EXPECT_TRUE(is_item_view_role(65)); // tree
    EXPECT_FALSE(is_item_view_role(39)); // panel
    EXPECT_TRUE(is_panel_role(39));
    EXPECT_TRUE(is_label_role(29));
}

// A table's column header keyed by its column (Java makes its headers anew at each ask).
TEST(AtspiKeys, a_column_header_is_keyed_by_its_column)
{
    const ObjectRef table{":1.42", "/org/a11y/atspi/accessible/17"};
    const auto key = column_header_key(table, 2);
    EXPECT_EQ(key, ":1.42|/org/a11y/atspi/accessible/17|h2");
    auto header = parse_child_key(key);
    ASSERT_TRUE(header);
    EXPECT_EQ(header->container, table);
    EXPECT_TRUE(header->column_header);
    EXPECT_EQ(header->column, 2);
    EXPECT_EQ(header->row, -1);
    EXPECT_FALSE(parse_child_key(child_key(table, 3, 2))->column_header);
    EXPECT_FALSE(parse_child_key(":1.42|/org/a11y/atspi/accessible/17|h"));
    EXPECT_FALSE(parse_child_key(":1.42|/org/a11y/atspi/accessible/17|h1,2"));
}

TEST(AtspiValues, numbers_and_cuts)
{
    EXPECT_EQ(format_number(42.0), "42");
    EXPECT_EQ(format_number(-3.0), "-3");
    EXPECT_EQ(format_number(0.5), "0.5");
    EXPECT_EQ(format_number(1.0 / 0.0), "");
    EXPECT_EQ(cut_utf8("abc", 10), "abc");
    EXPECT_EQ(cut_utf8("a\xC3\xA9z", 2), "a"); // never splits é
    EXPECT_EQ(cut_utf8("a\xC3\xA9z", 3), "a\xC3\xA9");
}

TopLevel top(std::string name, nd_core::Frame frame, bool showing)
{
    TopLevel t;
    t.ref = {":1.5", "/org/a11y/atspi/accessible/1"};
    t.name = std::move(name);
    t.frame = frame;
    t.has_frame = frame.w > 0;
    t.role = ATSPI_ROLE_FRAME;
    if (showing)
        t.states.low = 1u << ATSPI_STATE_SHOWING;
    return t;
}

TEST(AtspiLocator, chooses_by_title_then_by_extents)
{
    std::vector<TopLevel> tops = {top("Preferences", {100, 100, 400, 300}, true),
                                  top("Main", {0, 0, 1000, 700}, true),
                                  top("", {0, 0, 1000, 700}, false)};
    nd_core::WindowInfo w;
    w.pid = 1;
    w.title = "Main";
    EXPECT_EQ(choose_top_level(tops, w), 1);
    w.title = "Preferences";
    w.frame = {0, 0, 1000, 700}; // the title wins over the frame
    EXPECT_EQ(choose_top_level(tops, w), 0);
    w.title = "Something else";
    w.frame = {102, 98, 400, 304};
    EXPECT_EQ(choose_top_level(tops, w), 0);
    w.frame = {5000, 5000, 10, 10}; // overlaps nothing, two showing: no guess
    EXPECT_EQ(choose_top_level(tops, w), -1);
    std::vector<TopLevel> lone = {top("", {0, 0, 0, 0}, true), top("Hidden", {0, 0, 0, 0}, false)};
    EXPECT_EQ(choose_top_level(lone, w), 0);
    EXPECT_EQ(choose_top_level({}, w), -1);
}

} // namespace
