// The desk's acting and picture verbs on the real Linux backend, on the virtual desktop
// (scripts/test-desktop) with real apps: gtk3-widget-factory and zenity. Every effect is read back
// from the app through a fresh read, never taken from the verb's word: press and act toggle a check
// box and switch a notebook tab; key and type edit an entry and type refuses a focused password
// field; click toggles a check box at a point; scroll and drag move a slider; shot returns PNGs of
// the right size (screen, rectangle, window with crop and origin, a file), with a password field
// black; still answers on a quiet screen and counts a spinner as volatile; a safety stop ends a
// long type or still at once; and no input is sent while another driver holds the takeover.

#include "desk_linux/desk_fixture.h"
#include "linux/tool_test_support.h"
#include "linux/x11_test_support.h"
#include "tools/png_decode.h"

#include "backend/linux/linux_backend.h"
#include "backend/linux/x11/x11_display_lock.h"
#include "core/encode/base64.h"
#include "desk/desk.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>
#include <unistd.h>

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using nd_test::OwnedApp;

using Reply = nd_test::Reply;

class DeskAct : public nd_test::DeskLinuxFixture {};

constexpr std::size_t FACTORY_ELEMENTS = 200;

TEST_F(DeskAct, PressTogglesACheckBoxAndSelectsANotebookTab)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(w);
    ASSERT_TRUE(snap);
    const auto box = find(*snap, "check_box", "checkbutton");
    ASSERT_GE(box, 0);
    const auto key = snap->elements[static_cast<std::size_t>(box)].key;
    const bool was = snap->elements[static_cast<std::size_t>(box)].is(nd_core::STATE_CHECKED);
    auto pressed = call("press", {{"id", id(*snap, box)}});
    ASSERT_TRUE(pressed.ok) << pressed.error;
    EXPECT_EQ(pressed.result["pressed"], id(*snap, box));
    EXPECT_EQ(pressed.result["how"], "click") << pressed.result.dump();
    EXPECT_TRUE(wait_for(w, key, [&](const nd_core::Element& e) { return e.is(nd_core::STATE_CHECKED) != was; }))
        << "the check box did not toggle";

    snap = read(w);
    std::int32_t tab = -1;
    for (std::int32_t i = 0; i < snap->size() && tab < 0; ++i) {
        const auto& e = snap->elements[static_cast<std::size_t>(i)];
        if (e.role == "page_tab" && e.is(nd_core::STATE_SHOWING) && !e.is(nd_core::STATE_SELECTED))
            tab = i;
    }
    ASSERT_GE(tab, 0) << "no unselected tab";
    const auto tab_key = snap->elements[static_cast<std::size_t>(tab)].key;
    auto selected = call("press", {{"id", id(*snap, tab)}});
    ASSERT_TRUE(selected.ok) << selected.error;
    EXPECT_EQ(selected.result["how"], "selected");
    EXPECT_TRUE(wait_for(w, tab_key, [](const nd_core::Element& e) { return e.is(nd_core::STATE_SELECTED); }))
        << "the tab was not selected";
}

TEST_F(DeskAct, PressRunsAMenuEntrysActionWhileItsMenuIsShut)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(w);
    // A combo box's popup: combo_box > menu > menu_item, the menu shut (not showing).
    std::int32_t item = -1, combo = -1, menu = -1;
    for (std::int32_t i = 0; i < snap->size() && item < 0; ++i) {
        const auto& e = snap->elements[static_cast<std::size_t>(i)];
        if (e.role != "menu_item" || e.parent < 0)
            continue;
        const auto& parent = snap->elements[static_cast<std::size_t>(e.parent)];
        if (parent.role != "menu" || parent.is(nd_core::STATE_SHOWING) || parent.parent < 0)
            continue;
        const auto& owner = snap->elements[static_cast<std::size_t>(parent.parent)];
        if (owner.role == "combo_box" && owner.is(nd_core::STATE_SHOWING) && owner.name != e.name) {
            item = i;
            menu = e.parent;
            combo = parent.parent;
        }
    }
    ASSERT_GE(item, 0) << "no combo box with a shut menu";
    const auto name = snap->elements[static_cast<std::size_t>(item)].name;
    const auto combo_key = snap->elements[static_cast<std::size_t>(combo)].key;
    const auto menu_key = snap->elements[static_cast<std::size_t>(menu)].key;
    auto pressed = call("press", {{"id", id(*snap, item)}});
    ASSERT_TRUE(pressed.ok) << pressed.error;
    EXPECT_EQ(pressed.result["how"], "action");
    EXPECT_TRUE(wait_for(w, combo_key, [&](const nd_core::Element& e) { return e.name == name; }))
        << "the combo box does not show " << name;
    // The shut menu itself has no menu above it to open: a clear error, nothing clicked.
    snap = read(w);
    const auto menu_row = find_key(*snap, menu_key);
    ASSERT_GE(menu_row, 0);
    if (!snap->elements[static_cast<std::size_t>(menu_row)].is(nd_core::STATE_SHOWING)) {
        auto shut = call("press", {{"id", id(*snap, menu_row)}});
        EXPECT_FALSE(shut.ok);
        EXPECT_NE(shut.error.find("does not show"), std::string::npos) << shut.error;
    }
}

