// The daemons' unix sockets (src/mcp/unix_socket.h): of daemons started at one path in the same
// instant exactly one listens, and a daemon that stops removes only its own socket file.

#include "mcp/unix_socket.h"

#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

class UnixSocketTest : public ::testing::Test {
protected:

    bool answers() const
    {
        auto fd = nd_mcp::connect_unix(m_path);
        if (!fd.ok())
            return false;
        ::close(*fd);
        return true;
    }

    nd_test::TempDir m_tmp{"nish-unix-socket"};
    std::string m_dir = m_tmp.path;
    std::string m_path = m_dir + "/run/daemon.sock";
};

TEST_F(UnixSocketTest, OfDaemonsStartedAtOnceExactlyOneListens)
{
    // Rounds of eight starts released together at a path that holds a stale socket each time (as a
    // killed daemon leaves): without the start lock two of them could each find the file stale,
    // remove the other's and bind, one left listening on a file no one can reach.
    for (int round = 0; round < 20; ++round) {
        {
            auto stale = nd_mcp::listen_unix(m_path);
            ASSERT_TRUE(stale.ok()) << stale.error().message;
            ::close(*stale); // the file stays, nobody listens
        }
        std::atomic<bool> go{false};
        std::vector<int> fds(8, -1);
        std::vector<std::string> refusals(8);
        std::vector<std::thread> starts;
        for (std::size_t i = 0; i < fds.size(); ++i)
            starts.emplace_back([&, i] {
                while (!go.load())
                    std::this_thread::yield();
                auto fd = nd_mcp::listen_unix(m_path);
                if (fd.ok())
                    fds[i] = *fd;
                else
                    refusals[i] = fd.error().message;
            });
        go = true;
        for (auto& t : starts)
            t.join();
        int listening = 0;
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i] >= 0)
                ++listening;
            else
                EXPECT_NE(refusals[i].find("already listens"), std::string::npos) << refusals[i];
        }
        ASSERT_EQ(listening, 1) << "round " << round;
        EXPECT_TRUE(answers());
        for (int fd : fds)
            nd_mcp::unlisten_unix(fd, m_path);
        EXPECT_FALSE(std::filesystem::exists(m_path)) << "the one that listened removes its file";
    }
}

TEST_F(UnixSocketTest, AStoppingDaemonLeavesTheSocketOfOneStartedAfterIt)
{
    auto first = nd_mcp::listen_unix(m_path);
    ASSERT_TRUE(first.ok()) << first.error().message;
    // The first's file is gone (removed by hand), and a second daemon listens at the path.
    ASSERT_EQ(::unlink(m_path.c_str()), 0);
    auto second = nd_mcp::listen_unix(m_path);
    ASSERT_TRUE(second.ok()) << second.error().message;

    nd_mcp::unlisten_unix(*first, m_path);
    EXPECT_TRUE(answers()) << "the first daemon's stop removed the second's socket";
    nd_mcp::unlisten_unix(*second, m_path);
    EXPECT_FALSE(std::filesystem::exists(m_path));
}

TEST_F(UnixSocketTest, TheStartLockIsPrivateAndAForeignHolderIsNamed)
{
    auto fd = nd_mcp::listen_unix(m_path);
    ASSERT_TRUE(fd.ok()) << fd.error().message;
    struct stat st{};
    ASSERT_EQ(::lstat((m_path + ".lock").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    nd_mcp::unlisten_unix(*fd, m_path);

    // A link where the lock would be is not followed.
    ASSERT_EQ(::unlink((m_path + ".lock").c_str()), 0);
    ASSERT_EQ(::symlink((m_dir + "/elsewhere").c_str(), (m_path + ".lock").c_str()), 0);
    auto refused = nd_mcp::listen_unix(m_path);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find(m_path + ".lock"), std::string::npos) << refused.error().message;
    EXPECT_FALSE(std::filesystem::exists(m_dir + "/elsewhere"));
}

} // namespace
