#pragma once

// The MCP server: newline-delimited JSON-RPC 2.0 over a pair of file descriptors (stdin/stdout
// in production, pipes in tests). It knows JSON-RPC and MCP framing only and reaches the driver
// through ToolHost; it does not own the host or the descriptors.
//
// Both eras of MCP are served (protocol_era.h), chosen per request: a request whose _meta claims a
// modern revision is answered as 2026-07-28 (server/discover, resultType on results), any other as
// 2025-11-25 (initialize, ping).
//
// Threads: run() reads on the calling thread and starts one worker. The reader parses every
// line, answers ping, server/discover and protocol faults at once, handles notifications/cancelled, and queues the
// other requests; the worker runs queued requests one at a time, in arrival order. Writes to the
// output are whole lines under one mutex, so a ping reply never lands inside a tool result.
// Nothing but JSON-RPC is written to the output; diagnostics go to stderr.

#include "core/version.h"
#include "mcp/json_rpc.h"
#include "mcp/mcp_methods.h"
#include "mcp/protocol_era.h"
#include "mcp/tool_host.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace nd_mcp {

struct McpServerOptions {
    std::string name = "nish-driver";
    std::string version = nd_core::DRIVER_VERSION;
    std::string instructions;
    // What each diagnostic line on stderr starts with.
    std::string log_prefix = "nish-driver mcp";
    // A request line longer than this is skipped and answered with -32600 (id null).
    std::size_t max_line_bytes = 8 * 1024 * 1024;
    // How long one answer may wait for the client to take it before the connection is given up
    // (a client that stops reading a socket); none: as long as it takes (stdio). With a timeout
    // the output descriptor should be non-blocking.
    std::optional<std::chrono::milliseconds> write_timeout;
    // Methods beyond MCP's, and the data of -32601 (mcp_methods.h); none by default.
    ExtraMethod extra_method;
    NotFoundData not_found_data;
};

class McpServer {
public:
    McpServer(ToolHost& host, int input_fd, int output_fd, McpServerOptions options = {});
    ~McpServer();
    McpServer(const McpServer&) = delete;
    McpServer& operator=(const McpServer&) = delete;

    // Serves until input end of file, a closed output, a read error or request_stop(); then calls
    // ToolHost::connection_closed() and returns 0 (1 when the input failed or the server could
    // not start). At end of file the requests already queued still run and are answered.
    int run();

    // Thread-safe: ends run() soon. Queued requests are dropped and the running one is cancelled.
    void request_stop();

private:
    struct Pending {
        RpcRequest request;
        EraClaim era;
        std::atomic<bool> cancelled{false};
    };

    void handle_line(std::string_view line);
    void cancel_request(const nlohmann::json& request_id);
    void enqueue(RpcRequest&&, EraClaim&&);
    void set_client_name(const std::optional<std::string>&);
    void worker_loop();
    std::string execute(Pending&);
    // Writes one whole line; false (and the server winds down) once the output is closed.
    bool send(std::string_view line);
    void output_closed();
    // Drops the queued requests, cancels the running one, and wakes the worker and the reader.
    void drop_queue_and_wake();
    void wake_reader();

    ToolHost& m_host;
    int m_input_fd;
    int m_output_fd;
    McpServerOptions m_options;
    McpServerInfo m_info;
    std::string m_client_name; // the last one handed to the host (worker thread only)
    int m_wake_pipe[2] = {-1, -1};

    std::mutex m_write_mutex;
    std::atomic<bool> m_output_closed{false};
    std::atomic<bool> m_stop_requested{false};

    std::mutex m_queue_mutex;
    std::condition_variable m_queue_changed;
    std::deque<std::shared_ptr<Pending>> m_queue;
    std::shared_ptr<Pending> m_running;
    bool m_input_done = false;
};

} // namespace nd_mcp
