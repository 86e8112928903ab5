// libFuzzer target for the desk wire's reading side (docs/wire.md): the bytes arrive on a socket as a
// client would send them, frames are read with the daemon's cap, and each payload goes through
// peek_tool and decode_request. Nothing may crash, hang or read out of bounds, and where both the
// scan and the full decode name a tool they must agree unless the payload names "tool" twice. A
// payload that reads as a response must also survive encode_response and read back the same.
//
//   scripts/fuzz-wire [SECONDS]   builds this with clang and runs it

#include "desk/wire/frame_io.h"
#include "desk/wire/wire.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace w = nd_desk::wire;

namespace {

std::size_t count_of(std::string_view hay, std::string_view needle)
{
    std::size_t n = 0;
    for (auto at = hay.find(needle); at != std::string_view::npos; at = hay.find(needle, at + 1))
        ++n;
    return n;
}

void check_payload(std::string_view payload)
{
    std::string scratch;
    auto peeked = w::peek_tool(payload, scratch);
    auto decoded = w::decode_request(payload);
    if (peeked && decoded.ok() && decoded->tool != *peeked && count_of(payload, "\"t") < 2 && count_of(payload, "\\u") == 0)
        std::abort(); // the scan and the decode disagree on a payload that names the tool once
    // The answering side: a response read from the bytes and written again reads back the same
    // (its picture spliced in as it is when it is base64, escaped as JSON text when not).
    if (auto response = w::decode_response(payload); response.ok()) {
        auto again = w::decode_response(w::encode_response(*response));
        if (!again.ok() || again->text != response->text || again->is_error != response->is_error ||
            again->image_b64 != response->image_b64 || again->image_mime != response->image_mime)
            std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > 60000)
        return 0; // stays inside a socket's buffer, so the write below never blocks
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    check_payload(bytes);

    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return 0;
    if (size)
        (void)!::write(fds[0], data, size);
    ::close(fds[0]);
    for (int frames = 0; frames < 1000; ++frames) {
        auto r = w::read_frame(fds[1], 4096, w::Clock::now() + std::chrono::milliseconds(100));
        if (r.status != w::ReadStatus::frame)
            break;
        check_payload(r.payload);
    }
    ::close(fds[1]);
    return 0;
}
