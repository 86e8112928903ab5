// core/whole_file.h: a named file is written whole or not at all. It replaces an old file, and a
// symbolic link rather than following it; it refuses a relative path, a directory and a missing
// directory; and a write that fails midway (the file size limit cuts it as a full disk does)
// leaves the old content and no temporary file behind. The file is private to its user.

#include "core/whole_file.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

class WholeFile : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string tmpl = (fs::temp_directory_path() / "nd-whole-XXXXXX").string();
        ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
        dir = tmpl;
    }
    void TearDown() override { fs::remove_all(dir); }
    std::string read(const fs::path& path)
    {
        std::ifstream in(path, std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    std::size_t entries() { return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator())); }
    fs::path dir;
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

TEST_F(WholeFile, ReplacesASymbolicLinkInsteadOfFollowingIt)
{
    const auto target = dir / "elsewhere";
    { std::ofstream(target) << "keep"; }
    const auto link = dir / "shot.png";
    fs::create_symlink(target, link);
    ASSERT_TRUE(nd_core::write_whole_file(link.string(), "png"));
    EXPECT_EQ(read(target), "keep");
    EXPECT_FALSE(fs::is_symlink(link));
    EXPECT_EQ(read(link), "png");
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
