#include "fake_openai_http.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <sys/socket.h>

namespace nd_test::fake_http {

namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

} // namespace

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool has_token(std::string_view list, std::string_view token)
{
    const std::string all = lower(list);
    for (std::size_t at = 0; at <= all.size();) {
        const auto comma = std::min(all.find(',', at), all.size());
        if (trim(std::string_view(all).substr(at, comma - at)) == token)
            return true;
        at = comma + 1;
    }
    return false;
}

bool send_all(int fd, std::string_view data)
{
    while (!data.empty()) {
        const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

const char* reason(int status)
{
    switch (status) {
    case 200: return "OK";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Status";
    }
}

std::string format_reply(const FakeReply& reply, bool closing)
{
    bool has_type = false;
    bool has_length = false;
    for (const auto& [name, value] : reply.headers) {
        has_type |= lower(name) == "content-type";
        has_length |= lower(name) == "content-length";
    }
    // These statuses carry no body, so they get no Content-Length either.
    const bool bodiless = reply.status < 200 || reply.status == 204 || reply.status == 304;
    std::string out = "HTTP/1.1 " + std::to_string(reply.status) + " " + reason(reply.status) + "\r\n";
    if (!bodiless && !has_type)
        out += "Content-Type: application/json\r\n";
    if (!bodiless && !has_length)
        out += "Content-Length: " + std::to_string(reply.body.size()) + "\r\n";
    for (const auto& [name, value] : reply.headers)
        out += name + ": " + value + "\r\n";
    if (closing)
        out += "Connection: close\r\n";
    out += "\r\n";
    if (!bodiless)
        out += reply.body;
    return out;
}

Got Reader::until(std::string_view delim, std::size_t cap, std::string& out)
{
    for (std::size_t from = 0;;) {
        const auto at = m_buffer.find(delim, from);
        if (at != std::string::npos) {
            if (at > cap)
                return Got::too_big;
            out.assign(m_buffer, 0, at);
            m_buffer.erase(0, at + delim.size());
            return Got::ok;
        }
        if (m_buffer.size() > cap + delim.size())
            return Got::too_big;
        // The delimiter may straddle what we have and what comes next.
        from = m_buffer.size() < delim.size() ? 0 : m_buffer.size() - delim.size() + 1;
        if (!fill())
            return Got::closed;
    }
}

Got Reader::exact(std::size_t size, std::string& out)
{
    while (m_buffer.size() < size)
        if (!fill())
            return Got::closed;
    out.assign(m_buffer, 0, size);
    m_buffer.erase(0, size);
    return Got::ok;
}

bool Reader::fill()
{
    constexpr std::size_t CHUNK = 64 * 1024;
    const std::size_t had = m_buffer.size();
    m_buffer.resize(had + CHUNK);
    for (;;) {
        const ssize_t n = ::recv(m_fd, m_buffer.data() + had, CHUNK, 0);
        if (n < 0 && errno == EINTR)
            continue;
        m_buffer.resize(had + static_cast<std::size_t>(n > 0 ? n : 0));
        return n > 0;
    }
}

std::optional<Head> parse_head(std::string_view text)
{
    Head head;
    const auto eol = std::min(text.find("\r\n"), text.size());
    const std::string_view first = text.substr(0, eol);
    const auto space1 = first.find(' ');
    const auto space2 = first.rfind(' ');
    if (space1 == std::string_view::npos || space1 == space2)
        return std::nullopt;
    head.method = first.substr(0, space1);
    head.target = first.substr(space1 + 1, space2 - space1 - 1);
    head.version = first.substr(space2 + 1);
    if (head.method.empty() || head.target.empty() || !head.version.starts_with("HTTP/1."))
        return std::nullopt;
    for (std::size_t at = eol + 2; at < text.size();) {
        const auto end = std::min(text.find("\r\n", at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 2;
        const auto colon = line.find(':');
        if (colon == 0 || colon == std::string_view::npos || line.substr(0, colon).find_first_of(" \t") != std::string_view::npos)
            return std::nullopt;
        const std::string value(trim(line.substr(colon + 1)));
        const auto [it, fresh] = head.headers.emplace(lower(line.substr(0, colon)), value);
        if (!fresh)
            it->second += ", " + value;
    }
    return head;
}

namespace {

// A chunked body into `body`: 0, the status to answer before closing, or -1 when the stream ended.
int read_chunks(Reader& in, std::string& body)
{
    for (std::string line;;) {
        if (const auto got = in.until("\r\n", 1024, line); got != Got::ok)
            return got == Got::closed ? -1 : 400;
        const std::string_view digits = trim(std::string_view(line).substr(0, line.find(';')));
        std::size_t size = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), size, 16);
        if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
            return error == std::errc::result_out_of_range ? 413 : 400;
        if (size == 0)
            break;
        if (size > MAX_BODY_BYTES - body.size())
            return 413;
        std::string data;
        if (in.exact(size, data) != Got::ok || in.exact(2, line) != Got::ok)
            return -1;
        if (line != "\r\n")
            return 400;
        body += data;
    }
    for (std::string trailer;;) { // trailers are read and dropped, up to the blank line
        if (const auto got = in.until("\r\n", MAX_HEAD_BYTES, trailer); got != Got::ok)
            return got == Got::closed ? -1 : 431;
        if (trailer.empty())
            return 0;
    }
}

} // namespace

int read_body(Reader& in, int fd, const Head& head, std::string& body)
{
    const std::string coding = lower(head.header("transfer-encoding"));
    const std::string length_text = head.header("content-length");
    std::size_t length = 0;
    if (!coding.empty()) { // it wins over a Content-Length (RFC 9112, 6.3)
        if (!coding.ends_with("chunked"))
            return 501;
    } else if (!length_text.empty()) {
        const auto [end, error] = std::from_chars(length_text.data(), length_text.data() + length_text.size(), length);
        if (error == std::errc::result_out_of_range)
            return 413;
        if (error != std::errc() || end != length_text.data() + length_text.size())
            return 400;
        if (length > MAX_BODY_BYTES)
            return 413;
    }
    if (has_token(head.header("expect"), "100-continue") && !send_all(fd, "HTTP/1.1 100 Continue\r\n\r\n"))
        return -1;
    if (!coding.empty())
        return read_chunks(in, body);
    return in.exact(length, body) == Got::ok ? 0 : -1;
}

bool keeps_alive(const Head& head)
{
    const std::string connection = head.header("connection");
    if (has_token(connection, "close"))
        return false;
    return head.version != "HTTP/1.0" || has_token(connection, "keep-alive");
}

} // namespace nd_test::fake_http
