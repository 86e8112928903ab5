// Peer-to-peer connections to apps: the address and owner checks, and gtk3-widget-factory read
// over its own socket with the same result as over the bus.

#include "atspi_test_app.h"

#include "backend/linux/atspi/atspi_message.h"
#include "backend/linux/atspi/atspi_peer.h"

#include <sys/socket.h>
#include <unistd.h>

namespace {

using namespace nd_test;
using nd_linux::peer_socket_path;

TEST(AtspiPeerAddress, AcceptsOnlyOnePlainUnixPath)
{
    EXPECT_EQ(peer_socket_path("unix:path=/run/user/1000/at-spi2-socket-42"), "/run/user/1000/at-spi2-socket-42");
    for (const char* bad : {"", "unix:path=", "unix:path=relative/socket", "unix:abstract=/x",
                            "tcp:host=localhost,port=1", "unix:path=/a,guid=0123", "unix:path=/a;unix:path=/b",
                            "unix:path=/a%2cguid", "unix:path=/a b", "unix:path=/tmp/../etc/socket", "unix:path=/x/..",
                            "UNIX:path=/a", " unix:path=/a"})
        EXPECT_FALSE(peer_socket_path(bad)) << bad;
    EXPECT_FALSE(peer_socket_path("unix:path=/" + std::string(120, 'a'))) << "longer than sun_path";
}

TEST(AtspiPeerAddress, SocketOwnerMustBeTheAppsPid)
{
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    EXPECT_TRUE(nd_linux::socket_belongs_to(fds[0], ::getpid()));
    EXPECT_FALSE(nd_linux::socket_belongs_to(fds[0], ::getpid() + 1));
    EXPECT_FALSE(nd_linux::socket_belongs_to(fds[0], 0));
    EXPECT_FALSE(nd_linux::socket_belongs_to(-1, ::getpid()));
    ::close(fds[0]);
    ::close(fds[1]);
    auto refused = nd_linux::connect_peer("unix:path=/nonexistent/nish-no-socket", ::getpid());
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, nd_core::ErrorCode::action_failed);
}

class AtspiPeerTest : public WidgetFactoryTest {};

TEST_F(AtspiPeerTest, Gtk3ReadsOverItsPeerSocketAsOverTheBus)
{
    ASSERT_TRUE(m_bus->peers_enabled());
    EXPECT_TRUE(m_reader->last_read().used_peer) << "gtk3 offers GetApplicationBusAddress";

    ::setenv("NISH_ATSPI_PEER", "0", 1);
    auto plain_bus = nd_linux::AtspiBus::open();
    ::unsetenv("NISH_ATSPI_PEER");
    ASSERT_TRUE(plain_bus) << plain_bus.error().text();
    nd_linux::AtspiTreeReader plain(**plain_bus);
    auto over_bus = plain.read_window(m_window, nd_core::ReadLimits{});
    ASSERT_TRUE(over_bus) << over_bus.error().text();
    EXPECT_FALSE(plain.last_read().used_peer);

    auto over_peer = reread();
    ASSERT_EQ(over_peer.elements.size(), over_bus->elements.size());
    for (std::size_t i = 0; i < over_peer.elements.size(); ++i) {
        EXPECT_EQ(over_peer.elements[i].key, over_bus->elements[i].key) << i;
        EXPECT_EQ(over_peer.elements[i].role, over_bus->elements[i].role) << i;
        EXPECT_EQ(over_peer.elements[i].name, over_bus->elements[i].name) << i;
    }
}

TEST_F(AtspiPeerTest, ReadsSpreadOverLanesReadAsOverOneConnection)
{
    const std::string app_bus = nd_linux::parse_key(m_tree.elements[0].key)->bus;
    EXPECT_EQ(m_bus->lanes_of(app_bus), nd_linux::AtspiBus::DEFAULT_PEER_LANES)
        << "gtk3's peer socket takes more than one connection";

    ::setenv("NISH_ATSPI_LANES", "1", 1);
    auto one_lane = nd_linux::AtspiBus::open();
    ::unsetenv("NISH_ATSPI_LANES");
    ASSERT_TRUE(one_lane) << one_lane.error().text();
    nd_linux::AtspiTreeReader single(**one_lane);
    single.warm().set_enabled(false);
    m_reader->warm().set_enabled(false);
    auto over_one = single.read_window(m_window, nd_core::ReadLimits{});
    ASSERT_TRUE(over_one) << over_one.error().text();
    EXPECT_EQ((*one_lane)->lanes_of(app_bus), 1u);

    auto over_lanes = reread();
    ASSERT_EQ(over_lanes.elements.size(), over_one->elements.size());
    for (std::size_t i = 0; i < over_lanes.elements.size(); ++i) {
        const auto& a = over_lanes.elements[i];
        const auto& b = over_one->elements[i];
        EXPECT_EQ(a.key, b.key) << i;
        EXPECT_EQ(a.role, b.role) << i;
        EXPECT_EQ(a.name, b.name) << i;
        EXPECT_EQ(a.states, b.states) << i;
        EXPECT_EQ(a.actions, b.actions) << i;
        EXPECT_EQ(a.parent, b.parent) << i;
        EXPECT_EQ(a.has_frame, b.has_frame) << i;
    }
}

TEST_F(AtspiPeerTest, AnAppThatExitsClosesItsPeerAndTheNextReadSaysSo)
{
    ASSERT_TRUE(m_reader->last_read().used_peer);
    std::string app_bus = nd_linux::parse_key(m_tree.elements[0].key)->bus;
    EXPECT_TRUE(m_bus->has_peer(app_bus));
    m_app->kill_now();
    auto t0 = std::chrono::steady_clock::now();
    auto gone = m_reader->read_window(m_window, nd_core::ReadLimits{});
    ASSERT_FALSE(gone);
    EXPECT_EQ(gone.error().code, nd_core::ErrorCode::window_target_not_found) << gone.error().text();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));

    // The same bus serves the next app, over that app's own peer.
    std::string error;
    auto next = TestApp::spawn({"gtk3-widget-factory"}, error);
    ASSERT_NE(next, nullptr) << error;
    auto tree = wait_for_window(*m_reader, window_of(next->pid(), "gtk3-widget-factory"), 200);
    ASSERT_TRUE(tree) << tree.error().text();
    EXPECT_TRUE(m_reader->last_read().used_peer);
}

} // namespace
