// The AT-SPI reply readers (backend/linux/atspi/atspi_message.h) on messages an app could send:
// every string an app gives is cut to the backend's cap on a character boundary, and a reply of the
// wrong shape is a negative errno, not a crash. Messages are built with sd-bus on a connection that
// needs no bus (a socket pair), so this runs without a desktop. fuzz/atspi_fuzz.cpp tries the rest.

#include "backend/linux/atspi/atspi_message.h"

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

} // namespace
