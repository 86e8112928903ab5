#pragma once

// For toolkit_acts_test: one app on the test desktop, headless clicks through the driver's click
// tool, and the read-backs that tell each click did what it should. Rows are found by role, name
// and position among the enabled rows like them, never by index: GTK4 makes its accessible
// objects as they are first asked for, so the rows before a control move between reads.

#include "tool_test_support.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace nd_test {

// How long a click's effect may take to show: GTK4's switch slides for about 110 ms, dialogs map.
constexpr auto CLICK_EFFECT = std::chrono::seconds(3);

// A handler for http links that writes down the address it is given: the app's environment
// points GIO at it (XDG_CONFIG_HOME and XDG_DATA_HOME), so a link button's click can be read
// back on a desktop that has no browser.
class LinkCatcher {
public:
    LinkCatcher()
    {
        std::string dir = (std::filesystem::temp_directory_path() / "nish-links-XXXXXX").string();
        if (!::mkdtemp(dir.data()))
            return;
        m_dir = dir;
        std::filesystem::create_directories(m_dir + "/data/applications");
        std::filesystem::create_directories(m_dir + "/config");
        const auto script = m_dir + "/open-link";
        std::ofstream(script) << "#!/bin/sh\nprintf '%s' \"$1\" > '" << m_dir << "/opened.tmp' && mv '" << m_dir
                              << "/opened.tmp' '" << m_dir << "/opened'\n";
        std::filesystem::permissions(script, std::filesystem::perms::owner_all);
        std::ofstream(m_dir + "/data/applications/nish-link.desktop")
            << "[Desktop Entry]\nType=Application\nName=Link catcher\nNoDisplay=true\nExec=" << script
            << " %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n";
        const char* defaults =
            "[Default Applications]\nx-scheme-handler/http=nish-link.desktop\nx-scheme-handler/https=nish-link.desktop\n";
        std::ofstream(m_dir + "/config/mimeapps.list") << defaults;
        std::ofstream(m_dir + "/data/applications/mimeapps.list") << defaults;
    }
    ~LinkCatcher()
    {
        std::error_code ec;
        if (!m_dir.empty())
            std::filesystem::remove_all(m_dir, ec);
    }
    LinkCatcher(const LinkCatcher&) = delete;
    LinkCatcher& operator=(const LinkCatcher&) = delete;

    std::vector<std::string> env() const { return {"XDG_CONFIG_HOME=" + m_dir + "/config", "XDG_DATA_HOME=" + m_dir + "/data"}; }

    // The address the handler was given; empty until a link was opened.
    std::string opened() const
    {
        std::ifstream in(m_dir + "/opened");
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

private:
    std::string m_dir;
};

class ToolkitActs : public LinuxToolTest {
protected:
    void open(std::vector<std::string> argv, const std::string& app_name, int min_elements,
              const std::vector<std::string>& env = {})
    {
        m_app = std::make_unique<OwnedApp>(std::move(argv), env);
        m_window = wait_for_window(*m_app, app_name, min_elements, std::chrono::seconds(30));
    }

    void TearDown() override
    {
        if (m_app) {
            if (!m_may_exit) {
                EXPECT_TRUE(m_app->running()) << "the app exited during the test";
            }
            m_app->stop();
        }
    }

    json fresh() { return read_all(m_window); }

    // The test ends the app itself (a dialog's OK).
    bool m_may_exit = false;

    // The enabled rows of `role` named `name` (any name when empty) that pass `accept`, in order.
    static std::vector<json> rows(const json& all, const std::string& role, const std::string& name,
                                  const std::function<bool(const json&)>& accept = {})
    {
        std::vector<json> out;
        for (const auto& row : all["elements"])
            if (row["role"] == role && (name.empty() || row.value("name", "") == name) && has_state(row, "enabled") &&
                (!accept || accept(row)))
                out.push_back(row);
        return out;
    }

    static int count(const json& all, const std::string& role, const std::string& name)
    {
        return static_cast<int>(rows(all, role, name).size());
    }

    // The `n`th of those rows; null when there are fewer.
    static json nth(const json& all, const std::string& role, const std::string& name, std::size_t n = 0,
                    const std::function<bool(const json&)>& accept = {})
    {
        auto found = rows(all, role, name, accept);
        return n < found.size() ? found[n] : json();
    }

    static bool has(const json& row, const std::string& state) { return !row.is_null() && has_state(row, state); }
    static std::string value_of(const json& row) { return row.is_null() ? "" : row.value("value", ""); }