TEST_F(DeskAct, PressAndActRefuseStaleAndMalformedIds)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto bad = call("press", {{"id", "nonsense"}});
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.error.find("desk_snapshot"), std::string::npos) << bad.error;
    auto unknown = call("act", {{"id", "s999999:3"}, {"action", "click"}});
    EXPECT_FALSE(unknown.ok);
    EXPECT_NE(unknown.error.find("desk_snapshot"), std::string::npos) << unknown.error;
    auto wrong = call("act", {{"id", "s1:1"}, {"action", "explode"}});
    EXPECT_FALSE(wrong.ok);
    EXPECT_NE(wrong.error.find("action"), std::string::npos) << wrong.error;
}

TEST_F(DeskAct, ActSelectsATabRunsAnActionAndFocuses)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(w);
    ASSERT_TRUE(snap);
    std::int32_t tab = -1;
    for (std::int32_t i = 0; i < snap->size() && tab < 0; ++i) {
        const auto& e = snap->elements[static_cast<std::size_t>(i)];
        if (e.role == "page_tab" && e.is(nd_core::STATE_SHOWING) && !e.is(nd_core::STATE_SELECTED))
            tab = i;
    }
    ASSERT_GE(tab, 0);
    const auto tab_key = snap->elements[static_cast<std::size_t>(tab)].key;
    auto sel = call("act", {{"id", id(*snap, tab)}, {"action", "select"}});
    ASSERT_TRUE(sel.ok) << sel.error;
    EXPECT_TRUE(wait_for(w, tab_key, [](const nd_core::Element& e) { return e.is(nd_core::STATE_SELECTED); }));

    // The check box is on the first page: select it back by pressing its tab.
    snap = read(w);
    for (std::int32_t i = 0; i < snap->size(); ++i) {
        const auto& e = snap->elements[static_cast<std::size_t>(i)];
        if (e.role == "page_tab" && e.is(nd_core::STATE_SHOWING) && !e.is(nd_core::STATE_SELECTED) && e.key != tab_key &&
            e.parent == snap->elements[static_cast<std::size_t>(find_key(*snap, tab_key))].parent) {
            ASSERT_TRUE(call("act", {{"id", id(*snap, i)}, {"action", "select"}}).ok);
            break;
        }
    }
    std::int32_t box = -1;
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            snap = read(w);
            box = find(*snap, "check_box", "checkbutton");
            return box >= 0;
        },
        3s));
    const auto key = snap->elements[static_cast<std::size_t>(box)].key;
    const bool was = snap->elements[static_cast<std::size_t>(box)].is(nd_core::STATE_CHECKED);
    auto ran = call("act", {{"id", id(*snap, box)}, {"action", "action"}});
    ASSERT_TRUE(ran.ok) << ran.error;
    EXPECT_TRUE(wait_for(w, key, [&](const nd_core::Element& e) { return e.is(nd_core::STATE_CHECKED) != was; }));

    // focus: the entry takes the keyboard focus.
    snap = read(w);
    std::int32_t entry = -1;
    for (std::int32_t i = 0; i < snap->size() && entry < 0; ++i) {
        const auto& e = snap->elements[static_cast<std::size_t>(i)];
        if (e.role == "text" && e.value == "entry" && e.is(nd_core::STATE_EDITABLE) && e.is(nd_core::STATE_SHOWING) &&
            e.is(nd_core::STATE_ENABLED) &&
            !e.is(nd_core::STATE_FOCUSED))
            entry = i;
    }
    ASSERT_GE(entry, 0);
    const auto entry_key = snap->elements[static_cast<std::size_t>(entry)].key;
    auto focused = call("act", {{"id", id(*snap, entry)}, {"action", "focus"}});
    ASSERT_TRUE(focused.ok) << focused.error;
    EXPECT_TRUE(wait_for(w, entry_key, [](const nd_core::Element& e) { return e.is(nd_core::STATE_FOCUSED); }));
}

