// The contract tools on the real Linux backend, on the virtual test desktop, with real apps from
// Debian packages: gtk3-widget-factory (reads, acts, readback, staleness, capture) and a zenity
// password dialog (the secure field is never read, typed into or shown).

#include "app_process.h"
#include "backend/linux/linux_backend.h"
#include "core/engine/audit.h"
#include "core/backend/consent.h"
#include "core/engine/engine.h"
#include "driver/dispatcher.h"
#include "../tools/png_decode.h"
#include "../tools/schema_validate.h"
#include "core/backend/registry.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace {

using nlohmann::json;
using nd_test::AppProcess;

struct Reply {
    bool is_error = false;
    json s;
    std::string text;
    std::string image;
    std::string code() const { return is_error ? s["error"]["code"].get<std::string>() : ""; }
};

class LinuxDriver : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto b = nd_linux::LinuxBackend::open();
        ASSERT_TRUE(b.ok()) << b.error().text();
        backend = std::move(b).value();
        engine = std::make_unique<nd_core::Engine>(*backend, consent, audit);
        dispatcher = std::make_unique<nd_driver::Dispatcher>(*engine);
    }

    Reply call(std::string_view tool, const json& args = json::object())
    {
        nd_mcp::CallContext ctx;
        auto out = dispatcher->call_tool(tool, args, ctx);
        Reply r{out.is_error, json::parse(out.structured), out.text, out.image ? out.image->data_base64 : ""};
        return r;
    }

    // Starts an app and waits until its window is listed and readable.
    json start_app(AppProcess& app, const std::string& title_fragment)
    {
        EXPECT_GT(app.pid(), 0);
        json window;
        bool ok = nd_test::wait_until(
            [&] {
                auto s = call("start_session");
                auto list = call("list_windows", {{"app", title_fragment}});
                if (list.is_error || list.s["windows"].empty())
                    return false;
                for (const auto& w : list.s["windows"])
                    if (w["pid"] == app.pid())
                        window = w;
                if (window.is_null())
                    return false;
                auto read = call("get_window_state", {{"window_id", window["window_id"]}});
                return !read.is_error && read.s["total_elements"].get<int>() > 5;
            },
            std::chrono::seconds(20));
        EXPECT_TRUE(ok) << "window of " << title_fragment << " did not appear";
        return window;
    }

    json full(const json& window)
    {
        auto r = call("get_window_state", {{"window_id", window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}});
        EXPECT_FALSE(r.is_error) << r.text;
        return r.s;
    }

    static json find(const json& read, const std::string& role, const std::string& name, bool enabled = true)
    {
        for (const auto& row : read["elements"]) {
            if (row["role"] != role || row["name"] != name)
                continue;
            const auto& st = row["states"];
            const bool is_enabled = std::find(st.begin(), st.end(), "enabled") != st.end();
            if (is_enabled == enabled)
                return row;
        }
        return nullptr;
    }

    static bool has_state(const json& row, const std::string& state)
    {
        const auto& st = row["states"];
        return std::find(st.begin(), st.end(), state) != st.end();
    }

    nd_core::AuditLog audit{""};
    nd_core::AutoConsent consent;
    std::unique_ptr<nd_linux::LinuxBackend> backend;
    std::unique_ptr<nd_core::Engine> engine;
    std::unique_ptr<nd_driver::Dispatcher> dispatcher;
};

TEST_F(LinuxDriver, Gtk3ReadsShareRowNumbers)
{
    AppProcess app({"gtk3-widget-factory"});
    auto window = start_app(app, "widget");
    auto all = full(window);
    EXPECT_GT(all["total_elements"].get<int>(), 200);
    EXPECT_EQ(all["elements"][0]["role"], "frame");
    auto skeleton = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
    ASSERT_FALSE(skeleton.is_error) << skeleton.text;
    EXPECT_LE(skeleton.s["elements"].size(), 60u);
    EXPECT_EQ(skeleton.s["snapshot_id"], all["snapshot_id"]);
    json tabs;
    for (const auto& row : skeleton.s["elements"])
        if (row["role"] == "page_tab_list" && tabs.is_null())
            tabs = row;
    ASSERT_FALSE(tabs.is_null()) << skeleton.text;
    auto drill = call("get_window_state", {{"root", tabs["element_token"]}});
    ASSERT_FALSE(drill.is_error) << drill.text;
    EXPECT_EQ(drill.s["root"], tabs["element_token"]);
    for (const auto& row : drill.s["elements"]) {
        const auto i = row["element_index"].get<std::size_t>();
        EXPECT_EQ(all["elements"][i]["element_token"], row["element_token"]);
        EXPECT_EQ(all["elements"][i]["role"], row["role"]);
    }
    // Frames come from the screen and lie within the window.
    const auto& wf = window["frame"];
    auto check = find(all, "check_box", "checkbutton");
    ASSERT_FALSE(check.is_null());
    EXPECT_GE(check["frame"]["x"].get<int>(), wf["x"].get<int>());
    EXPECT_LE(check["frame"]["x"].get<int>() + check["frame"]["w"].get<int>(), wf["x"].get<int>() + wf["w"].get<int>());
}

