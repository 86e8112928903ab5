// The desk wire (docs/wire.md): frames, peek_tool against the full decode, request and response
// decoding with their errors, and frame I/O over a socket pair (caps, truncation, deadlines).

#include "desk/wire/frame_io.h"
#include "desk/wire/wire.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <thread>

namespace w = nd_desk::wire;
using namespace std::chrono_literals;

namespace {

std::optional<std::string> peek(std::string_view payload)
{
    std::string scratch;
    auto tool = w::peek_tool(payload, scratch);
    if (!tool)
        return std::nullopt;
    return std::string(*tool);
}

struct SocketPair {
    int a = -1, b = -1;
    SocketPair()
    {
        int fds[2];
        EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        a = fds[0];
        b = fds[1];
    }
    ~SocketPair()
    {
        if (a >= 0)
            ::close(a);
        if (b >= 0)
            ::close(b);
    }
};

} // namespace

TEST(Wire, HeaderIsFourBytesBigEndian)
{
    const auto h = w::header_for(0x01020304);
    ASSERT_EQ(h.size(), 4u);
    EXPECT_EQ(static_cast<unsigned char>(h[0]), 1);
    EXPECT_EQ(static_cast<unsigned char>(h[3]), 4);
    EXPECT_EQ(w::size_from_header(reinterpret_cast<const unsigned char*>(h.data())), 0x01020304u);
}

TEST(Wire, PeekToolFindsTheTopLevelToolWherever)
{
    EXPECT_EQ(peek(R"({"agent_id":"","tool":"desk_windows","args":null})"), "desk_windows");
    EXPECT_EQ(peek(R"({"args":{"tool":"no","x":[1,{"tool":"no"}],"s":"a\"b}"},"tool":"desk_find"})"), "desk_find");
    EXPECT_EQ(peek(" {\n\"tool\" : \"desk_at\" } "), "desk_at");
    EXPECT_EQ(peek(R"({"tool":"desk_\u0077indows"})"), "desk_windows") << "an escaped name is decoded";
    EXPECT_EQ(peek(R"({"to\u006fl":"desk_key"})"), "desk_key") << "an escaped key is decoded";
    EXPECT_EQ(peek(R"({"n":-1.5e3,"b":true,"z":null,"tool":"t"})"), "t");
}

TEST(Wire, PeekToolRefusesWhatIsNotARequest)
{
    for (std::string_view bad : {"", "[]", "\"tool\"", "{", R"({"tool":1})", R"({"tool":"x)", R"({"args":{"a":1})",
                                 R"({"args":{}})", R"({"args" {}, "tool":"x"})", "{\"tool\":\"a\nb\"}"})
        EXPECT_FALSE(peek(bad).has_value()) << bad;
}

TEST(Wire, DecodeRequestDefaultsAndErrors)
{
    auto r = w::decode_request(R"({"tool":"desk_windows"})");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->agent_id, "");
    EXPECT_TRUE(r->args.is_null());
    auto full = w::decode_request(R"({"agent_id":"a1","tool":"desk_find","args":{"name":"OK"}})");
    ASSERT_TRUE(full.ok());
    EXPECT_EQ(full->agent_id, "a1");
    EXPECT_EQ(full->args["name"], "OK");
    EXPECT_NE(w::decode_request("{").error().message.find("not valid JSON"), std::string::npos);
    EXPECT_NE(w::decode_request("[1]").error().message.find("object"), std::string::npos);
    EXPECT_NE(w::decode_request(R"({"tool":3})").error().message.find("tool"), std::string::npos);
    EXPECT_NE(w::decode_request(R"({"tool":"t","agent_id":5})").error().message.find("agent_id"), std::string::npos);
    EXPECT_NE(w::decode_request(R"({"tool":"t","args":[1]})").error().message.find("args"), std::string::npos);
}

TEST(Wire, ResponsesRoundTripAndNeverCarrySecrets)
{
    w::Response r{"{\"width\":1}", false, std::string("iVBO")};
    auto text = w::encode_response(r);
    EXPECT_EQ(text.find("secrets"), std::string::npos);
    auto back = w::decode_response(text);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->text, r.text);
    EXPECT_FALSE(back->is_error);
    EXPECT_EQ(back->image_b64, r.image_b64);
    EXPECT_FALSE(w::decode_response(R"({"text":"x"})").ok());

    // A picture is spliced in as it is; anything that is not base64 is escaped as JSON text.
    w::Response picture{"{}", false, std::string(100000, 'A') + "+/9=", std::string("image/jpeg")};
    back = w::decode_response(w::encode_response(picture));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->image_b64, picture.image_b64);
    EXPECT_EQ(back->image_mime, picture.image_mime);
    w::Response odd{"x", true, std::string("a\"b\\c\n"), std::nullopt};
    back = w::decode_response(w::encode_response(odd));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->image_b64, odd.image_b64);
    EXPECT_TRUE(back->is_error);
}

TEST(FrameIo, WholeFramesBothWays)
{
    SocketPair p;
    ASSERT_EQ(w::write_frame(p.a, "hello", std::nullopt), 0);
    ASSERT_EQ(w::write_frame(p.a, "", std::nullopt), 0);
    auto one = w::read_frame(p.b, 100, w::Clock::now() + 1s);
    ASSERT_EQ(one.status, w::ReadStatus::frame);
    EXPECT_EQ(one.payload, "hello");
    auto two = w::read_frame(p.b, 100, w::Clock::now() + 1s);
    ASSERT_EQ(two.status, w::ReadStatus::frame);
    EXPECT_EQ(two.payload, "");
    ::close(p.a);
    p.a = -1;
    EXPECT_EQ(w::read_frame(p.b, 100, w::Clock::now() + 1s).status, w::ReadStatus::closed);
}

TEST(FrameIo, OversizedTruncatedAndSlowFrames)
{
    {
        SocketPair p;
        ASSERT_EQ(w::write_frame(p.a, std::string(200, 'x'), std::nullopt), 0);
        auto r = w::read_frame(p.b, 100, w::Clock::now() + 1s);
        EXPECT_EQ(r.status, w::ReadStatus::too_large);
        EXPECT_EQ(r.announced, 200u);
        EXPECT_NE(w::describe(r).find("200 bytes"), std::string::npos);
    }
    {
        SocketPair p;
        const std::string half = w::header_for(10) + "abc";
        ASSERT_EQ(::write(p.a, half.data(), half.size()), static_cast<ssize_t>(half.size()));
        ::close(p.a);
        p.a = -1;
        EXPECT_EQ(w::read_frame(p.b, 100, w::Clock::now() + 1s).status, w::ReadStatus::truncated);
    }
    {
        SocketPair p;
        const std::string half = w::header_for(10) + "abc";
        ASSERT_EQ(::write(p.a, half.data(), half.size()), static_cast<ssize_t>(half.size()));
        const auto start = std::chrono::steady_clock::now();
        EXPECT_EQ(w::read_frame(p.b, 100, w::Clock::now() + 100ms).status, w::ReadStatus::timed_out);
        EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
    }
}

TEST(FrameIo, AWakeEndsAWait)
{
    SocketPair p, wake;
    std::thread waker([&] {
        std::this_thread::sleep_for(50ms);
        ASSERT_EQ(::write(wake.a, "x", 1), 1);
    });
    EXPECT_EQ(w::read_frame(p.b, 100, std::nullopt, wake.b).status, w::ReadStatus::woken);
    waker.join();
}
