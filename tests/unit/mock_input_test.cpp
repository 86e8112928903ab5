// Synthetic input, the person's input, the indicator, the clipboard and capture on the mock desktop.

#include "backend/mock/mock_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

using namespace nd_core;
using nd_mock::MockBackend;
using nd_mock::SyntheticEvent;

namespace {

constexpr std::int64_t CHATTER = 41943047;
constexpr std::int64_t SETTINGS = 52428801;
constexpr std::int64_t CALCULATOR = 62914561;

class MockDesktop : public ::testing::Test {
protected:
    void SetUp() override
    {
        auto loaded = MockBackend::load(MockBackend::default_fixture_dir());
        ASSERT_TRUE(loaded.ok()) << loaded.error().text();
        backend = std::move(loaded).value();
    }

    WindowInfo window(std::int64_t id)
    {
        auto list = backend->windows()->list_windows();
        for (const auto& w : list.value())
            if (w.window_id == id)
                return w;
        ADD_FAILURE() << "no window " << id;
        return {};
    }

    Element find(std::int64_t id, const std::string& key)
    {
        auto tree = backend->trees()->read_window(window(id), {});
        for (const auto& e : tree.value().elements)
            if (e.key == key)
                return e;
        ADD_FAILURE() << "no element " << key;
        return {};
    }

    void click(const Element& e)
    {
        Point centre{e.frame.x + e.frame.w / 2, e.frame.y + e.frame.h / 2};
        ASSERT_TRUE(backend->input()->move_pointer(centre).ok());
        ASSERT_TRUE(backend->input()->button(MouseButton::left, true).ok());
        ASSERT_TRUE(backend->input()->button(MouseButton::left, false).ok());
    }

    std::vector<std::string> log_text()
    {
        std::vector<std::string> out;
        for (const auto& e : backend->synthetic_log())
            out.push_back(e.to_string());
        return out;
    }

    std::unique_ptr<MockBackend> backend;
};

} // namespace

TEST_F(MockDesktop, EverySyntheticCallIsRecorded)
{
    SyntheticInput* in = backend->input();
    ASSERT_TRUE(in->move_pointer({10, 20}).ok());
    ASSERT_TRUE(in->button(MouseButton::right, true).ok());
    ASSERT_TRUE(in->button(MouseButton::right, false).ok());
    ASSERT_TRUE(in->key("Return", true).ok());
    ASSERT_TRUE(in->key("Return", false).ok());
    ASSERT_TRUE(in->type_char(U'A').ok());
    ASSERT_TRUE(in->type_char(U'é').ok());
    ASSERT_TRUE(in->scroll(0, 3).ok());
    ASSERT_TRUE(in->raise_window(window(SETTINGS)).ok());
    EXPECT_EQ(log_text(), (std::vector<std::string>{"move 10,20", "button right press", "button right release",
                                                     "key Return press", "key Return release", "char U+0041",
                                                     "char U+00E9", "scroll 0,3", "raise 52428801"}));
    EXPECT_EQ(backend->synthetic_log()[0].point, (Point{10, 20}));
    EXPECT_EQ(in->pointer_position().value(), (Point{10, 20}));
    EXPECT_EQ(in->key("", true).error().code, ErrorCode::invalid_arguments);
    EXPECT_EQ(in->type_char(0xD800).error().code, ErrorCode::invalid_arguments);
    backend->clear_logs();
    EXPECT_TRUE(backend->synthetic_log().empty());
}

TEST_F(MockDesktop, RaiseMakesTheWindowTopmostAndActive)
{
    ASSERT_TRUE(backend->input()->raise_window(window(CALCULATOR)).ok());
    auto list = backend->windows()->list_windows();
    EXPECT_EQ((*list)[0].window_id, CALCULATOR);
    EXPECT_TRUE((*list)[0].active);
    EXPECT_EQ(std::count_if(list->begin(), list->end(), [](const WindowInfo& w) { return w.active; }), 1);
    WindowInfo gone;
    gone.window_id = 5;
    EXPECT_EQ(backend->input()->raise_window(gone).error().code, ErrorCode::window_target_not_found);
}

