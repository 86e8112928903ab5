#pragma once

// The desk on the real Linux backend for the desk_linux tests: a Desk over a LinuxBackend on the
// virtual desktop (scripts/test-desktop), calls of its verbs as the daemon makes them, apps started
// and stopped by the test, and fresh reads to check every effect against the app itself.

#include "linux/tool_test_support.h"
#include "tools/png_decode.h"

#include "backend/linux/linux_backend.h"
#include "core/encode/base64.h"
#include "desk/desk.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

namespace nd_test {

using namespace std::chrono_literals;

struct Reply {
    bool ok = false;
    nlohmann::json result;
    std::string error;
    std::optional<std::int64_t> typed;
    std::optional<std::string> png_b64;
};

class DeskLinuxFixture : public ::testing::Test {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_DESKTOP();
        auto b = nd_linux::LinuxBackend::open();
        ASSERT_TRUE(b.ok()) << b.error().text();
        m_backend = std::move(b).value();
        if (!m_backend->input())
            GTEST_SKIP() << "this X server lacks XTEST";
        m_desk = std::make_unique<nd_desk::Desk>(*m_backend, nd_desk::DeskConfig{});
    }

    void TearDown() override { m_apps.clear(); }

    // The desk again, with this config (its input mode, its allowlist).
    void use_config(nd_desk::DeskConfig config) { m_desk = std::make_unique<nd_desk::Desk>(*m_backend, std::move(config)); }

    Reply call(std::string_view verb, const nlohmann::json& args = nlohmann::json::object())
    {
        const auto* def = nd_desk::find_verb("desk_" + std::string(verb));
        EXPECT_NE(def, nullptr) << verb;
        if (!def)
            return {};
        Reply r;
        nd_desk::CallScope scope{"test", nd_desk::SafetyStopToken(m_desk->safety_stop(), nullptr)};
        auto out = nd_desk::call_verb(*m_desk, *def, scope, args);
        if (!out) {
            r.error = nd_core::error_name(out.error().code);
            r.error += ": " + out.error().message;
            r.typed = out.error().typed_characters;
            return r;
        }
        r.ok = true;
        r.result = out->result;
        r.png_b64 = out->png_b64;
        return r;
    }

    // Starts an app and waits for its window (by pid) to read with at least `min_elements` nodes.
    nd_core::WindowInfo start(std::vector<std::string> argv, std::size_t min_elements)
    {
        m_apps.push_back(std::make_unique<nd_test::OwnedApp>(std::move(argv)));
        auto& app = *m_apps.back();
        EXPECT_GT(app.pid(), 0) << app.error();
        nd_core::WindowInfo found;
        const bool ok = nd_test::wait_until(
            [&] {
                auto all = m_desk->all_windows();
                if (!all)
                    return false;
                for (const auto& w : *all)
                    if (app.owns(static_cast<pid_t>(w.pid))) {
                        auto snap = m_desk->read(w);
                        if (snap && (*snap)->elements.size() >= min_elements) {
                            found = w;
                            return true;
                        }
                    }
                return false;
            },
            30s);
        EXPECT_TRUE(ok) << "the window of " << app.pid() << " never read";
        if (ok)
            raise(found);
        return found;
    }

    void raise(const nd_core::WindowInfo& w)
    {
        {
            auto lock = m_desk->lock_backend();
            auto raised = m_backend->input()->raise_window(w);
            ASSERT_TRUE(raised) << raised.error().text();
        }
        std::this_thread::sleep_for(200ms);
    }

    nd_core::SnapshotPtr read(const nd_core::WindowInfo& w)
    {
        auto snap = m_desk->read(w);
        EXPECT_TRUE(snap) << snap.error().text();
        return snap ? *snap : nullptr;
    }

    // The first row matching; -1 when none.
    static std::int32_t find(const nd_core::Snapshot& s, std::string_view role, std::string_view name = {},
        std::uint32_t states = nd_core::STATE_SHOWING | nd_core::STATE_ENABLED)
    {
        for (std::int32_t i = 0; i < s.size(); ++i) {
            const auto& e = s.elements[static_cast<std::size_t>(i)];
            if (e.role == role && (name.empty() || e.name == name) && (e.states & states) == states)
                return i;
        }
        return -1;
    }
    static std::int32_t find_key(const nd_core::Snapshot& s, const std::string& key)
    {
        for (std::int32_t i = 0; i < s.size(); ++i)
            if (s.elements[static_cast<std::size_t>(i)].key == key)
                return i;
        return -1;
    }
    static std::string id(const nd_core::Snapshot& s, std::int32_t row) { return nd_core::format_token(s.id, row); }

    // The element with `key` in a fresh read, framed.
    nd_core::Element fresh(const nd_core::WindowInfo& w, const std::string& key)
    {
        auto snap = read(w);
        if (!snap)
            return {};
        const auto row = find_key(*snap, key);
        EXPECT_GE(row, 0) << "the node is gone";
        if (row < 0)
            return {};
        auto elements = snap->elements;
        auto lock = m_desk->lock_backend();
        auto framed = m_backend->trees()->read_frames(snap->window, elements, {row}, 3s);
        EXPECT_TRUE(framed);
        return elements[static_cast<std::size_t>(row)];
    }

    // Waits until `accept` holds for the element with `key`, read afresh.
    bool wait_for(const nd_core::WindowInfo& w, const std::string& key, const std::function<bool(const nd_core::Element&)>& accept)
    {
        return nd_test::wait_until([&] { return accept(fresh(w, key)); }, 3s);
    }

    std::string value_of(const nd_core::WindowInfo& w, const nd_core::Element& e)
    {
        auto lock = m_desk->lock_backend();
        auto v = m_backend->actuator()->read_value(w, e);
        return v ? *v : std::string("<unreadable>");
    }

    static double number(const std::string& s)
    {
        try {
            return std::stod(s);
        } catch (...) {
            return -1e300;
        }
    }

    static nd_test::Pixels decode(const Reply& r)
    {
        nd_test::Pixels px;
        EXPECT_TRUE(r.png_b64.has_value());
        std::string png;
        EXPECT_TRUE(nd_core::base64_decode(r.png_b64.value_or(""), png));
        EXPECT_TRUE(nd_test::decode_png(png, px));
        return px;
    }

    // The first showing, enabled horizontal slider of the window.
    static std::int32_t slider(const nd_core::Snapshot& s, const std::vector<nd_core::Element>& framed)
    {
        for (std::int32_t i = 0; i < s.size(); ++i) {
            const auto& e = framed[static_cast<std::size_t>(i)];
            if (e.role == "slider" && e.is(nd_core::STATE_SHOWING) && e.is(nd_core::STATE_ENABLED) && e.has_frame &&
                e.frame.w > 2 * e.frame.h)
                return i;
        }
        return -1;
    }

    std::vector<nd_core::Element> framed_all(const nd_core::Snapshot& s)
    {
        auto elements = s.elements;
        std::vector<std::int32_t> rows;
        for (std::int32_t i = 0; i < s.size(); ++i)
            rows.push_back(i);
        auto lock = m_desk->lock_backend();
        auto framed = m_backend->trees()->read_frames(s.window, elements, rows, 3s);
        EXPECT_TRUE(framed);
        return elements;
    }

    std::unique_ptr<nd_linux::LinuxBackend> m_backend;
    std::unique_ptr<nd_desk::Desk> m_desk;
    std::vector<std::unique_ptr<nd_test::OwnedApp>> m_apps;
};

} // namespace nd_test
