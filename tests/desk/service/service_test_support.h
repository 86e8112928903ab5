#pragma once

// What the service tests share: a service declaration of the test service (test_service.cpp) with
// its options, its log file read back, and waiting for a line in it.

#include "desk/plugins/service_decl.h"
#include "desk/wire/client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace nd_test {

using ServiceClock = std::chrono::steady_clock;

// The test service's tools: svc_echo, svc_env, svc_frames (mcp false), svc_stream (mcp false),
// svc_sink, svc_until_eof, svc_crash, svc_exit_unread, svc_hang.
inline nd_desk::Service test_service(const std::string& name, const std::string& log, std::vector<std::string> options = {},
    const std::string& prefix = "svc_")
{
    nd_desk::Service s;
    s.name = name;
    s.bin = NISH_TEST_SERVICE;
    s.args = {"--log", log};
    s.args.insert(s.args.end(), options.begin(), options.end());
    for (const char* tool : {"echo", "env", "frames", "stream", "sink", "until_eof", "crash", "exit_unread", "hang"}) {
        nd_desk::ServiceTool t;
        t.name = prefix + tool;
        t.description = std::string("The test service's ") + tool + ".";
        t.input_schema = {{"type", "object"}};
        t.mcp = std::string(tool) != "frames" && std::string(tool) != "stream";
        s.tools.push_back(std::move(t));
    }
    return s;
}

// The service's tools.d file for a daemon that reads the plugin directory.
inline nlohmann::json service_file(const nd_desk::Service& s)
{
    nlohmann::json tools = nlohmann::json::array();
    for (const auto& t : s.tools)
        tools.push_back({{"name", t.name}, {"description", t.description}, {"input_schema", t.input_schema}, {"mcp", t.mcp}});
    return {{"service", s.name}, {"bin", s.bin}, {"args", s.args}, {"tools", tools}};
}

inline std::vector<std::string> log_lines(const std::string& log)
{
    std::ifstream in(log);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

inline std::size_t count_prefix(const std::vector<std::string>& lines, const std::string& prefix)
{
    std::size_t n = 0;
    for (const auto& l : lines)
        n += l.rfind(prefix, 0) == 0;
    return n;
}

// Waits until `done()` or `limit`; true when it came true.
inline bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit)
{
    const auto until = ServiceClock::now() + limit;
    while (ServiceClock::now() < until) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return done();
}

// The number after `prefix` on the log's first such line, or -1.
inline long logged_number(const std::string& log, const std::string& prefix)
{
    for (const auto& l : log_lines(log))
        if (l.rfind(prefix, 0) == 0)
            return std::stol(l.substr(prefix.size()));
    return -1;
}

// A process that is gone: no such pid, or a zombie nobody reaped yet.
inline bool process_gone(long pid)
{
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0)
        return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

} // namespace nd_test