TEST_F(MockDesktop, ThePersonsPointerWins)
{
    ASSERT_TRUE(backend->input()->move_pointer({1, 1}).ok());
    backend->set_person_pointer({300, 400});
    EXPECT_EQ(backend->input()->pointer_position().value(), (Point{300, 400}));
    EXPECT_EQ(backend->synthetic_log().size(), 1u); // the person's move is not synthetic
}

TEST_F(MockDesktop, WatcherReportsPersonInputOnceAndResetClears)
{
    InputWatcher* w = backend->watcher();
    EXPECT_FALSE(w->poll().has_value());
    backend->inject_person_input(PersonInput::key_pressed);
    backend->inject_person_input(PersonInput::button_pressed);
    EXPECT_EQ(w->poll(), std::optional<PersonInput>(PersonInput::key_pressed));
    EXPECT_EQ(w->poll(), std::optional<PersonInput>(PersonInput::button_pressed));
    EXPECT_FALSE(w->poll().has_value());
    backend->inject_person_input(PersonInput::pointer_moved);
    w->reset();
    EXPECT_FALSE(w->poll().has_value());
}

TEST_F(MockDesktop, SyntheticClicksAndTypingActOnTheApp)
{
    // Chatter covers the screen: a click there hits Chatter, not the Settings window under it.
    Element box = find(SETTINGS, "settings.remember");
    click(box);
    EXPECT_FALSE(find(SETTINGS, "settings.remember").is(STATE_CHECKED));
    ASSERT_TRUE(backend->input()->raise_window(window(SETTINGS)).ok());
    click(box);
    EXPECT_TRUE(find(SETTINGS, "settings.remember").is(STATE_CHECKED));
    // A click on a window below raises it and runs the element's click (with Chatter closed, the
    // Calculator's "9" is not covered by another window).
    ASSERT_TRUE(backend->close_window(CHATTER));
    click(find(CALCULATOR, "calc.key.9"));
    EXPECT_EQ(backend->windows()->list_windows().value()[0].window_id, CALCULATOR);
    EXPECT_EQ(find(CALCULATOR, "calc.display").name, "Display: 9");
    ASSERT_TRUE(backend->input()->raise_window(window(SETTINGS)).ok());
    // Clicking a field focuses it; typed characters and BackSpace edit it.
    click(find(SETTINGS, "settings.phone"));
    EXPECT_TRUE(find(SETTINGS, "settings.phone").is(STATE_FOCUSED));
    for (char32_t c : std::u32string(U"55-12"))
        ASSERT_TRUE(backend->input()->type_char(c).ok());
    ASSERT_TRUE(backend->input()->key("BackSpace", true).ok());
    EXPECT_EQ(find(SETTINGS, "settings.phone").value, "551");
    // Typing into the password field goes to its secret, never its value.
    click(find(SETTINGS, "settings.password"));
    ASSERT_TRUE(backend->input()->type_char(U'!').ok());
    EXPECT_TRUE(find(SETTINGS, "settings.password").value.empty());
    EXPECT_TRUE(backend->secret(SETTINGS, "settings.password")->ends_with("!"));
    // A click on a disabled button does nothing, and the semantic log stays empty throughout.
    click(find(SETTINGS, "settings.disabled"));
    EXPECT_TRUE(backend->semantic_log().empty());
}

TEST_F(MockDesktop, HungAppIgnoresSyntheticInput)
{
    Element box = find(SETTINGS, "settings.remember");
    ASSERT_TRUE(backend->input()->raise_window(window(SETTINGS)).ok());
    ASSERT_TRUE(backend->set_hung(SETTINGS, true));
    click(box);
    ASSERT_TRUE(backend->set_hung(SETTINGS, false));
    EXPECT_FALSE(find(SETTINGS, "settings.remember").is(STATE_CHECKED));
}