// A node's own action on a row's label selects the row, as the driver's click does: the label only
// shows (fixtures/apps/list_rows.py, a GTK3 list box), and its row is selected for it.
TEST_F(DeskAct, ActionOnARowsLabelSelectsTheRow)
{
    auto w = start({"/usr/bin/python3", std::string(NISH_SOURCE_DIR) + "/fixtures/apps/list_rows.py"}, 8);
    auto snap = read(w);
    ASSERT_TRUE(snap);
    const auto label = find(*snap, "label", "Kate");
    ASSERT_GE(label, 0);
    auto ran = call("act", {{"id", id(*snap, label)}, {"action", "action"}});
    ASSERT_TRUE(ran.ok) << ran.error;
    EXPECT_EQ(ran.result["ran"], "select") << ran.result.dump();
    EXPECT_TRUE(nd_test::wait_until(
        [&] {
            snap = read(w);
            return snap && find(*snap, "label", "Selected Kate") >= 0;
        },
        3s))
        << "the row was not selected";
}

TEST_F(DeskAct, KeyAndTypeEditTheFocusedEntry)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(w);
    std::int32_t entry = -1;
    for (std::int32_t i = 0; i < snap->size() && entry < 0; ++i) {
        const auto& e = snap->elements[static_cast<std::size_t>(i)];
        if (e.role == "text" && e.value == "entry" && e.is(nd_core::STATE_EDITABLE) && e.is(nd_core::STATE_SHOWING) &&
            e.is(nd_core::STATE_ENABLED))
            entry = i;
    }
    ASSERT_GE(entry, 0);
    const auto key = snap->elements[static_cast<std::size_t>(entry)].key;
    ASSERT_TRUE(call("act", {{"id", id(*snap, entry)}, {"action", "click"}}).ok);
    ASSERT_TRUE(wait_for(w, key, [](const nd_core::Element& e) { return e.is(nd_core::STATE_FOCUSED); }));
    // Select all and replace, so the caret's place does not matter.
    auto all = call("key", {{"keys", "ctrl+a"}});
    ASSERT_TRUE(all.ok) << all.error;
    auto typed = call("type", {{"text", "nish desk"}});
    ASSERT_TRUE(typed.ok) << typed.error;
    EXPECT_EQ(typed.result["typed"], 9);
    EXPECT_TRUE(wait_for(w, key, [&](const nd_core::Element& e) { return value_of(w, e) == "nish desk"; }))
        << value_of(w, fresh(w, key));
    auto back = call("key", {{"keys", "BackSpace"}, {"window", w.title}});
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_TRUE(wait_for(w, key, [&](const nd_core::Element& e) { return value_of(w, e) == "nish des"; }))
        << value_of(w, fresh(w, key));
    auto bad = call("key", {{"keys", "ctrl+nokey!"}});
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.error.find("nokey!"), std::string::npos) << bad.error;
}

TEST_F(DeskAct, TypeRefusesAFocusedPasswordField)
{
    auto w = start({"zenity", "--password", "--title", "Unlock"}, 3);
    auto snap = read(w);
    const auto pw = find(*snap, "password_text", {}, nd_core::STATE_SHOWING);
    ASSERT_GE(pw, 0);
    ASSERT_TRUE(nd_test::wait_until(
        [&] { return fresh(w, snap->elements[static_cast<std::size_t>(pw)].key).is(nd_core::STATE_FOCUSED); }, 3s))
        << "the password field never took the focus";
    auto typed = call("type", {{"text", "hunter2"}});
    EXPECT_FALSE(typed.ok);
    EXPECT_NE(typed.error.find("secure_field_refused"), std::string::npos) << typed.error;
    EXPECT_NE(typed.error.find("password"), std::string::npos) << typed.error;
    // A printable key or a paste is typing too.
    for (const char* keys : {"a", "ctrl+v"}) {
        auto key = call("key", {{"keys", keys}});
        EXPECT_FALSE(key.ok) << keys;
        EXPECT_NE(key.error.find("secure_field_refused"), std::string::npos) << key.error;
    }
}

