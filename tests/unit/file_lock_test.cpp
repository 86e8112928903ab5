// core/file_lock.h: one holder at a time; a release (or the holder's end) lets the next one in,
// within its wait; the file is born 0600; a symbolic link at the path is refused, never followed;
// and each refusal says what it was, with the caller's words.

#include "core/file_lock.h"

#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace {

using namespace std::chrono_literals;

const nd_core::FileLock::Texts TEXTS{.what = "the test lock", .busy = "someone else holds it", .open_hint = "; try elsewhere"};

class FileLockTest : public ::testing::Test {
protected:
    nd_test::TempDir tmp{"nd-lock"};
    std::string path = tmp.path + "/a.lock";
};

TEST_F(FileLockTest, OneHolderAtATimeAndAReleaseLetsTheNextIn)
{
    auto first = nd_core::FileLock::take(path, TEXTS);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_TRUE(first->held());
    struct stat st{};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);

    auto second = nd_core::FileLock::take(path, TEXTS);
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().code, nd_core::ErrorCode::backend_unavailable);
    EXPECT_EQ(second.error().message, "someone else holds it");

    first->release();
    EXPECT_FALSE(first->held());
    auto third = nd_core::FileLock::take(path, TEXTS);
    ASSERT_TRUE(third) << third.error().message;
    // A moved lock is still held, once.
    nd_core::FileLock moved = std::move(*third);
    EXPECT_TRUE(moved.held());
    EXPECT_FALSE(nd_core::FileLock::take(path, TEXTS));
}

TEST_F(FileLockTest, AWaitOutlastsAHolderThatLetsGo)
{
    auto holder = nd_core::FileLock::take(path, TEXTS);
    ASSERT_TRUE(holder);
    std::thread letting_go([&] {
        std::this_thread::sleep_for(100ms);
        holder->release();
    });
    const auto t0 = std::chrono::steady_clock::now();
    auto waited = nd_core::FileLock::take(path, TEXTS, 5s);
    letting_go.join();
    ASSERT_TRUE(waited) << waited.error().message;
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 90ms);

    // A holder that keeps it: refused once the wait is over.
    auto refused = nd_core::FileLock::take(path, TEXTS, 50ms);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message, "someone else holds it");
}

TEST_F(FileLockTest, ALinkAtThePathIsRefusedNotFollowed)
{
    const std::string target = tmp.path + "/target";
    ASSERT_EQ(::symlink(target.c_str(), path.c_str()), 0);
    auto refused = nd_core::FileLock::take(path, TEXTS);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message.rfind("cannot open the test lock " + path + ": ", 0), 0u) << refused.error().message;
    EXPECT_NE(refused.error().message.find("; try elsewhere"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(target)) << "the link was followed";
}

TEST_F(FileLockTest, AMissingDirectoryIsNamed)
{
    auto refused = nd_core::FileLock::take(tmp.path + "/no/such/dir.lock", TEXTS);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("No such file or directory"), std::string::npos) << refused.error().message;
}

} // namespace
