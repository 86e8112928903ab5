// core/whole_file.h: a named file is written whole or not at all. It replaces an old file keeping
// its mode (a new one is private to its user); it refuses a symbolic link unless told to follow it,
// and never replaces one; it writes a pipe or a device in place; it refuses a relative path, a
// directory and a missing directory; and a write that fails midway (the file size limit cuts it as
// a full disk does) leaves the old content and no temporary file behind.

#include "core/whole_file.h"

#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

class WholeFile : public ::testing::Test {
protected:
    nd_test::TempDir tmp{"nd-whole"};
    std::string read(const fs::path& path)
    {
        std::ifstream in(path, std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    std::size_t entries() { return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator())); }
    fs::path dir = tmp.path;
};

TEST_F(WholeFile, WritesAndReplacesPrivately)
{
    const auto path = (dir / "shot.png").string();
    ASSERT_TRUE(nd_core::write_whole_file(path, "first"));
    ASSERT_TRUE(nd_core::write_whole_file(path, "second, longer"));
    EXPECT_EQ(read(path), "second, longer");
    struct stat st{};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(entries(), 1u);
}

TEST_F(WholeFile, ASymbolicLinkIsRefusedOrFollowedNeverReplaced)
{
    const auto target = dir / "elsewhere";
    { std::ofstream(target) << "keep"; }
    const auto link = dir / "shot.png";
    fs::create_symlink(target, link);
    auto refused = nd_core::write_whole_file(link.string(), "png");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("it is a symbolic link, which is not followed"), std::string::npos) << refused.error().message;
    EXPECT_EQ(read(target), "keep");
    ASSERT_TRUE(nd_core::write_whole_file(link.string(), "png", "--out", nd_core::Links::follow));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(read(target), "png");
    EXPECT_EQ(entries(), 2u);
}

TEST_F(WholeFile, AReplacedFileKeepsItsMode)
{
    const auto path = dir / "shot.png";
    { std::ofstream(path) << "old"; }
    ::chmod(path.c_str(), 0644);
    ASSERT_TRUE(nd_core::write_whole_file(path.string(), "new"));
    struct stat st{};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
}

// A pipe or a device is written as it is, never replaced by a file: /dev/null stays the device.
TEST_F(WholeFile, APipeOrADeviceIsWrittenInPlace)
{
    const auto fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string got;
    std::thread reader([&] { got = read(fifo); });
    for (int i = 0; i < 200; ++i) { // until the reader has it open
        auto r = nd_core::write_whole_file(fifo.string(), "through the pipe");
        if (r)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    reader.join();
    EXPECT_EQ(got, "through the pipe");
    struct stat st{};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    ASSERT_TRUE(nd_core::write_whole_file("/dev/null", "nothing"));
    ASSERT_EQ(::lstat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
    // A device that cannot take it says why (a full disk's error), and stays what it was.
    if (::access("/dev/full", W_OK) == 0) {
        auto full = nd_core::write_whole_file("/dev/full", "x");
        ASSERT_FALSE(full);
        EXPECT_NE(full.error().message.find("No space left on device"), std::string::npos) << full.error().message;
        ASSERT_EQ(::lstat("/dev/full", &st), 0);
        EXPECT_TRUE(S_ISCHR(st.st_mode));
    }
}

TEST_F(WholeFile, RefusesWhatItCannotWriteAndSaysWhy)
{
    auto relative = nd_core::write_whole_file("shot.png", "x", "--out");
    ASSERT_FALSE(relative);
    EXPECT_EQ(relative.error().code, nd_core::ErrorCode::invalid_arguments);
    EXPECT_EQ(relative.error().message.rfind("--out: ", 0), 0u) << relative.error().message;
    auto directory = nd_core::write_whole_file(dir.string(), "x");
    ASSERT_FALSE(directory);
    EXPECT_NE(directory.error().message.find("Is a directory"), std::string::npos) << directory.error().message;
    auto missing = nd_core::write_whole_file((dir / "no" / "shot.png").string(), "x");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("nothing was written"), std::string::npos) << missing.error().message;
    EXPECT_EQ(entries(), 0u);
}

TEST_F(WholeFile, AWriteCutShortLeavesTheOldFileAndNoTemporary)
{
    const auto path = (dir / "shot.png").string();
    ASSERT_TRUE(nd_core::write_whole_file(path, "old"));
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{4096, RLIM_INFINITY};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        auto r = nd_core::write_whole_file(path, std::string(100000, 'x'));
        ::_exit(!r && r.error().message.find("nothing was written") != std::string::npos ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(read(path), "old");
    EXPECT_EQ(entries(), 1u) << "a temporary file was left behind";
}

} // namespace