TEST_F(DeskAct, TypeStopsWhenATabMovesTheFocusToAPasswordField)
{
    auto w = start({"zenity", "--forms", "--title", "Sign in", "--add-entry", "User", "--add-password", "Secret"}, 3);
    auto snap = read(w);
    std::int32_t user = -1;
    for (std::int32_t i = 0; i < snap->size() && user < 0; ++i) {
        const auto& e = snap->elements[static_cast<std::size_t>(i)];
        if (e.role == "text" && e.is(nd_core::STATE_EDITABLE) && e.is(nd_core::STATE_SHOWING) && !e.secure())
            user = i;
    }
    ASSERT_GE(user, 0) << "no user entry";
    ASSERT_GE(find(*snap, "password_text", {}, nd_core::STATE_SHOWING), 0) << "no password field";
    const auto key = snap->elements[static_cast<std::size_t>(user)].key;
    ASSERT_TRUE(call("act", {{"id", id(*snap, user)}, {"action", "focus"}}).ok);
    ASSERT_TRUE(wait_for(w, key, [](const nd_core::Element& e) { return e.is(nd_core::STATE_FOCUSED); }));
    auto typed = call("type", {{"text", "ada\thunter2"}});
    EXPECT_FALSE(typed.ok) << typed.result.dump();
    EXPECT_NE(typed.error.find("secure_field_refused"), std::string::npos) << typed.error;
    ASSERT_TRUE(typed.typed.has_value());
    EXPECT_EQ(*typed.typed, 4) << "the text after the Tab went on";
    EXPECT_EQ(value_of(w, fresh(w, key)), "ada");
}

TEST_F(DeskAct, ClickAtAPointTogglesACheckBox)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(w);
    const auto box = find(*snap, "check_box", "checkbutton");
    ASSERT_GE(box, 0);
    const auto key = snap->elements[static_cast<std::size_t>(box)].key;
    auto e = fresh(w, key);
    ASSERT_TRUE(e.has_frame);
    const bool was = e.is(nd_core::STATE_CHECKED);
    const int cx = e.frame.x + e.frame.w / 2, cy = e.frame.y + e.frame.h / 2;
    auto clicked = call("click", {{"x", cx}, {"y", cy}});
    ASSERT_TRUE(clicked.ok) << clicked.error;
    EXPECT_TRUE(wait_for(w, key, [&](const nd_core::Element& f) { return f.is(nd_core::STATE_CHECKED) != was; }));
    // With window: pixels of the window's shot image, whose origin is the window's frame.
    auto again = call("click", {{"x", cx - w.frame.x}, {"y", cy - w.frame.y}, {"window", w.title}});
    ASSERT_TRUE(again.ok) << again.error;
    EXPECT_EQ(again.result["clicked"], json::array({cx, cy}));
    EXPECT_TRUE(wait_for(w, key, [&](const nd_core::Element& f) { return f.is(nd_core::STATE_CHECKED) == was; }));
    // The middle button pastes: refused; a pixel outside the window's image: refused.
    auto middle = call("click", {{"x", cx}, {"y", cy}, {"button", "middle"}});
    EXPECT_FALSE(middle.ok);
    EXPECT_NE(middle.error.find("middle"), std::string::npos);
    auto outside = call("click", {{"x", w.frame.w + 5}, {"y", 1}, {"window", w.title}});
    EXPECT_FALSE(outside.ok);
    EXPECT_NE(outside.error.find("shot image"), std::string::npos) << outside.error;
}