TEST_F(LinuxDriver, Gtk3ToggleButtonAndCheckButton)
{
    AppProcess app({"gtk3-widget-factory"});
    auto window = start_app(app, "widget");
    auto before = find(full(window), "check_box", "checkbutton");
    ASSERT_FALSE(before.is_null());
    const bool was = has_state(before, "checked");
    auto r = call("click", {{"element_token", before["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.s["path"], "semantic");
    EXPECT_EQ(r.s["effect"], "confirmed") << r.text;
    auto after = full(window)["elements"][before["element_index"].get<std::size_t>()];
    EXPECT_NE(has_state(after, "checked"), was);

    auto button = find(full(window), "toggle_button", "togglebutton");
    ASSERT_FALSE(button.is_null());
    auto press = call("click", {{"element_token", button["element_token"]}});
    ASSERT_FALSE(press.is_error) << press.text;
    EXPECT_EQ(press.s["effect"], "confirmed") << press.text;
}

// A repeat read of an unchanged window answers with the bytes rendered for it before
// (nd_core::ViewCache), and the first read after a change renders afresh and shows the change.
TEST_F(LinuxDriver, Gtk3RepeatReadsAnswerWithTheirRenderingUntilTheWindowChanges)
{
    AppProcess app({"gtk3-widget-factory"});
    auto window = start_app(app, "widget");
    const json whole = {{"window_id", window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}};
    auto hits = [this] { return engine->session()->views.hits(); };
    // Warm reads start once the app knows of the event listeners (docs/linux-atspi.md), and the
    // factory's spinner may change a fact now and then: read until a read is answered from the
    // rendering of the one before.
    Reply last;
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            const auto before = hits();
            last = call("get_window_state", whole);
            return !last.is_error && hits() > before;
        },
        std::chrono::seconds(15)))
        << "no repeat read was answered from its rendering";

    auto check = find(last.s, "check_box", "checkbutton");
    ASSERT_FALSE(check.is_null());
    const bool was = has_state(check, "checked");
    auto r = call("click", {{"element_token", check["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    const auto before = hits();
    auto after = call("get_window_state", whole);
    ASSERT_FALSE(after.is_error) << after.text;
    EXPECT_EQ(hits(), before) << "the read after a change was answered with an old rendering";
    const auto& row = after.s["elements"][check["element_index"].get<std::size_t>()];
    EXPECT_EQ(row["name"], "checkbutton");
    EXPECT_NE(has_state(row, "checked"), was) << after.text;

    // A skeleton and a whole read of one snapshot are kept side by side.
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            auto sk = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
            auto all = call("get_window_state", whole);
            const auto before_pair = hits();
            auto sk2 = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}});
            auto all2 = call("get_window_state", whole);
            return hits() == before_pair + 2 && sk2.text == sk.text && all2.text == all.text &&
                   sk2.s["view"] == "skeleton" && all2.s["view"] == "full";
        },
        std::chrono::seconds(15)));
}