    // The first row of `role` in `row`'s subtree; null when none.
    static json inside(const json& all, const json& row, const std::string& role)
    {
        if (row.is_null())
            return nullptr;
        const auto first = row["element_index"].get<std::size_t>() + 1;
        const auto end = std::min(first + row["descendant_count"].get<std::size_t>(), all["elements"].size());
        for (auto i = first; i < end; ++i)
            if (all["elements"][i]["role"] == role)
                return all["elements"][i];
        return nullptr;
    }

    // Waits until `check` holds of a fresh read.
    bool eventually(const std::function<bool(const json&)>& check)
    {
        return wait_until([&] { return check(fresh()); }, CLICK_EFFECT);
    }

    // A headless click that the driver must run as the element's own action (or a select).
    void click(const json& row, const std::string& what)
    {
        ASSERT_FALSE(row.is_null()) << what << " is not in the read";
        auto r = call("click", {{"element_token", row["element_token"]}});
        ASSERT_FALSE(r.is_error) << what << ": " << r.text;
        EXPECT_EQ(r.s["path"], "semantic") << what;
        std::printf("click on %s (%s, actions %s): %s\n", what.c_str(), row["role"].get<std::string>().c_str(),
            row["actions"].dump().c_str(), r.s["effect"].dump().c_str());
    }

    void set_value(const json& row, const std::string& value, const std::string& what)
    {
        ASSERT_FALSE(row.is_null()) << what << " is not in the read";
        auto r = call("set_value", {{"element_token", row["element_token"]}, {"value", value}});
        ASSERT_FALSE(r.is_error) << what << ": " << r.text;
    }

    // Clicks the `n`th row like that and waits until its `state` is the other way round.
    void expect_click_flips(const json& all, const std::string& role, const std::string& name, std::size_t n,
                            const std::string& state, const std::function<bool(const json&)>& accept = {})
    {
        auto row = nth(all, role, name, n, accept);
        const bool was = has(row, state);
        ASSERT_NO_FATAL_FAILURE(click(row, role + " \"" + name + "\""));
        json now;
        EXPECT_TRUE(eventually([&](const json& a) {
            now = nth(a, role, name, n, accept);
            return !now.is_null() && has(now, state) != was;
        })) << role << " \"" << name << "\" is still " << (was ? "" : "not ") << state << ": " << now.dump();
    }

    // A click on a row without an action for it: the clean error with the takeover escalation.
    void expect_no_click(const json& row, const std::string& what)
    {
        ASSERT_FALSE(row.is_null()) << what << " is not in the read";
        auto r = call("click", {{"element_token", row["element_token"]}});
        ASSERT_TRUE(r.is_error) << what << ": " << r.text;
        EXPECT_EQ(r.code(), "action_not_offered") << what << ": " << r.text;
        EXPECT_NE(r.text.find("has no action for click; its actions: " +
                              (row["actions"].empty() ? std::string("none") : "[\"" + row["actions"][0].get<std::string>())),
            std::string::npos) << r.text;
        EXPECT_EQ(r.s["error"]["escalation"]["recommend"], "takeover") << r.s.dump();
    }

    // True when the app shows a window whose title contains `title`.
    bool shows_window(const std::string& title)
    {
        auto list = call("list_windows");
        for (const auto& w : list.s["windows"])
            if (m_app->owns(w["pid"].get<pid_t>()) && w.value("title", "").find(title) != std::string::npos)
                return true;
        return false;
    }

    std::unique_ptr<OwnedApp> m_app;
    json m_window;
    // What gtk3- and gtk4-widget-factory share, last in their tests: the spin button takes a value,
    // the link button (read as `link_role`) hands its address to the link handler, and the font
    // button opens its dialog (last of all: the dialog is modal).
    void spin_link_and_font(const LinkCatcher& links, const std::string& link_role)
    {
        auto spin = nth(fresh(), "spin_button", "");
        EXPECT_EQ(value_of(spin), "50");
        set_value(spin, "42", "the spin button");
        EXPECT_TRUE(eventually([](const json& a) { return value_of(nth(a, "spin_button", "")) == "42"; }));

        click(nth(fresh(), link_role, "link button"), "the link button");
        EXPECT_TRUE(wait_until([&] { return !links.opened().empty(); }, CLICK_EFFECT)) << "no link was opened";
        EXPECT_EQ(links.opened(), "http://www.gtk.org");

        EXPECT_FALSE(shows_window("Pick a Font"));
        click(nth(fresh(), "push_button", "Sans Regular"), "the font button");
        EXPECT_TRUE(wait_until([&] { return shows_window("Pick a Font"); }, CLICK_EFFECT)) << "no font dialog";
    }

};

} // namespace nd_test
