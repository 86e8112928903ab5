#pragma once

// The HTTP/1.1 pieces of the fake OpenAI server (fake_openai.h): reading one request after another from
// a blocking socket, and writing a reply. Only what the server needs: Content-Length and chunked bodies,
// Expect: 100-continue, keep-alive, the size caps.

#include "fake_openai.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace nd_test::fake_http {

inline constexpr std::size_t MAX_HEAD_BYTES = 64 * 1024;
inline constexpr std::size_t MAX_BODY_BYTES = 64 * 1024 * 1024;

enum class Got { ok, closed, too_big };

// Buffered blocking reads from one connection. A read ends (closed) at end of stream, on an error, and
// when the server shuts the socket down.
class Reader {
public:
    explicit Reader(int fd) : m_fd(fd) {}

    // The bytes up to `delim`, which is consumed too; too_big when more than `cap` come before it.
    Got until(std::string_view delim, std::size_t cap, std::string& out);
    Got exact(std::size_t size, std::string& out);

private:
    bool fill();

    int m_fd;
    std::string m_buffer; // received, not yet consumed
};

struct Head {
    std::string method, target, version;
    std::map<std::string, std::string> headers;

    std::string header(const std::string& name) const
    {
        const auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
};

std::string lower(std::string_view text);
// Whether a comma-separated header value names `token` (case-insensitively).
bool has_token(std::string_view list, std::string_view token);
bool send_all(int fd, std::string_view data);
const char* reason(int status);
// The reply as it goes on the wire; `closing` adds Connection: close.
std::string format_reply(const FakeReply& reply, bool closing);

// The head of a request (its text up to the blank line); nullopt when it is not HTTP/1.x.
std::optional<Head> parse_head(std::string_view text);
// The request's body into `body`, answering 100 Continue when asked: 0, the status to answer before
// closing (400, 413, 431, 501), or -1 when the stream ended.
int read_body(Reader& in, int fd, const Head& head, std::string& body);
bool keeps_alive(const Head& head);

} // namespace nd_test::fake_http