TEST_F(MockDesktop, ClipboardIsInMemory)
{
    EXPECT_EQ(backend->clipboard()->read_text().value(), "");
    ASSERT_TRUE(backend->clipboard()->write_text("copied").ok());
    EXPECT_EQ(backend->clipboard_text(), "copied");
    backend->set_clipboard_text("from another app");
    EXPECT_EQ(backend->clipboard()->read_text().value(), "from another app");
}

TEST_F(MockDesktop, IndicatorHooks)
{
    Overlay* o = backend->overlay();
    EXPECT_FALSE(o->indicator_alive());
    ASSERT_TRUE(o->show_indicator().ok());
    EXPECT_TRUE(backend->indicator_shown());
    EXPECT_TRUE(o->indicator_alive());
    o->set_paused(true);
    EXPECT_TRUE(backend->indicator_paused());
    o->set_paused(false);
    EXPECT_FALSE(backend->indicator_paused());
    backend->destroy_indicator();
    EXPECT_FALSE(o->indicator_alive());
    EXPECT_FALSE(backend->indicator_shown());
    o->hide_indicator();
    backend->fail_indicator(true);
    auto failed = o->show_indicator();
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().code, ErrorCode::backend_unavailable);
    EXPECT_FALSE(o->indicator_alive());
    backend->fail_indicator(false);
    ASSERT_TRUE(o->show_indicator().ok());
    EXPECT_TRUE(o->indicator_alive());
    o->hide_indicator();
    EXPECT_FALSE(backend->indicator_shown());
}

TEST_F(MockDesktop, CaptureIsDeterministicAndWindowSized)
{
    WindowInfo calc = window(CALCULATOR);
    auto a = backend->capture()->capture_window(calc);
    auto b = backend->capture()->capture_window(calc);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->width, calc.frame.w);
    EXPECT_EQ(a->height, calc.frame.h);
    ASSERT_EQ(a->rgba.size(), static_cast<std::size_t>(calc.frame.w * calc.frame.h * 4));
    EXPECT_EQ(a->rgba, b->rgba);
    // A key's pixel differs from the keypad's around it, and every pixel is opaque.
    Element seven = find(CALCULATOR, "calc.key.7");
    Element keypad = find(CALCULATOR, "calc.keypad");
    auto pixel = [&](std::int32_t x, std::int32_t y) {
        std::size_t at = (static_cast<std::size_t>(y - calc.frame.y) * a->width + (x - calc.frame.x)) * 4;
        return std::vector<std::uint8_t>(a->rgba.begin() + static_cast<std::ptrdiff_t>(at),
                                         a->rgba.begin() + static_cast<std::ptrdiff_t>(at + 4));
    };
    EXPECT_NE(pixel(seven.frame.x + 5, seven.frame.y + 5), pixel(keypad.frame.x + 72, keypad.frame.y + 2));
    for (std::size_t i = 3; i < a->rgba.size(); i += 4)
        ASSERT_EQ(a->rgba[i], 255);
    // The same picture for the dense window, at its own size.
    auto chatter = backend->capture()->capture_window(window(CHATTER));
    ASSERT_TRUE(chatter.ok());
    EXPECT_EQ(chatter->width, 1280);
    EXPECT_EQ(chatter->height, 800);
}

TEST_F(MockDesktop, PartsAndHooksAreSafeAcrossThreads)
{
    WindowInfo calc = window(CALCULATOR);
    Element seven = find(CALCULATOR, "calc.key.7");
    Element clear = find(CALCULATOR, "calc.key.clear");
    std::thread engine([&] {
        for (int i = 0; i < 200; ++i) {
            EXPECT_TRUE(backend->actuator()->do_action(calc, i % 10 ? seven : clear, "click").ok());
            EXPECT_TRUE(backend->trees()->read_window(calc, {}).ok());
        }
    });
    for (int i = 0; i < 200; ++i) {
        backend->inject_person_input(PersonInput::key_pressed);
        backend->set_person_pointer({i, i});
        (void)backend->semantic_log();
        backend->watcher()->poll();
    }
    engine.join();
    EXPECT_EQ(backend->semantic_log().size(), 200u);
}
