#pragma once

// Shared by the real-app tests (apps_linux_test, golden_linux_test): a driver on the real Linux
// backend called tool by tool, and apps the test owns. An app is spawned in its own process group
// with its output sent to /dev/null (Chromium logs a lot), and stopping it stops that group and
// nothing else: browsers leave helper processes behind their leader, so the group must be empty
// before a test removes a profile directory the helpers may still write to.

#include "app_process.h"
#include "backend/linux/linux_backend.h"
#include "core/engine/audit.h"
#include "core/backend/consent.h"
#include "core/engine/engine.h"
#include "driver/dispatcher.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace nd_test {

using nlohmann::json;

// A fixture app of the tests' own, a Python script run by Debian's /usr/bin/python3 (GTK through
// its gi bindings). The window's class, which names the app, comes from the script's file name, so
// the script is `name` in a directory of its own under the test's temp dir; both go with the object.
class PythonFixture {
public:
    PythonFixture(const std::string& name, const char* source)
        : m_dir(testing::TempDir() + "nish_" + name + "_" + std::to_string(::getpid())), m_script(m_dir + "/" + name)
    {
        if (::mkdir(m_dir.c_str(), 0700) != 0)
            return;
        std::FILE* f = std::fopen(m_script.c_str(), "w");
        if (!f)
            return;
        m_ok = std::fputs(source, f) >= 0;
        m_ok = std::fclose(f) == 0 && m_ok;
    }
    ~PythonFixture()
    {
        std::remove(m_script.c_str());
        ::rmdir(m_dir.c_str());
    }
    PythonFixture(const PythonFixture&) = delete;
    PythonFixture& operator=(const PythonFixture&) = delete;

    static bool available() { return ::access("/usr/bin/python3", X_OK) == 0; }
    bool ok() const { return m_ok; }
    std::vector<std::string> argv() const { return {"/usr/bin/python3", m_script}; }

private:
    std::string m_dir, m_script;
    bool m_ok = false;
};

class OwnedApp {
public:
    // argv[0] is looked up in PATH; `env` entries ("NAME=value") replace or add to this process's.
    explicit OwnedApp(std::vector<std::string> argv, const std::vector<std::string>& env = {})
    {
        std::map<std::string, std::string> vars;
        for (char** e = environ; *e; ++e) {
            std::string kv = *e;
            vars[kv.substr(0, kv.find('='))] = kv;
        }
        for (const auto& kv : env)
            vars[kv.substr(0, kv.find('='))] = kv;
        std::vector<std::string> env_strings;
        for (auto& [name, kv] : vars)
            env_strings.push_back(kv);
        m_pid = spawn_in_own_group(std::move(argv), &env_strings, true, &m_error);
    }
    ~OwnedApp() { stop(); }
    OwnedApp(const OwnedApp&) = delete;
    OwnedApp& operator=(const OwnedApp&) = delete;

    pid_t pid() const { return m_pid; }
    const std::string& error() const { return m_error; }

    // True when `pid` is this app's leader or one of the processes of its group.
    bool owns(pid_t pid) const { return m_pid > 0 && (pid == m_pid || ::getpgid(pid) == m_pid); }

    // False once the leader has exited (or crashed).
    bool running()
    {
        if (m_pid <= 0 || m_reaped)
            return false;
        if (waitpid(m_pid, nullptr, WNOHANG) == m_pid)
            m_reaped = true;
        return !m_reaped;
    }

    // SIGTERM to the group, SIGKILL to what is left after 2 s; returns once the group is empty.
    void stop()
    {
        if (m_pid <= 0)
            return;
        ::kill(-m_pid, SIGCONT);
        ::kill(-m_pid, SIGTERM);
        auto group_gone = [&] { return !running() && ::kill(-m_pid, 0) != 0 && errno == ESRCH; };
        if (!wait_until(group_gone, std::chrono::seconds(2))) {
            ::kill(-m_pid, SIGKILL);
            if (!m_reaped)
                waitpid(m_pid, nullptr, 0);
            m_reaped = true;
            wait_until(group_gone, std::chrono::seconds(2));
        }
        m_pid = -1;
    }

private:
    pid_t m_pid = -1;
    bool m_reaped = false;
    std::string m_error;
};

// A Qt5 example program by its path under Debian's qtbase5-examples ("widgets/widgets/styles/styles");
// NISH_QT5_EXAMPLES names another examples directory.
inline std::string qt5_example(const std::string& path)
{
    const char* dir = std::getenv("NISH_QT5_EXAMPLES");
    return std::string(dir && *dir ? dir : "/usr/lib/x86_64-linux-gnu/qt5/examples") + "/" + path;
}

struct ToolReply {
    bool is_error = false;
    json s;           // the structured result
    std::string text; // what the model reads
    std::string image;
    std::string code() const { return is_error ? s["error"]["code"].get<std::string>() : ""; }
};

