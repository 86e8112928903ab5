// The CLIPBOARD selection against another X client (xclip): what the driver writes, xclip reads as
// UTF-8 and as Latin-1 STRING; what xclip holds, the driver reads; a copy by xclip takes ownership
// away; release() gives it up; a clipboard too large for one transfer is refused, not half read.

#include "app_process.h"

#include "backend/linux/x11/x11_clipboard.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>

namespace {

using nd_linux::X11Clipboard;

class X11ClipboardTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        if (nd_test::command_output("command -v xclip").empty())
            GTEST_SKIP() << "needs xclip (scripts/setup installs it)";
        auto c = X11Clipboard::open("");
        ASSERT_TRUE(c) << c.error().text();
        m_clip = std::move(c).value();
    }
    // xclip as the other client: it forks a server that holds the selection until someone else
    // takes it, so each test ends by taking it back.
    void xclip_copy(const std::string& text)
    {
        std::string path = ::testing::TempDir() + "nish-clip-input";
        std::ofstream(path, std::ios::binary) << text;
        ASSERT_EQ(std::system(("xclip -selection clipboard -i < '" + path + "' >/dev/null 2>&1").c_str()), 0);
        std::remove(path.c_str());
        // xclip returns before its forked server holds the selection: wait until it answers.
        const std::string head = text.substr(0, 32);
        ASSERT_TRUE(nd_test::wait_until(
            [&] { return nd_test::command_output("timeout 5 xclip -selection clipboard -o 2>/dev/null | head -c 32") == head; },
            std::chrono::seconds(5)));
    }
    std::unique_ptr<X11Clipboard> m_clip;
};

TEST_F(X11ClipboardTest, WhatTheDriverWritesAnotherClientReads)
{
    const std::string text = "Grüße from nish — line 1\nline 2";
    ASSERT_TRUE(m_clip->write_text(text));
    EXPECT_TRUE(m_clip->owning());
    EXPECT_EQ(nd_test::command_output("timeout 5 xclip -selection clipboard -o -t UTF8_STRING"), text);
    EXPECT_EQ(nd_test::command_output("timeout 5 xclip -selection clipboard -o -t TARGETS"), "TARGETS\nUTF8_STRING\nTEXT\nSTRING\n");
    ASSERT_TRUE(m_clip->write_text("caf\xc3\xa9"));
    EXPECT_EQ(nd_test::command_output("timeout 5 xclip -selection clipboard -o -t STRING"), "caf\xe9") << "Latin-1 for STRING";
    auto back = m_clip->read_text();
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, "caf\xc3\xa9");

    m_clip->release();
    EXPECT_FALSE(m_clip->owning());
    auto empty = m_clip->read_text();
    ASSERT_TRUE(empty) << empty.error().text();
    EXPECT_EQ(*empty, "") << "nobody owns the clipboard after release";
}

TEST_F(X11ClipboardTest, WhatAnotherClientCopiesTheDriverReadsAndOwnershipMoves)
{
    ASSERT_TRUE(m_clip->write_text("the driver's"));
    xclip_copy("the person's text ✓");
    ASSERT_TRUE(nd_test::wait_until([&] { return !m_clip->owning(); }, std::chrono::seconds(2)))
        << "SelectionClear ends the driver's ownership";
    auto got = m_clip->read_text();
    ASSERT_TRUE(got) << got.error().text();
    EXPECT_EQ(*got, "the person's text ✓");
    ASSERT_TRUE(m_clip->write_text("taken back")); // ends xclip's server
}

TEST_F(X11ClipboardTest, AClipboardTooLargeForOneTransferIsRefused)
{
    xclip_copy(std::string(3u << 20, 'x')); // xclip offers this incrementally (INCR)
    auto t0 = std::chrono::steady_clock::now();
    auto got = m_clip->read_text();
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, nd_core::ErrorCode::action_failed);
    EXPECT_NE(got.error().message.find("INCR"), std::string::npos) << got.error().text();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
    ASSERT_TRUE(m_clip->write_text("taken back"));
}

} // namespace