// A popover may reach past its window's edge, on its app's own surface: act's click finds its row
// there (the window list would name whatever lies under the popover). GTK 4's print editor, made too
// short for its File menu.
TEST_F(DeskAct, ActClicksAPopoverRowPastItsWindowsEdge)
{
    auto w = start({"gtk4-print-editor"}, 10);
    ASSERT_EQ(nd_test::run_command({"xdotool", "windowsize", std::to_string(w.window_id), "360", "90"}), 0);
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            auto all = m_desk->all_windows();
            for (const auto& x : all ? *all : std::vector<nd_core::WindowInfo>{})
                if (x.window_id == w.window_id && x.frame.h < 150) {
                    w = x;
                    return true;
                }
            return false;
        },
        3s))
        << "the window kept its size";
    auto snap = read(w);
    ASSERT_TRUE(snap);
    const auto file = find(*snap, "menu_item", "File");
    ASSERT_GE(file, 0);
    auto opened = call("act", {{"id", id(*snap, file)}, {"action", "click"}});
    ASSERT_TRUE(opened.ok) << opened.error;
    std::int32_t setup = -1;
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            snap = read(w);
            setup = snap ? find(*snap, "menu_item", "Page Setup") : -1;
            return setup >= 0;
        },
        3s))
        << "the File popover did not open";
    const auto framed = framed_all(*snap);
    const auto& f = framed[static_cast<std::size_t>(setup)].frame;
    ASSERT_GT(f.y + f.h / 2, w.frame.y + w.frame.h) << "Page Setup lies inside the window";
    auto clicked = call("act", {{"id", id(*snap, setup)}, {"action", "click"}});
    ASSERT_TRUE(clicked.ok) << clicked.error;
    EXPECT_TRUE(nd_test::wait_until(
        [&] {
            auto all = m_desk->all_windows();
            for (const auto& x : all ? *all : std::vector<nd_core::WindowInfo>{})
                if (x.title == "Page Setup" && x.pid == w.pid)
                    return true;
            return false;
        },
        5s))
        << "the click on Page Setup did not open its dialog";
}

TEST_F(DeskAct, ScrollOverASliderTurnsIt)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(w);
    auto framed = framed_all(*snap);
    const auto s = slider(*snap, framed);
    ASSERT_GE(s, 0) << "no horizontal slider";
    const auto& e = framed[static_cast<std::size_t>(s)];
    const double before = number(value_of(w, e));
    auto up = call("scroll", {{"direction", "up"}, {"amount", 5}, {"x", e.frame.x + e.frame.w / 2}, {"y", e.frame.y + e.frame.h / 2}});
    ASSERT_TRUE(up.ok) << up.error;
    EXPECT_TRUE(wait_for(w, e.key, [&](const nd_core::Element& f) { return number(value_of(w, f)) != before; }))
        << "the slider stayed at " << before;
    auto half = call("scroll", {{"direction", "up"}, {"x", 10}});
    EXPECT_FALSE(half.ok);
    EXPECT_NE(half.error.find("y: required"), std::string::npos) << half.error;
}

TEST_F(DeskAct, DragPullsASliderRight)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(w);
    auto framed = framed_all(*snap);
    const auto s = slider(*snap, framed);
    ASSERT_GE(s, 0);
    const auto& e = framed[static_cast<std::size_t>(s)];
    const double before = number(value_of(w, e));
    const int y = e.frame.y + e.frame.h / 2;
    // From the trough's left part to past its right end, in the window's shot pixels.
    auto dragged = call("drag", {{"x", e.frame.x + e.frame.w / 4 - w.frame.x}, {"y", y - w.frame.y},
                                    {"to_x", e.frame.x + e.frame.w + 15 - w.frame.x}, {"to_y", y - w.frame.y}, {"window", w.title}});
    ASSERT_TRUE(dragged.ok) << dragged.error;
    EXPECT_TRUE(wait_for(w, e.key, [&](const nd_core::Element& f) { return number(value_of(w, f)) > before; }))
        << "the slider did not move right from " << before;
}

