// The AT-SPI reply readers (backend/linux/atspi/atspi_message.h, the outline of atspi_outline.h
// and the item cache of atspi_cache.h) on messages an app could send: every string an app gives is cut to the backend's
// cap on a character boundary, and a reply of the wrong shape is a negative errno, not a crash. Messages are built with sd-bus on a connection that
// needs no bus (a socket pair), so this runs without a desktop. fuzz/atspi_fuzz.cpp tries the rest.

#include "backend/linux/atspi/atspi_cache.h"
#include "backend/linux/atspi/atspi_message.h"
#include "backend/linux/atspi/atspi_outline.h"
#include "backend/linux/atspi/atspi_roles.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace {

using namespace nd_linux;

class AtspiMessageTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        int fds[2];
        ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        m_peer = fds[1];
        ASSERT_GE(sd_bus_new(&m_bus), 0);
        ASSERT_GE(sd_bus_set_fd(m_bus, fds[0], fds[0]), 0);
        ASSERT_GE(sd_bus_start(m_bus), 0); // messages can be made now; nothing is ever sent
    }
    void TearDown() override
    {
        sd_bus_close_unref(m_bus);
        ::close(m_peer);
    }

    // A sealed signal holding what `fill` appended, ready to read from its start.
    template <typename Fill>
    sd_bus_message* message(Fill fill)
    {
        sd_bus_message* m = nullptr;
        EXPECT_GE(sd_bus_message_new_signal(m_bus, &m, "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Test", "Reply"), 0);
        fill(m);
        EXPECT_GE(sd_bus_message_seal(m, ++m_serial, 0), 0);
        EXPECT_GE(sd_bus_message_rewind(m, 1), 0);
        m_messages.emplace_back(m);
        return m;
    }

    struct Unref {
        void operator()(sd_bus_message* m) const { sd_bus_message_unref(m); }
    };
    sd_bus* m_bus = nullptr;
    int m_peer = -1;
    std::uint64_t m_serial = 0;
    std::vector<std::unique_ptr<sd_bus_message, Unref>> m_messages;
};

// Longer than the cap, and a two-byte character across the cap.
std::string too_long()
{
    std::string s(MAX_TEXT_BYTES - 1, 'x');
    s += "\xc3\xa9 and more";
    return s;
}

TEST_F(AtspiMessageTest, AnAttributeValueIsCutToTheCapOnACharacterBoundary)
{
    const std::string big = too_long();
    auto* m = message([&](sd_bus_message* m) {
        ASSERT_GE(sd_bus_message_append(m, "a{ss}", 2, "id", "x", "toolkit", big.c_str()), 0);
    });
    std::string out;
    ASSERT_GE(read_attribute(m, "toolkit", out), 0);
    EXPECT_EQ(out, std::string(MAX_TEXT_BYTES - 1, 'x')); // the é would not fit whole
}

TEST_F(AtspiMessageTest, NamesAndDescriptionsAreCutToo)
{
    const std::string big = too_long();
    auto* m = message([&](sd_bus_message* m) {
        ASSERT_GE(sd_bus_message_append(m, "a{sv}", 3, "Name", "s", big.c_str(), "Description", "s", "short",
                                        "ChildCount", "i", 7),
                  0);
    });
    AccessibleProps props;
    ASSERT_GE(read_accessible_props(m, props), 0);
    EXPECT_EQ(props.name.size(), MAX_TEXT_BYTES - 1);
    EXPECT_EQ(props.description, "short");
    EXPECT_EQ(props.child_count, 7);
}

TEST_F(AtspiMessageTest, AnActionNameIsCutTo256Bytes)
{
    const std::string big(1000, 'a');
    auto* m = message([&](sd_bus_message* m) {
        ASSERT_GE(sd_bus_message_append(m, "a(sss)", 2, big.c_str(), "", "", "click", "", "<ctrl>c"), 0);
    });
    std::vector<std::string> names;
    ASSERT_GE(read_action_names(m, names), 0);
    ASSERT_EQ(names.size(), 2u);
    EXPECT_EQ(names[0].size(), 256u);
    EXPECT_EQ(names[1], "click");
}

