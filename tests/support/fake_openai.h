#pragma once

// A fake OpenAI-compatible chat-completions endpoint for the tests and benchmarks of the model tools.
// It listens on 127.0.0.1 at a port the kernel picks, records every request and answers canned
// replies, so a test can check what the client sent (headers, body, connection reuse, proxy form) and
// how it copes with what a real endpoint does (errors, Retry-After, slow answers, dropped connections,
// protocol garbage). HTTP/1.1: keep-alive, Content-Length and chunked request bodies, Expect:
// 100-continue; a request body is capped at 64 MiB (413), a header section at 64 KiB (431).
//
// Requests whose path starts with "/__" are control requests, answered by the server itself and
// never recorded, so nish-fake-openai and the node tests share this code:
//   POST /__push, POST /__default  body: a reply as JSON (all keys optional)  -> 204
//       {"status":200,"body":<string, or any JSON value, sent dumped>,"headers":{"Retry-After":"1"},
//        "delay_ms":0,"close_after":false,"raw":false}
//   GET /__requests     -> 200, the records as a JSON array of
//                          {"connection","method","target","headers":{...},"body"}
//   GET /__connections  -> 200, {"connections":N}
//   POST /__clear       -> 204
//
// Connections are counted by what they carry: a connection gets its id (1, 2, ...) with its first
// request that is not a control request, and again with its first one after clear(). So connections()
// answers "how many connections did the client use since the last clear", unaffected by the control
// connections of a node test or by a connection that never sent a request.
//
// Threads: one acceptor and one per connection, all owned by the object; every method may be called
// from any thread. The destructor shuts every connection down (a client holding one open sees end of
// file), cuts delayed replies short without answering them, and joins every thread.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nd_test {

struct FakeReply {
    int status = 200;
    std::string body; // sent as is, with Content-Length
    // Extra headers, e.g. {"Retry-After","1"}. A Content-Type or Content-Length given here replaces the
    // server's own (a Content-Length that lies about the body makes a truncated reply).
    std::vector<std::pair<std::string, std::string>> headers;
    int delay_ms = 0; // wait this long before answering (a slow endpoint)
    bool close_after = false; // close the connection after answering
    bool raw = false; // send `body` bytes as they are instead of an HTTP response, then close
};

struct RecordedRequest {
    int connection = 0; // the id of the connection it arrived on (shows connection reuse)
    std::string method;
    std::string target; // exactly as sent: absolute-form "http://host/path" when used as an HTTP proxy
    std::map<std::string, std::string> headers; // names lower-cased; repeated headers joined by ", "
    std::string body; // chunked bodies reassembled
};

class FakeOpenAI {
public:
    // Binds 127.0.0.1:0 and serves on its own threads. Throws std::system_error when the socket cannot
    // be had: a test cannot go on without its server, and gtest reports the exception's text.
    FakeOpenAI();
    ~FakeOpenAI();
    FakeOpenAI(const FakeOpenAI&) = delete;
    FakeOpenAI& operator=(const FakeOpenAI&) = delete;

    int port() const;
    std::string base_url() const; // "http://127.0.0.1:<port>/v1"

    // FIFO: the next recorded request gets the front reply; when the queue is empty, the default
    // (status 200 with chat_completion("ok") until set_default).
    void push(FakeReply reply);
    void set_default(FakeReply reply);

    std::vector<RecordedRequest> requests() const;
    int connections() const;
    void clear(); // forgets the requests, the queue and the connection count (not the default)

    // A minimal valid chat.completion body: id "gen-test-1", model "fake/model-build", one choice with
    // `content`, and with_usage {prompt_tokens 11, completion_tokens 3, total_tokens 14,
    // prompt_tokens_details {cached_tokens 2}}.
    static std::string chat_completion(const std::string& content, bool with_usage = true);

private:
    class Server;
    std::unique_ptr<Server> m_server;
};

} // namespace nd_test