TEST_F(DeskAct, ShotReturnsPngsOfTheRightSize)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto screen = call("screen");
    ASSERT_TRUE(screen.ok) << screen.error;
    auto whole = call("shot");
    ASSERT_TRUE(whole.ok) << whole.error;
    auto px = decode(whole);
    EXPECT_EQ(px.width, screen.result["width"].get<int>());
    EXPECT_EQ(px.height, screen.result["height"].get<int>());
    EXPECT_EQ(whole.result["width"], px.width);

    auto rect = call("shot", {{"x", 10}, {"y", 20}, {"w", 300}, {"h", 100}});
    ASSERT_TRUE(rect.ok) << rect.error;
    px = decode(rect);
    EXPECT_EQ(px.width, 300);
    EXPECT_EQ(px.height, 100);
    auto off = call("shot", {{"x", 10}, {"y", 20}, {"w", 30000}, {"h", 100}});
    EXPECT_FALSE(off.ok);
    EXPECT_NE(off.error.find("name the window"), std::string::npos) << off.error;
    auto partial = call("shot", {{"x", 10}});
    EXPECT_FALSE(partial.ok);

    auto win = call("shot", {{"window", w.title}});
    ASSERT_TRUE(win.ok) << win.error;
    px = decode(win);
    EXPECT_EQ(px.width, w.frame.w);
    EXPECT_EQ(px.height, w.frame.h);
    EXPECT_EQ(win.result["origin"], json::array({0, 0}));
    const auto full = px;
    auto cropped = call("shot", {{"window", w.title}, {"x", 40}, {"y", 30}, {"w", 120}, {"h", 50}});
    ASSERT_TRUE(cropped.ok) << cropped.error;
    px = decode(cropped);
    EXPECT_EQ(px.width, 120);
    EXPECT_EQ(px.height, 50);
    EXPECT_EQ(cropped.result["origin"], json::array({40, 30}));

    std::string dir_template = (std::filesystem::temp_directory_path() / "desk-act-shot-XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir_template.data()), nullptr);
    const std::string path = std::string(dir_template) + "/shot.png";
    auto saved = call("shot", {{"x", 0}, {"y", 0}, {"w", 64}, {"h", 32}, {"path", path}});
    ASSERT_TRUE(saved.ok) << saved.error;
    EXPECT_EQ(saved.result["path"], path);
    std::ifstream file(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    nd_test::Pixels from_file;
    ASSERT_TRUE(nd_test::decode_png(bytes, from_file));
    EXPECT_EQ(from_file.width, 64);
    EXPECT_EQ(from_file.height, 32);
    std::remove(path.c_str());
    ::rmdir(dir_template.c_str());
    auto relative = call("shot", {{"path", "shot.png"}});
    EXPECT_FALSE(relative.ok);
    EXPECT_NE(relative.error.find("absolute"), std::string::npos) << relative.error;
}

TEST_F(DeskAct, APasswordFieldIsBlackInWindowAndScreenShots)
{
    auto w = start({"zenity", "--password", "--title", "Unlock"}, 3);
    auto snap = read(w);
    const auto pw = find(*snap, "password_text", {}, nd_core::STATE_SHOWING);
    ASSERT_GE(pw, 0);
    const auto f = fresh(w, snap->elements[static_cast<std::size_t>(pw)].key).frame;
    ASSERT_GT(f.w, 4);
    auto all_black = [&](const nd_test::Pixels& px, int x0, int y0) {
        int checked = 0;
        for (int y = y0; y < y0 + f.h; y += 2)
            for (int x = x0; x < x0 + f.w; x += 3) {
                if (x < 0 || y < 0 || x >= px.width || y >= px.height)
                    continue;
                const auto* p = px.at(x, y);
                if (p[0] || p[1] || p[2])
                    return false;
                ++checked;
            }
        return checked > 10;
    };
    auto win = call("shot", {{"window", "Unlock"}});
    ASSERT_TRUE(win.ok) << win.error;
    auto px = decode(win);
    EXPECT_TRUE(all_black(px, f.x - w.frame.x, f.y - w.frame.y)) << "the field shows in the window shot";
    // Something else in the window is not black: the blackout is the field's, not the whole picture's.
    EXPECT_FALSE(all_black(px, 0, 0) && all_black(px, px.width - f.w, px.height - f.h));

    auto screen = call("shot");
    ASSERT_TRUE(screen.ok) << screen.error;
    px = decode(screen);
    EXPECT_TRUE(all_black(px, f.x, f.y)) << "the field shows in the screen shot";
    EXPECT_GE(screen.result.value("secure_fields_blacked_out", 0), 1) << screen.result.dump();
}

TEST_F(DeskAct, AScreenShotBlacksOutWindowsOutsideTheAllowlist)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    // A region inside the window, on the screen.
    const int x0 = w.frame.x + 100, y0 = w.frame.y + 100;
    auto region_black = [&](const nd_test::Pixels& px) {
        for (int y = y0; y < y0 + 200 && y < px.height; y += 4)
            for (int x = x0; x < x0 + 300 && x < px.width; x += 4) {
                const auto* p = px.at(x, y);
                if (p[0] || p[1] || p[2])
                    return false;
            }
        return true;
    };
    auto open = call("shot");
    ASSERT_TRUE(open.ok) << open.error;
    EXPECT_FALSE(region_black(decode(open))) << "the app's window is black without an allowlist";
    EXPECT_FALSE(open.result.contains("windows_blacked_out")) << open.result.dump();

    nd_desk::DeskConfig only_zenity;
    only_zenity.allow = {"zenity"};
    m_desk = std::make_unique<nd_desk::Desk>(*m_backend, only_zenity);
    auto gated = call("shot");
    ASSERT_TRUE(gated.ok) << gated.error;
    EXPECT_TRUE(region_black(decode(gated))) << "a window outside the allowlist shows in the screen shot";
    ASSERT_TRUE(gated.result.contains("windows_blacked_out")) << gated.result.dump();
    EXPECT_EQ(gated.result["windows_blacked_out"][0]["title"], w.title);
    // Its own shot is refused outright.
    auto named = call("shot", {{"window", w.title}});
    EXPECT_FALSE(named.ok);
}

