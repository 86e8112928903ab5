// Reads gtk3-widget-factory through AT-SPI on the virtual desktop and checks the tree against
// what the app shows and what pyatspi sees.

#include "atspi_test_app.h"

#include "backend/linux/atspi/atspi_message.h"
#include "core/model/policy.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>

namespace {

using namespace nd_test;

class AtspiReadTest : public WidgetFactoryTest {};

TEST_F(AtspiReadTest, reads_the_whole_window_with_a_frame_root)
{
    const auto& els = m_tree.elements;
    EXPECT_GT(els.size(), 200u);
    EXPECT_FALSE(m_tree.truncated);
    EXPECT_EQ(els[0].role, "frame");
    EXPECT_EQ(els[0].parent, -1);
    EXPECT_TRUE(els[0].has_frame);
    for (std::size_t i = 1; i < els.size(); ++i) {
        ASSERT_GE(els[i].parent, 0);
        ASSERT_LT(els[i].parent, static_cast<std::int32_t>(i)) << "not preorder at " << i;
        EXPECT_EQ(els[i].depth, els[static_cast<std::size_t>(els[i].parent)].depth + 1);
    }
    std::set<std::string> roles;
    for (const auto& e : els)
        roles.insert(e.role);
    for (const char* role : {"push_button", "check_box", "radio_button", "toggle_button", "page_tab_list", "page_tab",
                             "text", "slider", "spin_button", "combo_box", "menu_item", "label"})
        EXPECT_TRUE(roles.count(role)) << role;
    EXPECT_FALSE(roles.count("invalid"));
}

TEST_F(AtspiReadTest, keys_name_bus_and_path)
{
    std::set<std::string> keys;
    for (const auto& e : m_tree.elements) {
        auto ref = nd_linux::parse_key(e.key);
        ASSERT_TRUE(ref) << e.key;
        EXPECT_EQ(ref->bus[0], ':');
        EXPECT_EQ(ref->path.rfind("/org/a11y/atspi/accessible/", 0), 0u);
        EXPECT_TRUE(keys.insert(e.key).second) << "duplicate key " << e.key;
    }
}

TEST_F(AtspiReadTest, matches_a_pyatspi_walk_of_the_same_window)
{
    // pyatspi (libatspi, one call per property) walks the same frame. Every element is written as
    // its path of role:name pairs from the root; the sorted lists must be equal. Sibling order is
    // left out on purpose: the cache orders children by index in parent, GetChildren by the
    // toolkit's list, and GTK3's header bar packs its end children in reverse in the latter.
    const char* script =
        "import pyatspi,sys\n"
        "pid=int(sys.argv[1])\n"
        "d=pyatspi.Registry.getDesktop(0)\n"
        "app=[a for a in d if a is not None and a.get_process_id()==pid][0]\n"
        "fr=[f for f in app if f.getState().contains(pyatspi.STATE_SHOWING)][0]\n"
        "def w(a,path):\n"
        "  p=path+'/'+a.getRoleName().replace(' ','_')+':'+a.name.replace('\\n',' ')\n"
        "  print(p)\n"
        "  for c in a:\n"
        "    if c is not None: w(c,p)\n"
        "w(fr,'')\n";
    if (::access("/usr/bin/python3", X_OK) != 0)
        GTEST_SKIP() << "no /usr/bin/python3 to compare with";
    std::string path = testing::TempDir() + "nish_pyatspi_walk_" + std::to_string(::getpid()) + ".py";
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(script, f);
    std::fclose(f);
    std::string out = command_output("/usr/bin/python3 " + path + " " + std::to_string(m_app->pid()) + " 2>/dev/null");
    std::remove(path.c_str());
    if (out.empty())
        GTEST_SKIP() << "pyatspi is not available";
    std::vector<std::string> theirs;
    for (std::size_t start = 0, end; start < out.size(); start = end + 1) {
        end = out.find('\n', start);
        if (end == std::string::npos)
            end = out.size();
        theirs.push_back(out.substr(start, end - start));
    }

    auto tree = reread();
    std::vector<std::string> paths, ours;
    for (const auto& e : tree.elements) {
        std::string name = e.name;
        std::replace(name.begin(), name.end(), '\n', ' ');
        std::string parent = e.parent < 0 ? "" : paths[static_cast<std::size_t>(e.parent)];
        paths.push_back(parent + "/" + e.role + ":" + name);
    }
    ours = paths;
    std::sort(ours.begin(), ours.end());
    std::sort(theirs.begin(), theirs.end());
    EXPECT_GT(ours.size(), 200u);
    EXPECT_EQ(ours, theirs);
}

TEST_F(AtspiReadTest, push_buttons_click_and_frames_lie_inside_the_window)
{
    int buttons = 0;
    for (const auto& e : m_tree.elements)
        if (e.role == "push_button") {
            ++buttons;
            // GTK3 says "click", its model buttons "Click".
            bool click = std::any_of(e.actions.begin(), e.actions.end(),
                                     [](const std::string& a) { return nd_core::to_lower_ascii(a) == "click"; });
            EXPECT_TRUE(click) << e.name;
        }
    EXPECT_GT(buttons, 10);

    const nd_core::Frame& root = m_tree.elements[0].frame;
    int framed = 0;
    for (const auto& e : m_tree.elements) {
        if (!e.has_frame)
            continue;
        EXPECT_TRUE(e.is(nd_core::STATE_SHOWING)) << "frames are read for showing elements only";
        ++framed;
        EXPECT_TRUE(root.contains(e.frame.x + e.frame.w / 2, e.frame.y + e.frame.h / 2))
            << e.role << " at " << e.frame.x << "," << e.frame.y;
    }
    EXPECT_GT(framed, 100);
}

TEST_F(AtspiReadTest, values_states_and_secure_fields)
{
    int entry = find(m_tree, "text", "", nd_core::STATE_EDITABLE);
    ASSERT_GE(entry, 0);
    int spin = find(m_tree, "spin_button");
    ASSERT_GE(spin, 0);
    EXPECT_EQ(m_tree.elements[static_cast<std::size_t>(spin)].value, "50");
    bool entry_text = false;
    for (const auto& e : m_tree.elements)
        entry_text = entry_text || (e.role == "text" && e.value == "entry");
    EXPECT_TRUE(entry_text);
    int checked = find(m_tree, "check_box", "checkbutton", nd_core::STATE_CHECKED);
    EXPECT_GE(checked, 0);
    for (const auto& e : m_tree.elements) {
        if (e.role == "check_box" || e.role == "toggle_button") {
            EXPECT_TRUE(e.is(nd_core::STATE_CHECKABLE));
        }
        if (e.secure()) {
            EXPECT_TRUE(e.value.empty());
        }
    }
    int focusable = 0, enabled = 0, showing = 0;
    for (const auto& e : m_tree.elements) {
        focusable += e.is(nd_core::STATE_FOCUSABLE);
        enabled += e.is(nd_core::STATE_ENABLED);
        showing += e.is(nd_core::STATE_SHOWING);
    }
    EXPECT_GT(focusable, 20);
    EXPECT_GT(enabled, 100);
    EXPECT_GT(showing, 100);
    EXPECT_LT(showing, static_cast<int>(m_tree.elements.size())); // pages 2 and 3 are hidden
}

TEST_F(AtspiReadTest, limits_cut_and_set_truncated)
{
    nd_core::ReadLimits few;
    few.max_elements = 40;
    auto cut = m_reader->read_window(m_window, few);
    ASSERT_TRUE(cut) << cut.error().text();
    EXPECT_EQ(cut->elements.size(), 40u);
    EXPECT_TRUE(cut->truncated);
    EXPECT_EQ(cut->elements[0].role, "frame");

    nd_core::ReadLimits shallow;
    shallow.max_depth = 2;
    auto flat = m_reader->read_window(m_window, shallow);
    ASSERT_TRUE(flat) << flat.error().text();
    EXPECT_TRUE(flat->truncated);
    EXPECT_LT(flat->elements.size(), m_tree.elements.size());
    for (const auto& e : flat->elements)
        EXPECT_LE(e.depth, 2);

    nd_core::ReadLimits bad;
    bad.max_elements = 0;
    auto refused = m_reader->read_window(m_window, bad);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, nd_core::ErrorCode::invalid_arguments);
}

