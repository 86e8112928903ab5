// libFuzzer target for the JSON-RPC line reader both programs read stdin and sockets with
// (mcp/line_reader.h, docs/fuzzing.md): the input (its first byte sets the line cap, 1 to 256
// bytes) goes through a pipe and is read back line by line, and must match the reference exactly:
// every newline-separated part in order, a trailing "\r" dropped, a part longer than the cap
// reported once as too long and never held, a last unterminated part still a line, then the end.

#include "fuzz_check.h"
#include "mcp/line_reader.h"

#include <unistd.h>

#include <vector>

namespace {

using nd_fuzz::require;

struct Expected {
    bool too_long = false;
    std::string line;
};

std::vector<Expected> reference(std::string_view input, std::size_t cap)
{
    std::vector<Expected> out;
    while (!input.empty()) {
        const auto end = input.find('\n');
        auto part = input.substr(0, end);
        input = end == std::string_view::npos ? std::string_view() : input.substr(end + 1);
        if (part.size() > cap) {
            out.push_back({true, {}});
            continue;
        }
        if (!part.empty() && part.back() == '\r')
            part.remove_suffix(1);
        out.push_back({false, std::string(part)});
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::size_t cap = 1 + data[0];
    // A pipe holds 64 KiB: write it all, close, then read.
    const auto input = nd_fuzz::text_of(data + 1, std::min<std::size_t>(size - 1, 60000));
    int fds[2];
    require(::pipe(fds) == 0);
    for (std::size_t at = 0; at < input.size();) {
        const auto n = ::write(fds[1], input.data() + at, input.size() - at);
        require(n > 0);
        at += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
    nd_mcp::LineReader reader(fds[0], -1, cap);
    const auto expected = reference(input, cap);
    std::string line;
    for (const auto& want : expected) {
        const auto status = reader.next(line);
        require(status == (want.too_long ? nd_mcp::LineReader::Status::TooLong : nd_mcp::LineReader::Status::Line));
        if (!want.too_long)
            require(line == want.line);
    }
    require(reader.next(line) == nd_mcp::LineReader::Status::End);
    ::close(fds[0]);
    return 0;
}
