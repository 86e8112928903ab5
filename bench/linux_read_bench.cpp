// Linux backend figures on the virtual test desktop, for scripts/bench-linux (which starts the
// desktop and the apps and passes their pids). For each window: the whole-window read through
// get_window_state, the skeleton against the full read in tokens (response bytes / 4), and window
// capture + PNG encode. Prints one JSON object per line.
//
// usage: linux_read_bench NAME=PID [NAME=PID...]

#include "linux_bench_driver.h"

#include "core/encode/png.h"
#include "mcp/json_rpc.h"
#include "mcp/mcp_methods.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

struct Bench : LinuxBenchDriver {
    std::string line(std::string_view tool, const nlohmann::json& args, bool& error)
    {
        auto out = call_tool(tool, args);
        error = out.is_error;
        std::string l;
        nd_core::JsonWriter w(l);
        nd_mcp::begin_rpc_result(w, "1");
        nd_mcp::write_call_tool_result(w, out);
        nd_mcp::end_rpc_result(w, l);
        return l;
    }
};

std::optional<nd_core::WindowInfo> window_of(Bench& b, std::int64_t pid)
{
    for (int i = 0; i < 200; ++i) {
        auto list = b.backend->windows()->list_windows();
        if (list.ok())
            for (const auto& w : *list)
                if (w.pid == pid)
                    return w;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv)
{
    Bench b;
    if (!b.open())
        return 1;
    bool error = false;
    b.line("start_session", nlohmann::json::object(), error);

    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto eq = arg.find('=');
        const auto name = arg.substr(0, eq);
        const auto pid = std::stoll(arg.substr(eq + 1));
        auto window = window_of(b, pid);
        nlohmann::json result = {{"name", name}, {"pid", pid}};
        if (!window) {
            result["error"] = "no window";
            std::cout << result.dump() << std::endl;
            continue;
        }
        result["window_id"] = window->window_id;
        result["title"] = window->title;
        const nlohmann::json whole = {{"window_id", window->window_id}, {"max_elements", 5000}, {"max_depth", 200}};
        // Warm up (the app builds its accessibility objects on first contact), then measure.
        std::string full_line;
        for (int k = 0; k < 3; ++k)
            full_line = b.line("get_window_state", whole, error);
        std::vector<double> read_ms;
        for (int k = 0; k < 10; ++k) {
            auto t0 = Clock::now();
            full_line = b.line("get_window_state", whole, error);
            read_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        auto full = nlohmann::json::parse(full_line)["result"]["structuredContent"];
        result["read_ms"] = median(read_ms);
        result["read_error"] = error;
        result["elements"] = full.value("total_elements", 0);
        auto skeleton_line = b.line("get_window_state", {{"window_id", window->window_id}, {"skeleton", true}}, error);
        result["full_tokens"] = full_line.size() / 4;
        result["skeleton_tokens"] = skeleton_line.size() / 4;

        // The backend redirects windows off-screen when it opens and re-reads captures taken in the
        // first 400 ms while windows repaint (docs/linux-x11.md); a long-running driver is past that.
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        std::vector<double> capture_ms;
        std::vector<double> grab_ms;
        for (int k = 0; k < 10; ++k) {
            auto t0 = Clock::now();
            auto image = b.backend->capture()->capture_window(*window);
            if (!image.ok()) {
                result["capture_error"] = image.error().text();
                break;
            }
            grab_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            auto png = nd_core::encode_png(*image);
            capture_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            result["capture_png_bytes"] = png.size();
        }
        result["capture_png_ms"] = median(capture_ms);
        result["capture_only_ms"] = median(grab_ms);
        std::cout << result.dump() << std::endl;
    }
    return 0;
}