TEST_F(AtspiReadTest, a_cut_read_keeps_the_first_elements_breadth_first_whatever_order_replies_come_in)
{
    // The whole window (m_tree), level by level: each level in its parents' order, each parent's
    // children in theirs. A read cut at N holds exactly the first N of that order, in preorder,
    // though its replies come back over several connections in any order (AtspiBus::route).
    const auto& all = m_tree.elements;
    ASSERT_FALSE(m_tree.truncated);
    std::vector<std::vector<std::int32_t>> children(all.size());
    for (std::size_t i = 1; i < all.size(); ++i)
        children[static_cast<std::size_t>(all[i].parent)].push_back(static_cast<std::int32_t>(i));
    std::vector<std::string> breadth_first{all[0].key};
    for (std::vector<std::int32_t> level{0}, next; !level.empty(); level.swap(next)) {
        next.clear();
        for (auto at : level)
            for (auto child : children[static_cast<std::size_t>(at)]) {
                breadth_first.push_back(all[static_cast<std::size_t>(child)].key);
                next.push_back(child);
            }
    }
    m_reader->warm().set_enabled(false);
    for (std::size_t n : {25u, 60u, 150u}) {
        ASSERT_LT(n, all.size());
        nd_core::ReadLimits limits;
        limits.max_elements = static_cast<std::int32_t>(n);
        for (int again = 0; again < 3; ++again) {
            auto cut = m_reader->read_window(m_window, limits);
            ASSERT_TRUE(cut) << cut.error().text();
            EXPECT_TRUE(cut->truncated);
            std::vector<std::string> keys;
            for (const auto& e : cut->elements)
                keys.push_back(e.key);
            std::vector<std::string> expected(breadth_first.begin(), breadth_first.begin() + static_cast<std::ptrdiff_t>(n));
            std::sort(keys.begin(), keys.end());
            std::sort(expected.begin(), expected.end());
            EXPECT_EQ(keys, expected) << "cut at " << n;
        }
    }
}