// Another program's surface that no window manager places (as a menu, a tooltip or a notification
// shows) over an allowed window, as an attacker's client would map it: the screen shot blacks it out
// and a click on it is judged by its own app, not by the window under it.
TEST_F(DeskAct, AnotherProgramsUnmanagedSurfaceOverAnAllowedWindowIsBlackAndRefused)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    const int x0 = w.frame.x + 100, y0 = w.frame.y + 100, width = 240, height = 120;
    m_apps.push_back(std::make_unique<OwnedApp>(std::vector<std::string>{
        std::string(NISH_SOURCE_DIR) + "/fixtures/apps/popup_surface.py", std::to_string(x0), std::to_string(y0),
        std::to_string(width), std::to_string(height)}));
    const auto pid = m_apps.back()->pid();
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            auto surfaces = m_desk->unmanaged_surfaces();
            for (const auto& s : surfaces ? *surfaces : std::vector<nd_core::WindowInfo>{})
                if (s.pid == pid && s.frame.w == width)
                    return true;
            return false;
        },
        10s))
        << "the surface never showed";
    auto magenta = [&](const nd_test::Pixels& px) {
        const auto* p = px.at(x0 + width / 2, y0 + height / 2);
        return p[0] > 200 && p[1] < 50 && p[2] > 200;
    };
    auto black = [&](const nd_test::Pixels& px) {
        for (int y = y0; y < y0 + height; y += 4)
            for (int x = x0; x < x0 + width; x += 4)
                if (const auto* p = px.at(x, y); p[0] || p[1] || p[2])
                    return false;
        return true;
    };
    std::string seen;
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            auto r = call("shot");
            if (!r.ok)
                return false;
            const auto px = decode(r);
            const auto* p = px.at(x0 + width / 2, y0 + height / 2);
            seen = std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]);
            return magenta(px);
        },
        5s))
        << "the surface is not painted over the window: " << seen;

    nd_desk::DeskConfig only_factory;
    only_factory.allow = {"gtk3-widget-factory"};
    m_desk = std::make_unique<nd_desk::Desk>(*m_backend, only_factory);
    auto gated = call("shot");
    ASSERT_TRUE(gated.ok) << gated.error;
    const auto px = decode(gated);
    EXPECT_TRUE(black(px)) << "another program's surface shows over the allowed window";
    const auto* beside = px.at(x0 + width + 20, y0 + height / 2);
    EXPECT_TRUE(beside[0] || beside[1] || beside[2]) << "the allowed window beside the surface is black too";
    ASSERT_TRUE(gated.result.contains("windows_blacked_out")) << gated.result.dump();
    EXPECT_NE(gated.result["windows_blacked_out"].dump().find("a notification of an app not in the app allowlist"),
              std::string::npos)
        << gated.result.dump();
    auto clicked = call("click", {{"x", x0 + 10}, {"y", y0 + 10}});
    EXPECT_FALSE(clicked.ok);
    EXPECT_NE(clicked.error.find("app_out_of_scope"), std::string::npos) << clicked.error;
}