TEST_F(AtspiMessageTest, AReplyOfTheWrongShapeIsAnErrorNotAValue)
{
    auto* m = message([](sd_bus_message* m) { ASSERT_GE(sd_bus_message_append(m, "u", 42u), 0); });
    std::string text;
    EXPECT_LT(read_string(m, text), 0);
    ASSERT_GE(sd_bus_message_rewind(m, 1), 0);
    std::vector<ObjectRef> refs;
    EXPECT_LT(read_refs(m, refs), 0);
    ASSERT_GE(sd_bus_message_rewind(m, 1), 0);
    double value = 0;
    EXPECT_LT(read_variant_double(m, value), 0);
    ASSERT_GE(sd_bus_message_rewind(m, 1), 0);
    nd_core::Frame frame;
    EXPECT_LT(read_extents(m, frame), 0);
}

TEST_F(AtspiMessageTest, ANumberOfAnyIntegerTypeReadsAsADouble)
{
    auto* m = message([](sd_bus_message* m) {
        ASSERT_GE(sd_bus_message_append(m, "vvv", "t", std::uint64_t{1} << 40, "i", -5, "s", "no"), 0);
    });
    double value = 0;
    ASSERT_GE(read_variant_double(m, value), 0);
    EXPECT_EQ(value, 1099511627776.0);
    ASSERT_GE(read_variant_double(m, value), 0);
    EXPECT_EQ(value, -5.0);
    EXPECT_LT(read_variant_double(m, value), 0); // a string is no number
}

// One object of a GetTree reply: its reference and the properties the outline asks for.
struct TreeObject {
    const char* path;
    const char* parent;
    const char* name;
    std::int32_t children;
    std::int32_t actions = -1; // -1: no Action.NActions (no Action)
    bool text = false;
};

void append_tree(sd_bus_message* m, const std::vector<TreeObject>& objects, const char* bus = ":1.7")
{
    ASSERT_GE(sd_bus_message_open_container(m, 'a', "((so)a{sv})"), 0);
    for (const auto& o : objects) {
        ASSERT_GE(sd_bus_message_open_container(m, 'r', "(so)a{sv}"), 0);
        ASSERT_GE(sd_bus_message_append(m, "(so)", bus, o.path), 0);
        ASSERT_GE(sd_bus_message_open_container(m, 'a', "{sv}"), 0);
        ASSERT_GE(sd_bus_message_append(m, "{sv}", "Name", "s", o.name), 0);
        ASSERT_GE(sd_bus_message_append(m, "{sv}", "Description", "s", ""), 0);
        ASSERT_GE(sd_bus_message_append(m, "{sv}", "ChildCount", "i", o.children), 0);
        ASSERT_GE(sd_bus_message_append(m, "{sv}", "Parent", "(so)", bus, o.parent), 0);
        if (o.actions >= 0)
            ASSERT_GE(sd_bus_message_append(m, "{sv}", "Action.NActions", "i", o.actions), 0);
        if (o.text)
            ASSERT_GE(sd_bus_message_append(m, "{sv}", "Text.CharacterCount", "i", 12), 0);
        ASSERT_GE(sd_bus_message_append(m, "{sv}", "Component.ScreenExtents", "(uuuu)", 1u, 2u, 3u, 4u), 0);
        ASSERT_GE(sd_bus_message_close_container(m), 0);
        ASSERT_GE(sd_bus_message_close_container(m), 0);
    }
    ASSERT_GE(sd_bus_message_close_container(m), 0);
}

const ObjectRef WINDOW{":1.7", "/w"};