TEST_F(AtspiReadTest, finds_the_frame_by_its_extents_when_the_title_differs)
{
    nd_core::WindowInfo by_frame = m_window;
    by_frame.title = "some other title";
    by_frame.frame = m_tree.elements[0].frame;
    auto tree = m_reader->read_window(by_frame, nd_core::ReadLimits{});
    ASSERT_TRUE(tree) << tree.error().text();
    EXPECT_EQ(tree->elements[0].key, m_tree.elements[0].key);
}

TEST_F(AtspiReadTest, a_pid_without_an_app_is_window_target_not_found)
{
    nd_core::WindowInfo nobody = m_window;
    nobody.pid = 999999;
    auto tree = m_reader->read_window(nobody, nd_core::ReadLimits{});
    ASSERT_FALSE(tree);
    EXPECT_EQ(tree.error().code, nd_core::ErrorCode::window_target_not_found);
}

TEST_F(AtspiReadTest, reads_fast)
{
    // The design's target is under 20 ms; a loaded 2-core CI machine gets head room here, and the
    // time of each read is printed for the record.
    double best = 1e9;
    for (int i = 0; i < 5; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        auto tree = m_reader->read_window(m_window, nd_core::ReadLimits{});
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_TRUE(tree) << tree.error().text();
        best = std::min(best, ms);
        std::printf("read %zu elements in %.2f ms (%zu calls, %zu from the cache)\n", tree->elements.size(), ms,
                    m_reader->last_read().calls, m_reader->last_read().from_cache);
    }
    EXPECT_LT(best, 100.0);
}

} // namespace

namespace {

// Deferred frames: the read leaves out all but the root's (and secure fields'), read_frames fills
// the rows asked for with the frames a read of everything gives, in fewer calls.
TEST_F(AtspiReadTest, DeferredFramesAreFilledForTheRowsAskedOnly)
{
    nd_core::ReadLimits all;
    auto whole = m_reader->read_window(m_window, all);
    ASSERT_TRUE(whole) << whole.error().text();
    const auto calls_all = m_reader->last_read().calls;

    nd_core::ReadLimits deferred;
    deferred.frames = nd_core::FrameMode::deferred;
    auto lean = m_reader->read_window(m_window, deferred);
    ASSERT_TRUE(lean) << lean.error().text();
    ASSERT_EQ(lean->elements.size(), whole->elements.size());
    EXPECT_TRUE(lean->frames_deferred);
    EXPECT_LT(m_reader->last_read().calls, calls_all);
    EXPECT_TRUE(lean->elements[0].has_frame);
    std::vector<std::int32_t> rows;
    int framed_in_whole = 0;
    for (std::size_t i = 1; i < lean->elements.size(); ++i) {
        if (!lean->elements[i].secure()) {
            EXPECT_FALSE(lean->elements[i].has_frame) << i;
        }
        if (i % 2 == 0)
            rows.push_back(static_cast<std::int32_t>(i));
        framed_in_whole += whole->elements[i].has_frame;
    }
    ASSERT_GT(framed_in_whole, 50);
    ASSERT_TRUE(m_reader->read_frames(m_window, lean->elements, rows, std::chrono::seconds(3)));
    for (std::size_t i = 1; i < lean->elements.size(); ++i) {
        const auto& got = lean->elements[i];
        const auto& want = whole->elements[i];
        if (i % 2 != 0) {
            EXPECT_EQ(got.has_frame, got.secure() && want.has_frame) << i;
            continue;
        }
        EXPECT_EQ(got.has_frame, want.has_frame) << i << " " << got.role;
        if (got.has_frame && want.has_frame) {
            EXPECT_EQ(got.frame, want.frame) << i;
        }
    }
    // Rows out of range and a vanished key are skipped, not errors.
    auto keep = lean->elements;
    keep[2].key = "bogus";
    keep[2].has_frame = false;
    EXPECT_TRUE(m_reader->read_frames(m_window, keep, {-1, 2, 999999}, std::chrono::seconds(3)));
    EXPECT_FALSE(keep[2].has_frame);
}

} // namespace
