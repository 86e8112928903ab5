#pragma once

// The fixture of the tests that compare two readers' reads of one window, element for element: a
// reader with warm reads and one without (warm_read_test.cpp), a read through a page's outline and
// a walk of it (outline_read_test.cpp). Real apps on the test desktop.

#include "browser_acts.h"

#include "backend/linux/atspi/atspi_tree_reader.h"
#include "backend/linux/x11/x11_paint_watch.h"
#include "x11_test_support.h"

#include <cstdio>
#include <string>

namespace nd_test {


// A whole read as the engine asks it, with a deadline for a loaded test desktop.
inline const nd_core::ReadLimits LIMITS{5000, 200, std::chrono::seconds(10), nd_core::FrameMode::deferred};

// The first difference between two reads, or "" when they are equal.
inline std::string difference(const nd_core::RawTree& warm, const nd_core::RawTree& cold)
{
    if (warm.elements.size() != cold.elements.size()) {
        // Where they part: the first row whose object differs, with its parent.
        std::string sizes = "sizes " + std::to_string(warm.elements.size()) + " and " + std::to_string(cold.elements.size());
        const auto n = std::min(warm.elements.size(), cold.elements.size());
        for (std::size_t i = 0; i < n; ++i) {
            const auto& a = warm.elements[i];
            const auto& b = cold.elements[i];
            if (a.key == b.key && a.parent == b.parent)
                continue;
            auto row = [](const nd_core::RawTree& t, std::size_t at) {
                const auto& e = t.elements[at];
                const auto up = static_cast<std::size_t>(e.parent);
                const std::string parent = e.parent >= 0 && up < t.elements.size()
                                               ? t.elements[up].role + " \"" + t.elements[up].name + "\""
                                               : "none";
                return e.role + " \"" + e.name + "\" in " + parent;
            };
            return sizes + "; from row " + std::to_string(i) + ": warm " + row(warm, i) + ", cold " + row(cold, i);
        }
        return sizes + "; equal up to the shorter's end";
    }
    if (warm.truncated != cold.truncated)
        return "truncated";
    for (std::size_t i = 0; i < warm.elements.size(); ++i) {
        const auto& a = warm.elements[i];
        const auto& b = cold.elements[i];
        auto at = [&](const char* what) {
            return "row " + std::to_string(i) + " (" + b.role + " \"" + b.name + "\"): " + what + " differs (warm \"" +
                   a.name + "\" " + a.role + ")";
        };
        if (a.key != b.key || a.parent != b.parent || a.role != b.role)
            return at("key, parent or role");
        if (a.name != b.name || a.description != b.description)
            return at("name or description");
        if (a.value != b.value)
            return at("value");
        if (a.states != b.states)
            return at(("states (warm " + std::to_string(a.states) + ", cold " + std::to_string(b.states) + ")").c_str());
        if (a.actions != b.actions)
            return at("actions");
        if (a.has_frame != b.has_frame || (a.has_frame && (a.frame.x != b.frame.x || a.frame.y != b.frame.y ||
                                                              a.frame.w != b.frame.w || a.frame.h != b.frame.h)))
            return at("frame");
    }
    return "";
}

class WarmReads : public nd_test::BrowserActs {
protected:
    void SetUp() override
    {
        nd_test::BrowserActs::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        auto bus = nd_linux::AtspiBus::open();
        ASSERT_TRUE(bus) << bus.error().text();
        m_bus = std::move(bus).value();
        m_warm = std::make_unique<nd_linux::AtspiTreeReader>(*m_bus);
        // As the backend's reader: frames kept where nothing was drawn, so that every warm read
        // of these tests is held to a cold one with it.
        auto watch = nd_linux::X11PaintWatch::open("");
        ASSERT_TRUE(watch) << "no DAMAGE on the test desktop";
        m_warm->warm().set_paint_watch(std::move(watch));
        m_cold = std::make_unique<nd_linux::AtspiTreeReader>(*m_bus);
        m_cold->warm().set_enabled(false);
    }

    void TearDown() override
    {
        m_warm.reset();
        m_cold.reset();
        nd_test::BrowserActs::TearDown();
    }

    void open_page(const char* page, int min_elements)
    {
        open_chromium(page, min_elements, "1200,900");
        find_window();
    }

    void open_app(std::vector<std::string> argv, const std::string& name, int min_elements)
    {
        m_app = std::make_unique<OwnedApp>(std::move(argv));
        m_window = wait_for_window(*m_app, name, min_elements, std::chrono::seconds(30));
        find_window();
    }

    // The window as the backend lists it; then the warm reader's first read, which opens its event
    // connection: apps take a moment to learn of its listeners, and until then no read is warm.
    void find_window()
    {
        ASSERT_FALSE(m_window.is_null());
        auto listed = listed_window();
        ASSERT_TRUE(listed) << listed.error().text();
        m_info = *listed;
        ASSERT_TRUE(m_warm->read_window(m_info, m_limits));
        std::this_thread::sleep_for(nd_linux::WarmTrees::LISTENER_SETTLE + std::chrono::milliseconds(100));
    }