TEST_F(AtspiMessageTest, AnOutlineGivesEachObjectItsChildrenInTheAppsOrderAndItsInterfaces)
{
    auto* m = message([](sd_bus_message* m) {
        append_tree(m, {{"/w", "/root", "Chat", 2},
                        {"/doc", "/w", "Page", 2, 2},
                        {"/a", "/doc", "First", 0, 2, true},
                        {"/b", "/doc", "Second", 0},
                        {"/bar", "/w", "", 0, 1}});
    });
    Outline outline;
    ASSERT_TRUE(outline.parse(m, WINDOW));
    EXPECT_EQ(outline.size(), 5u);
    const auto* w = outline.find(WINDOW);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->props.name, "Chat");
    ASSERT_EQ(w->children.size(), 2u);
    EXPECT_EQ(w->children[0].path, "/doc");
    EXPECT_EQ(w->children[1].path, "/bar");
    const auto* doc = outline.find({":1.7", "/doc"});
    ASSERT_NE(doc, nullptr);
    EXPECT_EQ(doc->props.child_count, 2);
    ASSERT_EQ(doc->children.size(), 2u);
    EXPECT_EQ(doc->children[0].path, "/a");
    EXPECT_EQ(doc->actions, 2);
    EXPECT_EQ(doc->interfaces, IF_ACCESSIBLE | IF_ACTION | IF_COMPONENT);
    const auto* a = outline.find({":1.7", "/a"});
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->interfaces, IF_ACCESSIBLE | IF_ACTION | IF_COMPONENT | IF_TEXT);
    const auto* b = outline.find({":1.7", "/b"});
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->actions, -1);
    EXPECT_EQ(b->interfaces & IF_ACTION, 0u);
}

// Component.ScreenExtents is each object's place on the screen, which the walk takes as its frame;
// a place of another shape still tells Component, and the walk asks that object itself.
TEST_F(AtspiMessageTest, AnOutlineGivesEachObjectsPlaceOnTheScreen)
{
    auto* m = message([](sd_bus_message* m) {
        ASSERT_GE(sd_bus_message_open_container(m, 'a', "((so)a{sv})"), 0);
        for (auto [path, shape] : {std::pair{"/w", "(uuuu)"}, {"/signed", "(iiii)"}, {"/odd", "(ii)"}, {"/none", ""}}) {
            ASSERT_GE(sd_bus_message_open_container(m, 'r', "(so)a{sv}"), 0);
            ASSERT_GE(sd_bus_message_append(m, "(so)", ":1.7", path), 0);
            ASSERT_GE(sd_bus_message_open_container(m, 'a', "{sv}"), 0);
            ASSERT_GE(sd_bus_message_append(m, "{sv}", "Parent", "(so)", ":1.7", "/w"), 0);
            if (std::string_view(shape) == "(uuuu)") // as at-spi2-atk writes it: signed numbers cast
                ASSERT_GE(sd_bus_message_append(m, "{sv}", "Component.ScreenExtents", "(uuuu)", 0xFFFFFFF8u, 20u, 300u, 40u), 0);
            else if (std::string_view(shape) == "(iiii)")
                ASSERT_GE(sd_bus_message_append(m, "{sv}", "Component.ScreenExtents", "(iiii)", -5, -2147483647 - 1, 30, 4), 0);
            else if (std::string_view(shape) == "(ii)")
                ASSERT_GE(sd_bus_message_append(m, "{sv}", "Component.ScreenExtents", "(ii)", 10, 20), 0);
            ASSERT_GE(sd_bus_message_append(m, "{sv}", "ChildCount", "i", 0), 0);
            ASSERT_GE(sd_bus_message_close_container(m), 0);
            ASSERT_GE(sd_bus_message_close_container(m), 0);
        }
        ASSERT_GE(sd_bus_message_close_container(m), 0);
    });
    Outline outline;
    ASSERT_TRUE(outline.parse(m, WINDOW));
    const auto* w = outline.find(WINDOW);
    ASSERT_NE(w, nullptr);
    ASSERT_TRUE(w->extents.has_value());
    EXPECT_EQ(*w->extents, (nd_core::Frame{-8, 20, 300, 40})); // a window reaching off the screen's left
    const auto* signed_place = outline.find({":1.7", "/signed"});
    ASSERT_NE(signed_place, nullptr);
    ASSERT_TRUE(signed_place->extents.has_value());
    EXPECT_EQ(*signed_place->extents, (nd_core::Frame{-5, -2147483647 - 1, 30, 4}));
    const auto* odd = outline.find({":1.7", "/odd"});
    ASSERT_NE(odd, nullptr);
    EXPECT_EQ(odd->interfaces & IF_COMPONENT, IF_COMPONENT);
    EXPECT_FALSE(odd->extents.has_value());
    EXPECT_EQ(odd->props.child_count, 0); // what follows the odd place is read
    const auto* none = outline.find({":1.7", "/none"});
    ASSERT_NE(none, nullptr);
    EXPECT_EQ(none->interfaces & IF_COMPONENT, 0u);
    EXPECT_FALSE(none->extents.has_value());
}