// A session's worth of tool calls on the real Linux backend, with consent granted.
class LinuxToolTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto b = nd_linux::LinuxBackend::open();
        ASSERT_TRUE(b.ok()) << b.error().text();
        m_backend = std::move(b).value();
        m_engine = std::make_unique<nd_core::Engine>(*m_backend, m_consent, m_audit);
        m_dispatcher = std::make_unique<nd_driver::Dispatcher>(*m_engine);
    }

    ToolReply call(std::string_view tool, const json& args = json::object())
    {
        nd_mcp::CallContext ctx;
        auto out = m_dispatcher->call_tool(tool, args, ctx);
        return {out.is_error, json::parse(out.structured), out.text, out.image ? out.image->data_base64 : ""};
    }

    // Waits until `app` shows a window (listed as `app_name`) whose read has more than `min_elements`
    // elements and whose structure held still for two reads in a row (GTK4 builds its accessible
    // objects as they are first asked for, so the first reads grow). Null when it never did.
    // The app's last listed window (of those whose title contains `title`, when one is given).
    json wait_for_window(OwnedApp& app, const std::string& app_name, int min_elements,
                         std::chrono::milliseconds timeout, const std::string& title = "")
    {
        if (app.pid() <= 0) {
            ADD_FAILURE() << "could not start " << app_name << ": " << app.error();
            return nullptr;
        }
        auto session = call("start_session", {{"apps", {app_name}}});
        EXPECT_FALSE(session.is_error) << session.text;
        json window;
        std::string last_id;
        std::int64_t last_total = -1;
        std::string last_problem = "no window listed";
        bool died = false;
        const bool ok = wait_until(
            [&] {
                if (!app.running()) {
                    died = true;
                    return true;
                }
                if (window.is_null()) {
                    auto list = call("list_windows");
                    if (list.is_error) {
                        last_problem = list.text;
                        return false;
                    }
                    for (const auto& w : list.s["windows"])
                        if (app.owns(w["pid"].get<pid_t>()) && w.value("title", "").find(title) != std::string::npos)
                            window = w;
                    if (window.is_null())
                        return false;
                }
                auto read = call("get_window_state", {{"window_id", window["window_id"]}, {"max_elements", 1}});
                if (read.is_error) {
                    last_problem = read.text;
                    return false;
                }
                const auto id = read.s["snapshot_id"].get<std::string>();
                const auto total = read.s["total_elements"].get<std::int64_t>();
                const bool settled = total > min_elements && id == last_id && total == last_total;
                last_problem = "the read has " + std::to_string(total) + " elements";
                last_id = id;
                last_total = total;
                return settled;
            },
            timeout);
        if (!ok || died) {
            ADD_FAILURE() << app_name << (died ? " exited" : " did not show a readable window in time")
                          << "; last read: " << last_problem;
            return nullptr;
        }
        return window;
    }

    nd_linux::LinuxBackend& backend() { return *m_backend; }
    // For the host's controls (kill switch, revocation, a closed connection, the clock).
    nd_core::Engine& engine() { return *m_engine; }

    // Every element the engine reads (up to the 5,000 budget), preorder.
    json read_all(const json& window)
    {
        auto r = call("get_window_state",
                      {{"window_id", window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}});
        EXPECT_FALSE(r.is_error) << r.text;
        // A failed read reads as an empty window, so the checks after it fail instead of aborting.
        if (r.is_error || !r.s.contains("elements"))
            return json{{"elements", json::array()}};
        return r.s;
    }

    // The first row of `role` named `name` (any name when empty) that matches `accept`.
    static json find_row(const json& read, const std::string& role, const std::string& name = "",
                         const std::function<bool(const json&)>& accept = {})
    {
        for (const auto& row : read["elements"])
            if (row["role"] == role && (name.empty() || row.value("name", row.value("label", "")) == name) &&
                (!accept || accept(row)))
                return row;
        return nullptr;
    }

    static bool has_state(const json& row, const std::string& state)
    {
        const auto& st = row["states"];
        return std::find(st.begin(), st.end(), state) != st.end();
    }

    static json row_at(const json& read, const json& row)
    {
        return read["elements"][row["element_index"].get<std::size_t>()];
    }

private:
    nd_core::AuditLog m_audit{""};
    nd_core::AutoConsent m_consent;
    std::unique_ptr<nd_linux::LinuxBackend> m_backend;
    std::unique_ptr<nd_core::Engine> m_engine;
    std::unique_ptr<nd_driver::Dispatcher> m_dispatcher;
};

// One app in a takeover session, brought to the front: the tests of acts with real input. Skips
// where the X server lacks what a takeover needs; ends the session and stops the app after.
class TakeoverAppTest : public LinuxToolTest {
protected:
    void open_in_takeover(std::vector<std::string> argv, const std::string& app_name, int min_elements,
                          const std::string& title = "")
    {
        LinuxToolTest::SetUp();
        if (HasFatalFailure() || IsSkipped())
            return;
        if (!backend().input() || !backend().watcher() || !backend().overlay())
            GTEST_SKIP() << "this X server lacks XTEST, XInput 2.1 or SHAPE";
        m_app = std::make_unique<OwnedApp>(std::move(argv));
        m_window = wait_for_window(*m_app, app_name, min_elements, std::chrono::seconds(30), title);
        ASSERT_FALSE(m_window.is_null());
        auto started = call("start_session", {{"apps", {app_name}}, {"input", "takeover"}});
        ASSERT_FALSE(started.is_error) << started.text;
        auto front = call("bring_to_front", {{"window_id", m_window["window_id"]}});
        ASSERT_FALSE(front.is_error) << front.text;
    }

    void TearDown() override
    {
        if (m_window.is_object()) // skipped or failed before its session: nothing to end
            call("end_session");
        m_app.reset();
    }

    std::unique_ptr<OwnedApp> m_app;
    json m_window;
};

} // namespace nd_test