    // A read of the whole window as a view returns it: with the frames of its showing rows (a cold
    // read defers them; a warm one has read them already).
    nd_core::Result<nd_core::RawTree> read(nd_linux::AtspiTreeReader& reader)
    {
        auto tree = TRY(reader.read_window(m_info, m_limits));
        std::vector<std::int32_t> rows(tree.elements.size());
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i] = static_cast<std::int32_t>(i);
        TRY_VOID(reader.read_frames(m_info, tree.elements, rows, m_limits.deadline, false));
        return tree;
    }

    // Reads the window warm and cold until both agree or the page keeps changing; counts whether
    // the warm one was answered warm.
    void expect_warm_equals_cold(const std::string& step)
    {
        for (int attempt = 0; attempt < 3; ++attempt) {
            auto warm = read(*m_warm);
            ASSERT_TRUE(warm) << step << ": " << warm.error().message;
            m_warm_answers += m_warm->last_read().warm;
            ++m_reads;
            auto cold = read(*m_cold);
            ASSERT_TRUE(cold) << step << ": " << cold.error().message;
            const auto diff = difference(*warm, *cold);
            if (diff.empty())
                return;
            // The page may have changed between the two reads: then a warm read now must equal a
            // cold read now. Only a difference that stays while the page holds still is a fault.
            auto again = read(*m_cold);
            ASSERT_TRUE(again);
            if (difference(*cold, *again).empty()) {
                auto warm_again = read(*m_warm);
                ASSERT_TRUE(warm_again);
                const auto still = difference(*warm_again, *again);
                if (still.empty())
                    return;
                ADD_FAILURE() << step << ": warm read differs from cold: " << still << " (last decline: "
                              << m_warm->warm().stats().last_decline << ")";
                return;
            }
        }
        ADD_FAILURE() << step << ": the window never held still";
    }

    // A page the app's item cache lacks (it was loaded after the cache was made, as a page the
    // test desktop opens is) is read through its outline (Collection.GetTree, atspi_outline.h):
    // the same tree as a read that walks it object by object, element for element, in fewer calls.
    void expect_outline_equals_walk(const std::string& page)
    {
        nd_linux::AtspiTreeReader walked(*m_bus);
        walked.warm().set_enabled(false);
        walked.set_outlines(false);
        std::string diff = "never read";
        for (int attempt = 0; attempt < 3 && !diff.empty(); ++attempt) {
            auto outlined = read(*m_cold);
            ASSERT_TRUE(outlined) << page << ": " << outlined.error().message;
            const auto through_outline = m_cold->last_read();
            auto walk = read(walked);
            ASSERT_TRUE(walk) << page << ": " << walk.error().message;
            EXPECT_GE(through_outline.outlined, walk->elements.size() * 9 / 10) << page << ": the page was not outlined";
            EXPECT_EQ(walked.last_read().outlined, 0u);
            EXPECT_LT(through_outline.calls, walked.last_read().calls) << page;
            // Its showing rows' frames came with the outline: none is left for the views to ask.
            EXPECT_EQ(through_outline.frames_left, 0u) << page;
            EXPECT_FALSE(outlined->frames_deferred) << page;
            EXPECT_GT(walked.last_read().frames_left, 0u) << page << ": the walk defers its frames";
            std::printf("%s: %zu elements, %zu calls through its outline of %zu objects, %zu walking it\n", page.c_str(),
                        walk->elements.size(), through_outline.calls, through_outline.outlined, walked.last_read().calls);
            // A page may change between two reads (a late image): only a difference that stays fails.
            diff = difference(*outlined, *walk);
        }
        EXPECT_EQ(diff, "") << page << ": the read through the outline differs from the walk";
    }

    json fresh_rows() { return read_all(m_window); }

    // Clicks (headless, through the driver) the last enabled check box that shows.
    void click_a_showing_check_box()
    {
        auto rows = fresh_rows();
        json target;
        for (const auto& row : rows["elements"])
            if (row["role"] == "check_box" && has_state(row, "enabled") && has_state(row, "showing"))
                target = row;
        ASSERT_FALSE(target.is_null());
        auto r = call("click", {{"element_token", target["element_token"]}});
        ASSERT_FALSE(r.is_error) << r.text;
    }

    std::unique_ptr<nd_linux::AtspiBus> m_bus;
    std::unique_ptr<nd_linux::AtspiTreeReader> m_warm, m_cold;
    nd_core::WindowInfo m_info;
    nd_core::ReadLimits m_limits = LIMITS;
    int m_warm_answers = 0, m_reads = 0;
};

} // namespace nd_test
