// The relay of a service call (desk/services/service_relay.h) on real unix sockets, without a
// daemon: a service that closes with the call unread (still in its listen queue, or accepted and
// never read) sends the call back untouched, while one that read the call, or a reset after bytes
// of the client's were taken, ends it as before. The daemon's side of a resend is in
// service_daemon_test.cpp.

#include "desk/services/service_relay.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <cstring>
#include <future>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

using namespace std::chrono_literals;

// A listening "service" socket, and the relay's two ends: the client's (a socket pair: the test
// holds `client`, the relay `relay_client`) and the service's (`service`, connected to the listener).
class RelayTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::strncpy(addr.sun_path, m_dir.socket().c_str(), sizeof addr.sun_path - 1);
        listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        ASSERT_EQ(::listen(listener, 4), 0);
        service = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        ASSERT_EQ(::connect(service, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        int pair[2];
        ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
        client = pair[0];
        relay_client = pair[1];
        // The call's first frame, as the router writes it before the relay.
        ASSERT_EQ(::send(service, "first frame", 11, MSG_NOSIGNAL), 11);
    }
    void TearDown() override
    {
        for (int fd : {listener, accepted, service, client, relay_client})
            if (fd >= 0)
                ::close(fd);
    }
    void close_fd(int& fd)
    {
        ::close(fd);
        fd = -1;
    }
    std::future<nd_desk::RelayOutcome> relay()
    {
        return std::async(std::launch::async, [this] { return nd_desk::relay_both_ways(relay_client, service); });
    }
    // What the client reads within 5 s: "" at its end, "?" when nothing came.
    std::string client_reads()
    {
        pollfd p{client, POLLIN, 0};
        if (::poll(&p, 1, 5000) != 1)
            return "?";
        char buffer[64];
        const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
        return n <= 0 ? "" : std::string(buffer, static_cast<std::size_t>(n));
    }
    // The client's socket still works both ways: what it sends reaches the relay's end and back.
    void expect_client_untouched()
    {
        ASSERT_EQ(::send(client, "more", 4, MSG_NOSIGNAL), 4);
        char buffer[8];
        ASSERT_EQ(::recv(relay_client, buffer, sizeof buffer, 0), 4);
        ASSERT_EQ(::send(relay_client, "back", 4, MSG_NOSIGNAL), 4);
        EXPECT_EQ(client_reads(), "back");
    }

    nd_test::TempDir m_dir{"relay"};
    int listener = -1, accepted = -1, service = -1, client = -1, relay_client = -1;
};

TEST_F(RelayTest, AServiceThatExitsWithTheCallInItsListenQueueSendsItBackUntouched)
{
    auto outcome = relay();
    close_fd(listener); // never accepted: the queued connection is reset
    ASSERT_EQ(outcome.wait_for(5s), std::future_status::ready);
    const auto out = outcome.get();
    EXPECT_TRUE(out.unread);
    EXPECT_EQ(out.to_a, 0u);
    EXPECT_EQ(out.to_b, 0u);
    expect_client_untouched();
}

TEST_F(RelayTest, AServiceThatClosesTheCallUnreadSendsItBackUntouched)
{
    accepted = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    ASSERT_GE(accepted, 0);
    auto outcome = relay();
    close_fd(accepted); // the first frame still in its buffer
    ASSERT_EQ(outcome.wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(outcome.get().unread);
    expect_client_untouched();
}

TEST_F(RelayTest, AServiceThatReadTheCallAndClosedEndsItWithNoReply)
{
    accepted = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    ASSERT_GE(accepted, 0);
    char buffer[16];
    ASSERT_EQ(::recv(accepted, buffer, sizeof buffer, 0), 11);
    auto outcome = relay();
    close_fd(accepted); // it read the call and may have acted on it: never sent again
    EXPECT_EQ(client_reads(), "");
    ::shutdown(client, SHUT_WR); // the client closes its end too: the call is over
    ASSERT_EQ(outcome.wait_for(5s), std::future_status::ready);
    const auto out = outcome.get();
    EXPECT_FALSE(out.unread);
    EXPECT_TRUE(out.error.empty()) << out.error;
}

TEST_F(RelayTest, AResetAfterTheClientsBytesWereTakenEndsTheCall)
{
    accepted = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    ASSERT_GE(accepted, 0);
    auto outcome = relay();
    // The client streams after its frame; the relay passes it on.
    ASSERT_EQ(::send(client, "stream", 6, MSG_NOSIGNAL), 6);
    std::string seen;
    char buffer[32];
    while (seen.size() < 17) {
        const ssize_t n = ::recv(accepted, buffer, sizeof buffer, 0);
        ASSERT_GT(n, 0);
        seen.append(buffer, static_cast<std::size_t>(n));
    }
    EXPECT_EQ(seen, "first framestream");
    // More comes, and the service closes with it unread: a reset, but part of the call was read.
    ASSERT_EQ(::send(client, "tail", 4, MSG_NOSIGNAL), 4);
    pollfd p{accepted, POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 5000), 1);
    close_fd(accepted);
    ASSERT_EQ(outcome.wait_for(5s), std::future_status::ready);
    const auto out = outcome.get();
    EXPECT_FALSE(out.unread);
    EXPECT_FALSE(out.error.empty());
    EXPECT_EQ(client_reads(), ""); // both sides shut down, as at any error
}

} // namespace
