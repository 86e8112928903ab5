#pragma once

// The real nish-driver binary as an MCP client sees it, for the Linux tests that need the shipped
// program rather than the engine in the test's process: newline-delimited JSON-RPC on its stdin and
// stdout, every wait with a deadline, killed with the object.

#include "../tools/pipe_lines.h"

#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <string>
#include <vector>

namespace nd_test {

class McpDriver {
public:
    // `args` after the program; `set_env` NAME=value entries over this process's environment.
    explicit McpDriver(std::vector<std::string> args, std::vector<std::string> set_env = {})
    {
        args.insert(args.begin(), std::string(NISH_BIN_DIR) + "/nish-driver");
        m_pid = spawn_program(std::move(args), {{m_stdin.fd[0], 0}, {m_stdout.fd[1], 1}}, std::move(set_env));
        m_stdin.close_read();
        m_stdout.close_write();
    }
    ~McpDriver()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    McpDriver(const McpDriver&) = delete;
    McpDriver& operator=(const McpDriver&) = delete;

    void send(const nlohmann::json& request) { write_line(m_stdin.fd[1], request.dump()); }
    // The reply to request `id`; null when none came within the deadline.
    nlohmann::json reply(int id, std::chrono::milliseconds deadline)
    {
        for (;;) {
            auto line = m_out.next(deadline);
            if (line.empty())
                return nullptr;
            auto r = nlohmann::json::parse(line, nullptr, false);
            if (!r.is_discarded() && r.value("id", nlohmann::json()) == id)
                return r;
        }
    }
    // True when the driver writes nothing within `d`.
    bool quiet(std::chrono::milliseconds d) { return m_out.quiet(d); }

    bool initialize()
    {
        send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
            {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", nlohmann::json::object()},
                           {"clientInfo", {{"name", "nish-linux-test"}, {"version", "1"}}}}}});
        return reply(1, std::chrono::seconds(10)).contains("result");
    }
    // Sends a tools/call without waiting for its reply (reply(id) reads it).
    void start_tool(int id, const std::string& name, const nlohmann::json& args = nlohmann::json::object())
    {
        send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", {{"name", name}, {"arguments", args}}}});
    }

private:
    Pipe m_stdin, m_stdout;
    LineIn m_out{m_stdout.fd[0]};
    pid_t m_pid = -1;
};

} // namespace nd_test