// An outline of action counts (the item cache gives the rest): each object's reference and its
// Action.NActions alone; the walk takes nothing else from it.
TEST_F(AtspiMessageTest, AnOutlineOfActionCountsCountsEachObjectsActions)
{
    auto* m = message([](sd_bus_message* m) {
        ASSERT_GE(sd_bus_message_open_container(m, 'a', "((so)a{sv})"), 0);
        for (auto [path, actions] : {std::pair{"/w", -1}, {"/doc", 2}, {"/button", 8}, {"/text", 1}}) {
            ASSERT_GE(sd_bus_message_open_container(m, 'r', "(so)a{sv}"), 0);
            ASSERT_GE(sd_bus_message_append(m, "(so)", ":1.7", path), 0);
            ASSERT_GE(sd_bus_message_open_container(m, 'a', "{sv}"), 0);
            if (actions >= 0)
                ASSERT_GE(sd_bus_message_append(m, "{sv}", "Action.NActions", "i", actions), 0);
            ASSERT_GE(sd_bus_message_close_container(m), 0);
            ASSERT_GE(sd_bus_message_close_container(m), 0);
        }
        ASSERT_GE(sd_bus_message_close_container(m), 0);
    });
    Outline outline;
    ASSERT_TRUE(outline.parse(m, WINDOW, OutlineKind::action_counts));
    EXPECT_EQ(outline.kind(), OutlineKind::action_counts);
    EXPECT_EQ(outline.size(), 4u);
    EXPECT_EQ(outline.find(WINDOW)->actions, -1);
    EXPECT_EQ(outline.find(WINDOW)->interfaces & IF_ACTION, 0u);
    const auto* button = outline.find({":1.7", "/button"});
    ASSERT_NE(button, nullptr);
    EXPECT_EQ(button->actions, 8);
    EXPECT_EQ(button->interfaces & IF_ACTION, IF_ACTION);
    EXPECT_TRUE(button->props.name.empty());
    EXPECT_TRUE(outline.find(WINDOW)->children.empty()); // no Parent asked: no children known
}

TEST_F(AtspiMessageTest, AnOutlineLeavesOutWhatItCannotPlaceAndTheWalkAsksForIt)
{
    // A list that manages its descendants counts 2^31-1 children and lists none; an object listed
    // twice keeps its first place; one naming itself or an object outside the outline as its
    // parent joins nothing.
    auto* m = message([](sd_bus_message* m) {
        append_tree(m, {{"/w", "/root", "Sheet", 3},
                        {"/list", "/w", "", 2147483647},
                        {"/x", "/w", "X", 0},
                        {"/x", "/list", "X again", 0},
                        {"/self", "/self", "", 0},
                        {"/stray", "/elsewhere", "", 0}});
    });
    Outline outline;
    ASSERT_TRUE(outline.parse(m, WINDOW));
    const auto* w = outline.find(WINDOW);
    ASSERT_NE(w, nullptr);
    ASSERT_EQ(w->children.size(), 2u); // fewer than its 3: the walk asks GetChildren
    EXPECT_EQ(w->children[1].path, "/x");
    const auto* list = outline.find({":1.7", "/list"});
    ASSERT_NE(list, nullptr);
    EXPECT_TRUE(list->children.empty());
    EXPECT_EQ(outline.find({":1.7", "/x"})->props.name, "X");
    EXPECT_NE(outline.find({":1.7", "/stray"}), nullptr);
}

