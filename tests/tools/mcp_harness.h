#pragma once

// The MCP server over real pipes with a fake ToolHost, shared by the server's tests: a Harness runs
// a server on its own thread between two pipes, and the FakeHost's tools stand in for the
// registry (echo, fail, image, block, wait_cancel, throw, progress), so these tests exercise only
// the JSON-RPC and MCP layer. With `resources` set it also has two resources (a readable one and
// one whose read fails).

#include "mcp/mcp_server.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <poll.h>
#include <thread>
#include <unistd.h>

namespace mcp_test {

using nd_mcp::CallContext;
using nd_mcp::McpServer;
using nd_mcp::McpServerOptions;
using nd_mcp::ToolOutput;
using nlohmann::json;
using namespace std::chrono_literals;

class FakeHost : public nd_mcp::ToolHost {
public:
    json list_tools() override
    {
        return json::array({{{"name", "echo"}, {"description", "Echoes its arguments"}, {"inputSchema", {{"type", "object"}}}},
            {{"name", "fail"}, {"description", "Always fails"}, {"inputSchema", {{"type", "object"}}}}});
    }

    bool has_tool(std::string_view name) override
    {
        return name == "echo" || name == "fail" || name == "image" || name == "block" || name == "wait_cancel"
            || name == "throw" || name == "progress";
    }

    ToolOutput call_tool(std::string_view name, const json& arguments, const CallContext& context) override
    {
        {
            std::lock_guard lock(m_mutex);
            m_calls.emplace_back(name);
            m_last_arguments = arguments;
            m_started = true;
        }
        m_changed.notify_all();
        ToolOutput out;
        if (name == "echo") {
            // Keys deliberately out of order: a re-parse through nlohmann::json would sort them.
            out.structured = R"({"z":1,"args":)" + arguments.dump() + "}";
            out.text = "echo ok";
        } else if (name == "fail") {
            out.is_error = true;
            out.structured = R"({"error":{"code":"invalid_argument","message":"bad"}})";
            out.text = "invalid_argument: bad";
        } else if (name == "image") {
            out.structured = R"({"width":1,"height":1})";
            out.text = "captured";
            out.image = nd_mcp::ImageBlock{"image/png", "iVBORw0KGgo="};
        } else if (name == "block") {
            std::unique_lock lock(m_mutex);
            m_changed.wait_for(lock, 10s, [this] { return m_released; });
            out.structured = R"({"blocked":true})";
            out.text = "released";
        } else if (name == "wait_cancel") {
            auto deadline = std::chrono::steady_clock::now() + 10s;
            while (!context.is_cancelled() && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(1ms);
            std::lock_guard lock(m_mutex);
            m_saw_cancel = context.is_cancelled();
            out.structured = R"({"finished":true})";
            out.text = "finished";
        } else if (name == "throw") {
            throw std::runtime_error("host bug");
        } else if (name == "progress") {
            // Five steps 120 ms apart, each also reported twice more: once again (not advancing)
            // and once at once (inside the 100 ms interval). Only the five may reach the client.
            for (int step = 1; step <= 5; ++step) {
                context.report_progress(step, 5, "step");
                context.report_progress(step, 5, "again");
                context.report_progress(step + 0.5, 5, "too soon");
                std::this_thread::sleep_for(120ms);
            }
            out.structured = R"({"steps":5})";
            out.text = "five steps";
        }
        return out;
    }

    void set_client_name(std::string_view name) override
    {
        std::lock_guard lock(m_mutex);
        m_client_name = name;
    }

    void connection_closed() override { m_closed_count++; }

    bool has_resources() override { return resources; }
    json list_resources() override
    {
        return json::array({{{"uri", "test://guide"}, {"name", "guide.md"}, {"mimeType", "text/markdown"}, {"description", "A guide"}},
            {{"uri", "test://broken"}, {"name", "broken.txt"}, {"mimeType", "text/plain"}, {"description", "Unreadable"}}});
    }
    nd_mcp::ResourceText read_resource(std::string_view uri) override
    {
        nd_mcp::ResourceText out;
        out.found = uri == "test://guide" || uri == "test://broken";
        out.mime_type = uri == "test://guide" ? "text/markdown" : "text/plain";
        if (uri == "test://guide")
            out.text = "# Guide\n";
        else
            out.error = "the file /x/broken.txt cannot be read";
        return out;
    }

    bool wait_started()
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, 5s, [this] { return m_started; });
    }

