#pragma once

// The model tools' HTTP: JSON POSTs over libcurl. TLS is verified (peer and host), proxies come
// from the environment as curl reads them (https_proxy, http_proxy, no_proxy), redirects are not
// followed (a key must not travel to another host), and connections are kept and reused across
// calls: each call takes a lane (a curl multi handle, whose connection cache outlives the call,
// and its easy handle) from a pool and gives it back.
//
// A call runs until its deadline, its end, or `cancelled()` says so; the check runs at least every
// 50 ms, so a safety stop ends a call in flight within that. The bearer key goes in the
// Authorization header only: no error text built here carries a header or a body.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace nd_desk {

struct HttpResponse {
    long status = 0;
    std::string body;
    // The server's Retry-After, in seconds (a 429's or a 503's).
    std::optional<std::chrono::milliseconds> retry_after;
};

// Why a transfer gave no response.
enum class HttpFailure { timeout, cancelled, transport };

struct HttpError {
    HttpFailure kind = HttpFailure::transport;
    std::string message; // curl's reason, e.g. "Could not connect to server: Connection refused"
    // Worth another try (a dropped keep-alive connection, a reset): the request may not have landed.
    bool transient = false;
};

struct HttpPost {
    std::string url;
    std::string bearer; // the key; sent as "Authorization: Bearer <key>" and nowhere else
    std::string body;   // JSON
    std::chrono::steady_clock::time_point deadline;
    std::function<bool()> cancelled; // may be empty
};

// The largest response body read (a chat completion is a few KiB; a runaway one is cut).
inline constexpr std::size_t MAX_HTTP_RESPONSE_BYTES = 16u << 20;

class HttpClient {
public:
    HttpClient();
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // One POST. A response of any status is a value; no response is an HttpError.
    std::variant<HttpResponse, HttpError> post(const HttpPost&);

private:
    struct Lane;
    std::unique_ptr<Lane> take();
    void give_back(std::unique_ptr<Lane>);

    std::mutex m_mutex;
    std::vector<std::unique_ptr<Lane>> m_idle;
};

} // namespace nd_desk