TEST_F(AtspiMessageTest, AnOutlineOfAnotherObjectOrShapeIsNone)
{
    auto* other = message([](sd_bus_message* m) { append_tree(m, {{"/doc", "/w", "Page", 0}}); });
    Outline outline;
    EXPECT_FALSE(outline.parse(other, WINDOW));
    auto* empty = message([](sd_bus_message* m) { append_tree(m, {}); });
    EXPECT_FALSE(outline.parse(empty, WINDOW));
    auto* refs = message([](sd_bus_message* m) { ASSERT_GE(sd_bus_message_append(m, "a(so)", 1, ":1.7", "/w"), 0); });
    EXPECT_FALSE(outline.parse(refs, WINDOW));
    // A property of the wrong type fails the whole outline: the walk asks object by object.
    auto* bad = message([](sd_bus_message* m) {
        ASSERT_GE(sd_bus_message_open_container(m, 'a', "((so)a{sv})"), 0);
        ASSERT_GE(sd_bus_message_open_container(m, 'r', "(so)a{sv}"), 0);
        ASSERT_GE(sd_bus_message_append(m, "(so)", ":1.7", "/w"), 0);
        ASSERT_GE(sd_bus_message_append(m, "a{sv}", 1, "ChildCount", "s", "two"), 0);
        ASSERT_GE(sd_bus_message_close_container(m), 0);
        ASSERT_GE(sd_bus_message_close_container(m), 0);
    });
    EXPECT_FALSE(outline.parse(bad, WINDOW));
    EXPECT_EQ(outline.size(), 0u);
}

// An item cache (Cache.GetItems) as Gecko's bridge answers it a moment after a new tab's first
// document was replaced by its page: the old document, defunct, still names the tab's frame as its
// parent, and the frame counts one child. A defunct item is out of the tree: it is not the frame's
// child (the walk asks the frame for its children), nor a document below the window (which would
// keep the window from its outline).
TEST_F(AtspiMessageTest, AnItemCacheLeavesOutWhatIsDefunct)
{
    struct Item {
        const char* path;
        const char* parent;
        std::int32_t index, children;
        std::uint32_t role, states;
    };
    const std::uint32_t showing = 1u << ATSPI_STATE_SHOWING, defunct = 1u << ATSPI_STATE_DEFUNCT;
    auto reply = [&](const std::vector<Item>& items) {
        return message([&](sd_bus_message* m) {
            ASSERT_GE(sd_bus_message_open_container(m, 'a', "((so)(so)(so)iiassusau)"), 0);
            for (const auto& i : items) {
                ASSERT_GE(sd_bus_message_open_container(m, 'r', "(so)(so)(so)iiassusau"), 0);
                ASSERT_GE(sd_bus_message_append(m, "(so)(so)(so)ii", ":1.7", i.path, ":1.7", "/root", ":1.7", i.parent,
                                                i.index, i.children),
                          0);
                ASSERT_GE(sd_bus_message_append(m, "as", 1, "org.a11y.atspi.Accessible"), 0);
                ASSERT_GE(sd_bus_message_append(m, "susau", "", i.role, "", 2, i.states, 0u), 0);
                ASSERT_GE(sd_bus_message_close_container(m), 0);
            }
            ASSERT_GE(sd_bus_message_close_container(m), 0);
        });
    };
    const Item window{"/w", "/root", 0, 1, ATSPI_ROLE_FRAME, showing};
    const Item frame{"/frame", "/w", 0, 1, *atspi_role_from_name("internal_frame"), showing};
    const Item old_document{"/old", "/frame", -1, -1, ATSPI_ROLE_DOCUMENT_WEB, showing | defunct};
    const ObjectRef at_frame{":1.7", "/frame"};

    ItemCache replaced;
    ASSERT_TRUE(replaced.parse(reply({window, frame, old_document})));
    EXPECT_EQ(replaced.size(), 2u);
    EXPECT_EQ(replaced.find({":1.7", "/old"}), nullptr);
    EXPECT_EQ(replaced.children(at_frame), nullptr);
    EXPECT_FALSE(replaced.holds_below(WINDOW, ATSPI_ROLE_DOCUMENT_WEB, ATSPI_STATE_SHOWING));

    // Once the page is announced, the cache holds it beside the old one, and only it counts.
    ItemCache loaded;
    ASSERT_TRUE(loaded.parse(reply({window, frame, old_document, {"/page", "/frame", 0, 3, ATSPI_ROLE_DOCUMENT_WEB, showing}})));
    const auto* kids = loaded.children(at_frame);
    ASSERT_NE(kids, nullptr);
    ASSERT_EQ(kids->size(), 1u);
    EXPECT_EQ((*kids)[0], (ObjectRef{":1.7", "/page"}));
    EXPECT_TRUE(loaded.holds_below(WINDOW, ATSPI_ROLE_DOCUMENT_WEB, ATSPI_STATE_SHOWING));
}

} // namespace
