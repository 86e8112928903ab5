#include "desk/models/http_client.h"

#include "core/version.h"

#include <curl/curl.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace nd_desk {

namespace {

using Clock = std::chrono::steady_clock;

// How often a transfer looks at its cancel check while it waits on the network.
constexpr int CANCEL_POLL_MS = 50;
// A connection must open within this (or the deadline, when sooner).
constexpr long CONNECT_TIMEOUT_MS = 10000;
// Idle lanes kept for reuse; a burst beyond it makes lanes that close after their call.
constexpr std::size_t MAX_IDLE_LANES = 8;

void global_init()
{
    static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
    (void)done;
}

struct Collected {
    std::string body;
    bool too_large = false;
    std::optional<std::chrono::milliseconds> retry_after;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user)
{
    auto* out = static_cast<Collected*>(user);
    const std::size_t n = size * count;
    if (out->body.size() + n > MAX_HTTP_RESPONSE_BYTES) {
        out->too_large = true;
        return 0; // curl ends the transfer with CURLE_WRITE_ERROR
    }
    out->body.append(data, n);
    return n;
}

// Retry-After in seconds (the HTTP-date form is rare from these APIs and is ignored).
std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user)
{
    auto* out = static_cast<Collected*>(user);
    const std::size_t n = size * count;
    constexpr std::string_view name = "retry-after:";
    if (n > name.size() && strncasecmp(data, name.data(), name.size()) == 0) {
        std::string value(data + name.size(), n - name.size());
        char* end = nullptr;
        const double seconds = std::strtod(value.c_str(), &end);
        if (end != value.c_str() && seconds >= 0 && seconds < 86400)
            out->retry_after = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    }
    return n;
}

bool transient(CURLcode code)
{
    switch (code) {
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return true;
    default: return false;
    }
}

} // namespace

struct HttpClient::Lane {
    CURLM* multi = nullptr;
    CURL* easy = nullptr;
    char error[CURL_ERROR_SIZE] = {};

    Lane() : multi(curl_multi_init()), easy(curl_easy_init()) {}
    ~Lane()
    {
        if (easy)
            curl_easy_cleanup(easy);
        if (multi)
            curl_multi_cleanup(multi);
    }
    Lane(const Lane&) = delete;
    Lane& operator=(const Lane&) = delete;
};

HttpClient::HttpClient() { global_init(); }
HttpClient::~HttpClient() = default;

std::unique_ptr<HttpClient::Lane> HttpClient::take()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_idle.empty()) {
            auto lane = std::move(m_idle.back());
            m_idle.pop_back();
            return lane;
        }
    }
    auto lane = std::make_unique<Lane>();
    if (!lane->multi || !lane->easy)
        return nullptr;
    return lane;
}

void HttpClient::give_back(std::unique_ptr<Lane> lane)
{
    std::lock_guard lock(m_mutex);
    if (m_idle.size() < MAX_IDLE_LANES)
        m_idle.push_back(std::move(lane));
}

std::variant<HttpResponse, HttpError> HttpClient::post(const HttpPost& request)
{
    const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(request.deadline - Clock::now()).count();
    if (remaining <= 0)
        return HttpError{HttpFailure::timeout, "no time was left to send it", false};
    auto lane = take();
    if (!lane)
        return HttpError{HttpFailure::transport, "libcurl could not make a handle (out of memory?)", false};
    CURL* easy = lane->easy;
    curl_easy_reset(easy);
    lane->error[0] = '\0';

    curl_slist* headers = nullptr;
    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Accept: application/json");
    headers = curl_slist_append(headers, "Expect:"); // no 100-continue round trip before the body
    const std::string auth = "Authorization: Bearer " + request.bearer;
    headers = curl_slist_append(headers, auth.c_str());
    const std::string agent = std::string("shuttle/") + NISH_DRIVER_VERSION;

    Collected collected;
    curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_USERAGENT, agent.c_str());
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(easy, CURLOPT_POST, 1L);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &collected);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &collected);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, lane->error);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(remaining));
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, std::min<long>(CONNECT_TIMEOUT_MS, static_cast<long>(remaining)));

    curl_multi_add_handle(lane->multi, easy);
    bool cancelled = false;
    CURLcode result = CURLE_OK;
    bool finished = false;
    while (!finished) {
        int running = 0;
        if (curl_multi_perform(lane->multi, &running) != CURLM_OK) {
            result = CURLE_FAILED_INIT;
            break;
        }
        int queued = 0;
        while (CURLMsg* msg = curl_multi_info_read(lane->multi, &queued))
            if (msg->msg == CURLMSG_DONE && msg->easy_handle == easy) {
                result = msg->data.result;
                finished = true;
            }
        if (finished || running == 0) {
            finished = true;
            break;
        }
        if (request.cancelled && request.cancelled()) {
            cancelled = true;
            break;
        }
        curl_multi_poll(lane->multi, nullptr, 0, CANCEL_POLL_MS, nullptr);
    }
    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_multi_remove_handle(lane->multi, easy);
    curl_slist_free_all(headers);

    std::string reason = lane->error[0] ? lane->error : curl_easy_strerror(result);
    // A cancelled or failed transfer may have left its connection half-used: this lane starts over.
    if (cancelled || result != CURLE_OK) {
        lane = std::make_unique<Lane>();
        if (lane->multi && lane->easy)
            give_back(std::move(lane));
    } else {
        give_back(std::move(lane));
    }
    if (cancelled)
        return HttpError{HttpFailure::cancelled, "cancelled", false};
    if (result == CURLE_OPERATION_TIMEDOUT)
        return HttpError{HttpFailure::timeout, reason, false};
    if (result == CURLE_WRITE_ERROR && collected.too_large)
        return HttpError{HttpFailure::transport,
            "the answer is larger than " + std::to_string(MAX_HTTP_RESPONSE_BYTES >> 20) + " MiB", false};
    if (result != CURLE_OK)
        return HttpError{HttpFailure::transport, reason, transient(result)};
    HttpResponse out;
    out.status = status;
    out.body = std::move(collected.body);
    out.retry_after = collected.retry_after;
    return out;
}

} // namespace nd_desk