TEST_F(LinuxDriver, Gtk3SetValueReadsBack)
{
    AppProcess app({"gtk3-widget-factory"});
    auto window = start_app(app, "widget");
    json entry;
    const auto read = full(window);
    for (const auto& row : read["elements"])
        if (row["role"] == "text" && row.value("value", "") == "entry" && has_state(row, "enabled") && entry.is_null())
            entry = row;
    ASSERT_FALSE(entry.is_null());
    auto r = call("set_value", {{"element_token", entry["element_token"]}, {"value", "hello from nish"}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.s["readback"], "match") << r.text;
    EXPECT_EQ(r.s["effect"], "confirmed");
    auto again = full(window)["elements"][entry["element_index"].get<std::size_t>()];
    EXPECT_EQ(again["value"], "hello from nish");
}

TEST_F(LinuxDriver, Gtk3NotebookPageSwitchMakesOldTokensStale)
{
    AppProcess app({"gtk3-widget-factory"});
    auto window = start_app(app, "widget");
    auto read = full(window);
    auto page2 = find(read, "page_tab", "page 2");
    ASSERT_FALSE(page2.is_null());
    auto check = find(read, "check_box", "checkbutton");
    auto r = call("click", {{"element_token", page2["element_token"]}});
    ASSERT_FALSE(r.is_error) << r.text;
    auto reread = full(window);
    EXPECT_TRUE(has_state(reread["elements"][page2["element_index"].get<std::size_t>()], "selected"));
    if (reread["snapshot_id"] != read["snapshot_id"]) {
        auto stale = call("click", {{"element_token", check["element_token"]}});
        EXPECT_EQ(stale.code(), "stale_element_token") << stale.text;
        EXPECT_EQ(stale.s["error"]["disposition"]["retry"], "after_refresh");
    } else {
        ADD_FAILURE() << "switching the notebook page did not change the structure";
    }
}

TEST_F(LinuxDriver, ZenityPasswordIsNeverReadTypedOrShown)
{
    AppProcess app({"zenity", "--password", "--title", "Unlock"});
    auto window = start_app(app, "Unlock");
    auto read = full(window);
    json pw;
    for (const auto& row : read["elements"])
        if (row["role"] == "password_text")
            pw = row;
    ASSERT_FALSE(pw.is_null()) << read.dump().substr(0, 2000);
    EXPECT_EQ(pw["value_redacted"], true);
    EXPECT_FALSE(pw.contains("value"));
    for (auto tool : {"type_text", "set_value"}) {
        auto r = call(tool, {{"element_token", pw["element_token"]}, {"text", "hunter2"}, {"value", "hunter2"}});
        EXPECT_EQ(r.code(), "secure_field_refused") << tool << ": " << r.text;
    }
    auto skeleton = call("get_window_state", {{"window_id", window["window_id"]}, {"skeleton", true}, {"max_depth", 25}});
    for (const auto& row : skeleton.s["elements"])
        EXPECT_NE(row["role"], "password_text");

    auto shot = call("get_window_state", {{"window_id", window["window_id"]}, {"include_screenshot", true}});
    ASSERT_FALSE(shot.is_error) << shot.text;
    ASSERT_FALSE(shot.image.empty()) << shot.s.dump().substr(0, 500);
    nd_test::Pixels px;
    ASSERT_TRUE(nd_test::decode_png(nd_test::base64_decode(shot.image), px));
    const auto& wf = shot.s["window"]["frame"];
    const auto& f = pw["frame"];
    const int x0 = f["x"].get<int>() - wf["x"].get<int>();
    const int y0 = f["y"].get<int>() - wf["y"].get<int>();
    ASSERT_GT(f["w"].get<int>(), 0);
    for (int y = y0; y < y0 + f["h"].get<int>(); y += 2)
        for (int x = x0; x < x0 + f["w"].get<int>(); x += 5) {
            if (x < 0 || y < 0 || x >= px.width || y >= px.height)
                continue;
            const auto* p = px.at(x, y);
            ASSERT_TRUE(p[0] == 0 && p[1] == 0 && p[2] == 0) << "pixel " << x << "," << y << " of the password field";
        }
}

TEST_F(LinuxDriver, AppThatExitsOrHangsGetsAClearError)
{
    AppProcess app({"gtk3-widget-factory"});
    auto window = start_app(app, "widget");
    auto check = find(full(window), "check_box", "checkbutton");
    ::kill(-app.pid(), SIGSTOP);
    auto hung = call("get_window_state", {{"window_id", window["window_id"]}});
    ::kill(-app.pid(), SIGCONT);
    ASSERT_TRUE(hung.is_error) << "a stopped app answered a read";
    EXPECT_TRUE(hung.code() == "app_not_responding" || hung.code() == "timed_out") << hung.text;
    EXPECT_EQ(hung.s["error"]["disposition"]["retry"], "unsafe");
    EXPECT_FALSE(call("list_windows").is_error);
    app.stop();
    auto gone = call("click", {{"element_token", check["element_token"]}});
    EXPECT_TRUE(gone.is_error);
    EXPECT_TRUE(gone.code() == "window_target_not_found" || gone.code() == "stale_element_token") << gone.text;
    EXPECT_FALSE(call("health_report").is_error);
}

TEST(LinuxDoctor, ReadyOnTheTestDesktop)
{
    NISH_REQUIRE_DESKTOP();
    const std::string cmd = "NISH_AUDIT_LOG= " + std::string(NISH_BIN_DIR) + "/nish-driver doctor --json </dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int status = pclose(p);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << out;
    auto doc = json::parse(out);
    EXPECT_EQ(nd_test::schema_errors(nd_core::doctor_schema(), doc), "");
    EXPECT_EQ(doc["ready"], true);
    EXPECT_EQ(doc["session_type"], "x11");
    for (const auto& b : doc["backends"]) {
        if (b["id"] == "x11" || b["id"] == "atspi") {
            EXPECT_EQ(b["status"], "available") << b.dump();
        }
    }
    bool person_rule = false;
    for (const auto& probe : doc["probes"]) {
        EXPECT_EQ(probe["status"], "ok") << probe.dump();
        person_rule = person_rule || probe["label"] == "person-only approvals";
    }
    EXPECT_TRUE(person_rule) << "the doctor says whether only the person can answer the consent dialog";
}

} // namespace