    void release()
    {
        {
            std::lock_guard lock(m_mutex);
            m_released = true;
        }
        m_changed.notify_all();
    }

    std::vector<std::string> calls()
    {
        std::lock_guard lock(m_mutex);
        return m_calls;
    }
    json last_arguments()
    {
        std::lock_guard lock(m_mutex);
        return m_last_arguments;
    }
    std::string client_name()
    {
        std::lock_guard lock(m_mutex);
        return m_client_name;
    }
    bool saw_cancel()
    {
        std::lock_guard lock(m_mutex);
        return m_saw_cancel;
    }

    std::atomic<int> m_closed_count{0};
    bool resources = false; // read once, when the server is made

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::string> m_calls;
    json m_last_arguments;
    std::string m_client_name;
    bool m_started = false;
    bool m_released = false;
    bool m_saw_cancel = false;
};

// A server running on its own thread between two pipes.
class Harness {
public:
    explicit Harness(McpServerOptions options = {}, bool with_resources = false)
    {
        host.resources = with_resources;
        if (::pipe2(m_to_server, O_CLOEXEC) != 0 || ::pipe2(m_from_server, O_CLOEXEC) != 0)
            throw std::runtime_error("pipe2 failed");
        options.instructions = "Test instructions.";
        options.version = "9.9.9";
        m_server = std::make_unique<McpServer>(host, m_to_server[0], m_from_server[1], std::move(options));
        m_thread = std::thread([this] {
            m_exit_code = m_server->run();
            m_done = true;
        });
    }

    ~Harness()
    {
        host.release();
        close_input();
        if (m_thread.joinable())
            m_thread.join();
        for (int fd : {m_to_server[0], m_from_server[0], m_from_server[1]}) {
            if (fd >= 0)
                ::close(fd);
        }
    }

    void send_raw(std::string_view bytes)
    {
        while (!bytes.empty()) {
            ssize_t n = ::write(m_to_server[1], bytes.data(), bytes.size());
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                throw std::runtime_error("write to server failed");
            }
            bytes.remove_prefix(static_cast<std::size_t>(n));
        }
    }
    void send(const std::string& line) { send_raw(line + "\n"); }
    void send_json(const json& message) { send(message.dump()); }

    // The next line the server wrote, or nothing after the timeout.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout = 5s)
    {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            auto newline = m_buffer.find('\n');
            if (newline != std::string::npos) {
                std::string line = m_buffer.substr(0, newline);
                m_buffer.erase(0, newline + 1);
                return line;
            }
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return std::nullopt;
            pollfd pfd{m_from_server[0], POLLIN, 0};
            if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0)
                continue;
            char chunk[65536];
            ssize_t n = ::read(m_from_server[0], chunk, sizeof chunk);
            if (n <= 0)
                return std::nullopt;
            m_buffer.append(chunk, static_cast<std::size_t>(n));
        }
    }

    json read_message()
    {
        auto line = read_line();
        if (!line)
            return json{{"missing", true}};
        return json::parse(*line);
    }

    json request(const json& id, const std::string& method, json params = json::object())
    {
        send_json(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
        return read_message();
    }

    void close_input()
    {
        if (m_to_server[1] >= 0) {
            ::close(m_to_server[1]);
            m_to_server[1] = -1;
        }
    }
    void close_output_reader()
    {
        ::close(m_from_server[0]);
        m_from_server[0] = -1;
    }

    bool wait_done(std::chrono::milliseconds timeout = 5s)
    {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!m_done && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(1ms);
        return m_done;
    }

    FakeHost host;
    std::unique_ptr<McpServer> m_server;
    std::atomic<int> m_exit_code{-1};

private:
    int m_to_server[2] = {-1, -1};
    int m_from_server[2] = {-1, -1};
    std::thread m_thread;
    std::atomic<bool> m_done{false};
    std::string m_buffer;
};

inline json call_params(const std::string& name, std::optional<json> arguments = json::object())
{
    json params = {{"name", name}};
    if (arguments)
        params["arguments"] = *arguments;
    return params;
}

inline void expect_error(const json& reply, const json& id, int code)
{
    EXPECT_EQ(reply.value("jsonrpc", ""), "2.0") << reply;
    EXPECT_EQ(reply["id"], id) << reply;
    ASSERT_TRUE(reply.contains("error")) << reply;
    EXPECT_EQ(reply["error"]["code"], code) << reply;
    EXPECT_TRUE(reply["error"]["message"].is_string()) << reply;
    EXPECT_FALSE(reply.contains("result")) << reply;
}

} // namespace mcp_test