TEST_F(DeskAct, StillOnAQuietScreenAndASpinnerIsVolatile)
{
    auto quiet = call("still", {{"timeout_ms", 2000}, {"hold_ms", 100}});
    ASSERT_TRUE(quiet.ok) << quiet.error;
    EXPECT_TRUE(quiet.result["still"].get<bool>()) << quiet.result.dump();
    EXPECT_FALSE(quiet.result["changed"].get<bool>()) << quiet.result.dump();
    EXPECT_EQ(quiet.result["volatile"], 0);
    EXPECT_LT(quiet.result["ms"].get<int>(), 1000);

    start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    // Page 1 shows an active spinner: its blocks go through contents, so they turn volatile.
    auto spinning = call("still", {{"timeout_ms", 3000}, {"hold_ms", 300}});
    ASSERT_TRUE(spinning.ok) << spinning.error;
    EXPECT_GE(spinning.result["volatile"].get<int>(), 1) << spinning.result.dump();
    EXPECT_TRUE(spinning.result["still"].get<bool>()) << "a spinner alone kept the screen from holding still: "
                                                      << spinning.result.dump();
}

TEST_F(DeskAct, ASafetyStopEndsALongTypeAndAStillAtOnce)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto snap = read(w);
    std::int32_t entry = -1;
    for (std::int32_t i = 0; i < snap->size() && entry < 0; ++i) {
        const auto& e = snap->elements[static_cast<std::size_t>(i)];
        if (e.role == "text" && e.value == "entry" && e.is(nd_core::STATE_EDITABLE) && e.is(nd_core::STATE_SHOWING) &&
            e.is(nd_core::STATE_ENABLED))
            entry = i;
    }
    ASSERT_GE(entry, 0);
    ASSERT_TRUE(call("act", {{"id", id(*snap, entry)}, {"action", "focus"}}).ok);
    // Characters no key of the keymap makes are typed on a borrowed keycode, each a little while:
    // a text of them takes seconds.
    std::string text;
    for (int i = 0; i < 300; ++i)
        text += "\u20ac";
    auto typing = std::async(std::launch::async, [&] { return call("type", {{"text", text}}); });
    std::this_thread::sleep_for(400ms);
    const auto stop_at = std::chrono::steady_clock::now();
    m_desk->safety_stop().stop();
    ASSERT_EQ(typing.wait_for(2s), std::future_status::ready) << "the type went on after the stop";
    const auto typed = typing.get();
    EXPECT_LT(std::chrono::steady_clock::now() - stop_at, 500ms);
    EXPECT_FALSE(typed.ok);
    ASSERT_TRUE(typed.typed.has_value()) << typed.error;
    EXPECT_LT(*typed.typed, 300);
    m_desk->safety_stop().resume();

    auto waiting = std::async(std::launch::async, [&] { return call("still", {{"timeout_ms", 5000}, {"hold_ms", 5000}}); });
    std::this_thread::sleep_for(300ms);
    const auto second_stop = std::chrono::steady_clock::now();
    m_desk->safety_stop().stop();
    ASSERT_EQ(waiting.wait_for(2s), std::future_status::ready);
    const auto still = waiting.get();
    EXPECT_LT(std::chrono::steady_clock::now() - second_stop, 300ms);
    EXPECT_FALSE(still.ok);
    EXPECT_NE(still.error.find("stopped"), std::string::npos) << still.error;
    m_desk->safety_stop().resume();
}

TEST_F(DeskAct, NoInputWhileAnotherDriverHoldsTheTakeover)
{
    auto w = start({"gtk3-widget-factory"}, FACTORY_ELEMENTS);
    auto lock = nd_linux::DisplayLock::take("");
    ASSERT_TRUE(lock) << lock.error().text();
    auto key = call("key", {{"keys", "Tab"}});
    EXPECT_FALSE(key.ok);
    EXPECT_NE(key.error.find("another driver holds the takeover on this display"), std::string::npos) << key.error;
    auto clicked = call("click", {{"x", w.frame.x + 5}, {"y", w.frame.y + 5}});
    EXPECT_FALSE(clicked.ok);
    lock->release();
    EXPECT_TRUE(call("key", {{"keys", "Tab"}}).ok);
}

} // namespace
