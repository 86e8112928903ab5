#pragma once

// Shared by the browser click tests (chromium_acts_test, firefox_acts_test): a browser on a fresh
// profile showing fixtures/web/controls.html, headless clicks through the driver's click tool, and
// the read-backs that tell each click did what it should (a state, the page's status line, rows
// that appear). Every browser runs the same checks, so a toolkit that names its actions otherwise
// fails the same test, not a copy of it.

#include "core/model/act_actions.h"
#include "tool_test_support.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace nd_test {

// Chromium's command line for the tests: accessibility on, no sandbox, nothing that calls out, and
// no keyring (where one is installed, Chromium asks it for the cookie key: a keyring's password
// prompt covers the desktop, and http pages wait on it).
// Its crash handlers leave the process group (setsid) and end with the browser.
inline std::vector<std::string> chromium_argv(const std::string& profile, const std::string& url,
                                              const std::string& size = "1000,800")
{
    return {"chromium", "--force-renderer-accessibility", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--password-store=basic", "--user-data-dir=" + profile, "--window-size=" + size, url};
}

// Firefox ESR on `url` with `profile`, alone (no other instance, none reused).
inline std::vector<std::string> firefox_argv(const std::string& profile, const std::string& url,
                                             const std::string& width = "1000", const std::string& height = "800")
{
    return {"firefox-esr", "--profile", profile, "--no-remote", "--new-instance", "--width", width, "--height", height, url};
}

// A profile that shows no first-run, default-browser or telemetry page: the test's page is the only tab.
inline void write_firefox_prefs(const std::string& profile)
{
    std::ofstream prefs(profile + "/user.js");
    for (const char* pref : {"\"browser.shell.checkDefaultBrowser\", false",
             "\"browser.startup.homepage_override.mstone\", \"ignore\"",
             "\"startup.homepage_welcome_url\", \"\"", "\"browser.aboutwelcome.enabled\", false",
             "\"datareporting.policy.dataSubmissionEnabled\", false",
             "\"toolkit.telemetry.reportingpolicy.firstRun\", false",
             "\"browser.newtabpage.enabled\", false", "\"browser.startup.page\", 0",
             "\"app.update.enabled\", false", "\"extensions.update.enabled\", false",
             "\"browser.tabs.warnOnClose\", false", "\"browser.sessionstore.resume_from_crash\", false"})
        prefs << "user_pref(" << pref << ");\n";
}

inline std::vector<std::string> firefox_env() { return {"GNOME_ACCESSIBILITY=1", "MOZ_CRASHREPORTER_DISABLE=1"}; }

// The X window of `pid` whose title holds `title`, found through X alone (no AT-SPI client asks the
// app anything): a test of what a browser does before its first assistive client. 0 when none
// showed within `timeout`.
inline std::int64_t x_window_titled(pid_t pid, const std::string& title, std::chrono::milliseconds timeout)
{
    std::int64_t window_id = 0;
    wait_until(
        [&] {
            window_id = std::atoll(command_output("xdotool search --onlyvisible --pid " + std::to_string(pid) +
                                                  " --name '" + title + "' 2>/dev/null | head -n 1")
                                       .c_str());
            return window_id != 0;
        },
        timeout);
    return window_id;
}

class BrowserActs : public LinuxToolTest {
protected:
    // Firefox ESR on `page`, with a profile that shows no first-run, default-browser or telemetry
    // page: the test's page is the only tab.
    void open_firefox(const char* page, int min_elements, const std::string& width = "1000",
                      const std::string& height = "800")
    {
        open_browser("firefox-esr", page, min_elements,
            [width, height](const std::string& profile, const std::string& url) {
                return firefox_argv(profile, url, width, height);
            },
            write_firefox_prefs, firefox_env());
    }

    // Chromium on `page` (the chat page wants a larger window than the controls).
    void open_chromium(const char* page, int min_elements, const std::string& size = "1000,800")
    {
        open_browser("chromium", page, min_elements,
            [size](const std::string& profile, const std::string& url) { return chromium_argv(profile, url, size); });
    }

    // Starts the browser on `page` with a fresh profile: `argv(profile, url)` builds its command
    // line; `prepare(profile)` may write settings into the profile first.
    void open_browser(const std::string& app_name, const char* page, int min_elements,
        const std::function<std::vector<std::string>(const std::string&, const std::string&)>& argv,
        const std::function<void(const std::string&)>& prepare = {}, const std::vector<std::string>& env = {})
    {
        std::string dir = (std::filesystem::temp_directory_path() / ("nish-" + app_name + "-XXXXXX")).string();
        ASSERT_NE(::mkdtemp(dir.data()), nullptr) << std::strerror(errno);
        m_profile = dir;
        if (prepare)
            prepare(m_profile);
        const auto path = std::filesystem::absolute(std::string(NISH_SOURCE_DIR) + "/fixtures/web/" + page);
        ASSERT_TRUE(std::filesystem::exists(path)) << path;
        m_app = std::make_unique<OwnedApp>(argv(m_profile, "file://" + path.string()), env);
        m_window = wait_for_window(*m_app, app_name, min_elements, std::chrono::seconds(40));
        ASSERT_FALSE(m_window.is_null());
    }

    void TearDown() override
    {
        if (m_app)
            m_app->stop();
        if (!m_profile.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(m_profile, ec);
        }
    }

    // A fresh read once the page's row of `role` named `name` is in it with its actions (the
    // document loads late; Gecko's page rows come without actions for a moment after that) and
    // the page held still for two reads (Gecko adds rows for a while after the first ones).
    json read_with(const std::string& role, const std::string& name)
    {
        json all;
        std::size_t last = 0;
        wait_until(
            [&] {
                all = read_all(m_window);
                const auto rows = all["elements"].size();
                const bool still = rows == last;
                last = rows;
                const auto row = find_row(all, role, name);
                return still && !row.is_null() && !row["actions"].empty();
            },
            std::chrono::seconds(15));
        return all;
    }

    // Waits until `check` holds of a fresh read.
    bool eventually(const std::function<bool(const json&)>& check)
    {
        return wait_until([&] { return check(read_all(m_window)); }, std::chrono::seconds(3));
    }

    void click(const json& row, const std::string& what)
    {
        ASSERT_FALSE(row.is_null()) << what << " is not in the read";
        auto r = call("click", {{"element_token", row["element_token"]}});
        ASSERT_FALSE(r.is_error) << what << ": " << r.text;
        EXPECT_EQ(r.s["path"], "semantic") << what;
        std::printf("%s: click on %s ran one of %s\n", m_app_label.c_str(), what.c_str(), row["actions"].dump().c_str());
    }

    // The page's status line: Gecko gives a text leaf's text as its value, Chromium a static
    // text child named with it.
    static std::string status_of(const json& all)
    {
        auto status = find_row(all, "status_bar");
        if (status.is_null())
            return "";
        if (!status.value("value", "").empty())
            return status["value"];
        const auto next = status["element_index"].get<std::size_t>() + 1;
        if (next >= all["elements"].size())
            return "";
        return all["elements"][next].value("name", "");
    }

    bool status_becomes(const std::string& text)
    {
        std::string last;
        const bool ok = eventually([&](const json& a) { last = status_of(a); return last == text; });
        if (!ok)
            ADD_FAILURE() << "the status line says \"" << last << "\", not \"" << text << "\"";
        return ok;
    }

    // The first row whose name starts with `prefix` and that has actions (the clickable one of a
    // label and its control, of a summary and its text).
    static json actionable(const json& all, const std::string& role, const std::string& prefix)
    {
        for (const auto& row : all["elements"])
            if (row["role"] == role && row.value("name", "").rfind(prefix, 0) == 0 && !row["actions"].empty())
                return row;
        return nullptr;
    }

    // The aria-pressed button: Chromium's toggle_button; Gecko's toggle_button or push_button
    // (both seen for the same page), pressed either way.
    static json bold(const json& all)
    {
        auto row = find_row(all, "toggle_button", "Bold");
        return row.is_null() ? find_row(all, "push_button", "Bold") : row;
    }

    static bool shows_text(const json& all, const std::string& text)
    {
        return std::any_of(all["elements"].begin(), all["elements"].end(),
            [&](const json& row) { return row.value("name", "") == text || row.value("value", "") == text; });
    }

    // Clicks one control of every interactive role on controls.html and reads each effect back.
    void click_every_role()
    {
        auto all = read_with("push_button", "Save");
        ASSERT_EQ(status_of(all), "Ready");

        click(find_row(all, "push_button", "Save"), "the button");
        status_becomes("Saved");

        all = read_all(m_window);
        click(bold(all), "the toggle button");
        status_becomes("Bold on");
        EXPECT_TRUE(eventually([](const json& a) { return has_state(bold(a), "pressed"); }));

        all = read_all(m_window);
        click(find_row(all, "check_box", "Subscribe"), "the check box");
        EXPECT_TRUE(eventually([](const json& a) { return has_state(find_row(a, "check_box", "Subscribe"), "checked"); }));

        all = read_all(m_window);
        click(find_row(all, "radio_button", "Large"), "the radio");
        EXPECT_TRUE(eventually([](const json& a) {
            return has_state(find_row(a, "radio_button", "Large"), "checked") &&
                   !has_state(find_row(a, "radio_button", "Small"), "checked");
        }));

        all = read_all(m_window);
        click(find_row(all, "link", "Next section"), "the link");
        status_becomes("Jumped");

        all = read_all(m_window);
        EXPECT_FALSE(shows_text(all, "Hidden text")) << "the details start closed";
        json summary;
        for (const auto& row : all["elements"])
            if (row.value("name", "") == "More options" && !row["actions"].empty()) {
                summary = row;
                break;
            }
        click(summary, "the summary");
        EXPECT_TRUE(eventually([](const json& a) { return shows_text(a, "Hidden text"); })) << "the details did not open";

        all = read_all(m_window);
        click(find_row(all, "menu_item", "Paste"), "the menu item");
        status_becomes("Pasted");

        all = read_all(m_window);
        click(find_row(all, "page_tab", "Grid view"), "the tab");
        status_becomes("Tab Grid view");
        EXPECT_TRUE(eventually([](const json& a) {
            return has_state(find_row(a, "page_tab", "Grid view"), "selected") &&
                   !has_state(find_row(a, "page_tab", "List view"), "selected");
        }));

        all = read_all(m_window);
        EXPECT_TRUE(find_row(all, "tree_item", "Report").is_null()) << "the tree starts closed";
        click(actionable(all, "tree_item", "Documents"), "the tree item");
        status_becomes("Tree Documents");
        EXPECT_TRUE(eventually([](const json& a) {
            return has_state(actionable(a, "tree_item", "Documents"), "expanded") && !find_row(a, "tree_item", "Report").is_null();
        })) << "the tree item did not open";

        all = read_all(m_window);
        auto notes = find_row(all, "entry", "Notes");
        ASSERT_FALSE(notes.is_null()) << "the contenteditable region is not in the read";
        EXPECT_EQ(notes.value("value", ""), "Draft");
        click(notes, "the contenteditable region");
        std::string said;
        EXPECT_TRUE(eventually([&](const json& a) {
            said = status_of(a);
            return said == "Notes clicked" || said == "Editing notes";
        })) << "the status line says \"" << said << "\"";

        // The select: its option is clicked (selects it, and the page hears "change"), then the
        // select itself, which opens it (where the browser can, m_select_works).
        all = read_all(m_window);
        click(find_row(all, "menu_item", "Two"), "the select's option");
        if (m_select_works) {
            status_becomes("Size Two");
            EXPECT_TRUE(eventually([](const json& a) { return has_state(find_row(a, "menu_item", "Two"), "selected"); }));
        }
        all = read_all(m_window);
        click(find_row(all, "combo_box", "Size"), "the select");
        if (m_select_works) {
            EXPECT_TRUE(eventually([](const json& a) { return has_state(find_row(a, "combo_box", "Size"), "expanded"); }))
                << "the select did not open";
        } else {
            // Nothing to read back: the actions ran (DoAction answered true) and changed nothing.
            std::printf("%s: the select's open and its option's select ran headless and changed nothing; the status "
                        "line still says \"%s\"\n", m_app_label.c_str(), status_of(read_all(m_window)).c_str());
        }
        EXPECT_TRUE(m_app->running());
    }

    // A click on a page element that has no action a click may run (Gecko: a document, heading or
    // paragraph has none at all) fails, naming what the element offers and recommending a
    // foreground click in a takeover.
    void click_without_action_fails()
    {
        auto all = read_with("push_button", "Save");
        json target;
        bool in_page = false;
        for (const auto& row : all["elements"]) {
            in_page = in_page || row["role"] == "document_web";
            std::vector<std::string> actions;
            for (const auto& a : row["actions"])
                actions.push_back(a);
            if (in_page && !row.value("name", "").empty() && !nd_core::choose_action(nd_core::ActKind::click, actions)) {
                target = row;
                break;
            }
        }
        ASSERT_FALSE(target.is_null()) << "every named row of the page has a click";
        auto r = call("click", {{"element_token", target["element_token"]}});
        ASSERT_TRUE(r.is_error) << target.dump() << ": " << r.text;
        EXPECT_EQ(r.code(), "action_not_offered");
        EXPECT_NE(r.text.find("has no action for click; its actions: " +
                              std::string(target["actions"].empty() ? "none" : "[\"" + target["actions"][0].get<std::string>())),
            std::string::npos) << r.text;
        EXPECT_EQ(r.s["error"]["escalation"]["recommend"], "takeover") << r.s.dump();
        std::printf("%s: %s \"%s\": %s (escalation: %s)\n", m_app_label.c_str(), target["role"].get<std::string>().c_str(),
            target["name"].get<std::string>().c_str(), r.text.c_str(), r.s["error"]["escalation"].dump().c_str());
    }

    // Whole reads of the page through the tool, as a model asks them; the median of `runs`.
    double median_read_ms(int runs)
    {
        using Clock = std::chrono::steady_clock;
        std::vector<double> times;
        std::size_t rows = 0;
        for (int i = 0; i < runs; ++i) {
            const auto t = Clock::now();
            auto all = read_all(m_window);
            times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
            rows = all["elements"].size();
        }
        std::sort(times.begin(), times.end());
        const double median = times[times.size() / 2];
        std::printf("%s: a whole read of controls.html (%zu rows): median %.1f ms of %d (min %.1f, max %.1f)\n",
            m_app_label.c_str(), rows, median, runs, times.front(), times.back());
        return median;
    }

    // The backend's listing of the browser's window (m_window); an error when the listing fails
    // or does not hold it.
    nd_core::Result<nd_core::WindowInfo> listed_window()
    {
        auto listed = TRY(backend().windows()->list_windows());
        for (auto& w : listed)
            if (w.window_id == m_window["window_id"].get<std::int64_t>())
                return w;
        return nd_core::make_error(nd_core::ErrorCode::window_target_not_found, "the browser's window is not listed");
    }

    std::string m_app_label = "browser";
    // A <select>'s option and the select itself take a headless click (Chromium); Gecko's answer
    // true and do nothing (docs/linux-atspi.md, "Gecko").
    bool m_select_works = true;
    std::string m_profile;
    std::unique_ptr<OwnedApp> m_app;
    json m_window;
};

} // namespace nd_test
