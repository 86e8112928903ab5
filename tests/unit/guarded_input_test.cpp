// GuardedInput: the hand-back checks of §4.3 around every synthetic call, on the mock desktop. The
// person's input arrives "during" a call through HookedInput, which forwards to the mock's input
// and runs a test's hook after each call, so the timing is exact and needs no threads.

#include "core/engine/guarded_input.h"

#include "backend/mock/mock_backend.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>

using namespace nd_core;
using nd_mock::MockBackend;
using nd_mock::SyntheticEvent;

namespace {

class HookedInput final : public SyntheticInput {
public:
    explicit HookedInput(SyntheticInput& inner) : m_inner(inner) {}

    std::function<void(Point)> after_move;
    std::function<void(std::string_view, bool)> after_key;
    std::function<void(char32_t)> after_char;

    Result<void> move_pointer(Point p) override
    {
        auto r = m_inner.move_pointer(p);
        if (after_move)
            after_move(p);
        return r;
    }
    Result<void> button(MouseButton b, bool press) override { return m_inner.button(b, press); }
    Result<void> key(std::string_view keysym, bool press) override
    {
        auto r = m_inner.key(keysym, press);
        if (after_key)
            after_key(keysym, press);
        return r;
    }
    Result<void> type_char(char32_t c) override
    {
        auto r = m_inner.type_char(c);
        if (after_char)
            after_char(c);
        return r;
    }
    Result<void> scroll(std::int32_t dx, std::int32_t dy) override { return m_inner.scroll(dx, dy); }
    Result<void> raise_window(const WindowInfo& w) override { return m_inner.raise_window(w); }
    Result<Point> pointer_position() override { return m_inner.pointer_position(); }

private:
    SyntheticInput& m_inner;
};

// The mock backend with its input part swapped for a HookedInput.
class HookedBackend final : public Backend {
public:
    explicit HookedBackend(MockBackend& mock) : m_mock(mock), m_input(*mock.input()) {}
    HookedInput& hooks() { return m_input; }

    std::string name() const override { return m_mock.name(); }
    std::string session_type() const override { return m_mock.session_type(); }
    WindowSource* windows() override { return m_mock.windows(); }
    TreeReader* trees() override { return m_mock.trees(); }
    ElementFinder* finder() override { return m_mock.finder(); }
    Actuator* actuator() override { return m_mock.actuator(); }
    SyntheticInput* input() override { return &m_input; }
    InputWatcher* watcher() override { return m_mock.watcher(); }
    Capture* capture() override { return m_mock.capture(); }
    Clipboard* clipboard() override { return m_mock.clipboard(); }
    Overlay* overlay() override { return m_mock.overlay(); }
    RegistryReport registry() override { return m_mock.registry(); }

private:
    MockBackend& m_mock;
    HookedInput m_input;
};

// Away from every fixture window, so clicks there change nothing on the desktop.
constexpr Point EMPTY_DESK{1500, 900};

class GuardedInputTest : public ::testing::Test {
protected:
    void SetUp() override { start(InputMode::takeover); }

    // A fresh desktop, engine and session (takeover unless asked otherwise).
    void start(InputMode mode)
    {
        engine.reset();
        hooked.reset();
        auto loaded = MockBackend::load(MockBackend::default_fixture_dir());
        ASSERT_TRUE(loaded.ok()) << loaded.error().text();
        mock = std::move(loaded).value();
        hooked = std::make_unique<HookedBackend>(*mock);
        engine = std::make_unique<Engine>(*hooked, consent, audit);
        SessionRequest req;
        req.apps = std::vector<std::string>{"Notes"};
        req.input = mode;
        auto started = engine->start_session(req);
        ASSERT_TRUE(started.ok()) << started.error().text();
        auto live = engine->live_session();
        ASSERT_TRUE(live.ok());
        session = *live;
        ASSERT_EQ(session->takeover.on, mode == InputMode::takeover);
        mock->clear_logs();
    }

    std::vector<SyntheticEvent> log_of(SyntheticEvent::Kind kind) const
    {
        std::vector<SyntheticEvent> out;
        for (const auto& e : mock->synthetic_log())
            if (e.kind == kind)
                out.push_back(e);
        return out;
    }

    // Every key and button pressed in the log is released after its press.
    void expect_nothing_held() const
    {
        std::map<std::string, int> keys;
        std::map<int, int> buttons;
        for (const auto& e : mock->synthetic_log()) {
            if (e.kind == SyntheticEvent::Kind::key) {
                keys[e.keysym] += e.press ? 1 : -1;
                EXPECT_GE(keys[e.keysym], 0) << "released before pressed: " << e.to_string();
            } else if (e.kind == SyntheticEvent::Kind::button) {
                buttons[static_cast<int>(e.button)] += e.press ? 1 : -1;
                EXPECT_GE(buttons[static_cast<int>(e.button)], 0) << "released before pressed: " << e.to_string();
            }
        }
        for (const auto& [key, held] : keys)
            EXPECT_EQ(held, 0) << "key still held: " << key;
        for (const auto& [button, held] : buttons)
            EXPECT_EQ(held, 0) << "button still held: " << button;
    }

    // Glides 100 ms (10 steps) and, right after the driver's third step, has the person put the
    // pointer `push` away from where the driver put it.
    Result<void> glide_with_push(Point push)
    {
        int moves = 0;
        hooked->hooks().after_move = [&](Point p) {
            if (++moves == 3)
                mock->set_person_pointer({p.x + push.x, p.y + push.y});
        };
        GuardedInput g(*engine, *session);
        auto r = g.move_to({400, 400}, std::chrono::milliseconds{100});
        hooked->hooks().after_move = nullptr;
        return r;
    }

    AutoConsent consent;
    AuditLog audit{""};
    std::unique_ptr<MockBackend> mock;
    std::unique_ptr<HookedBackend> hooked;
    std::unique_ptr<Engine> engine;
    Session* session = nullptr;
};

} // namespace

TEST_F(GuardedInputTest, HeadlessSessionsSendNothing)
{
    start(InputMode::headless);
    GuardedInput g(*engine, *session);
    EXPECT_EQ(g.check().error().code, ErrorCode::requires_takeover);
    auto typed = g.type_text("hi");
    ASSERT_FALSE(typed.ok());
    EXPECT_EQ(typed.error().code, ErrorCode::requires_takeover);
    EXPECT_EQ(g.click(EMPTY_DESK, MouseButton::left, 1).error().code, ErrorCode::requires_takeover);
    EXPECT_EQ(g.press_keys({"Return"}).error().code, ErrorCode::requires_takeover);
    EXPECT_TRUE(mock->synthetic_log().empty());
    EXPECT_FALSE(g.sent_any());
}

TEST_F(GuardedInputTest, TypesEveryCharacter)
{
    GuardedInput g(*engine, *session);
    auto typed = g.type_text("h\xC3\xA9llo\xF0\x9F\x98\x80");
    ASSERT_TRUE(typed.ok()) << typed.error().text();
    EXPECT_EQ(*typed, 6);
    const auto chars = log_of(SyntheticEvent::Kind::type_char);
    ASSERT_EQ(chars.size(), 6u);
    EXPECT_EQ(chars[1].ch, U'\u00E9');
    EXPECT_EQ(chars[5].ch, U'\U0001F600');
    EXPECT_TRUE(g.sent_any());
    EXPECT_FALSE(session->takeover.paused);
}

TEST_F(GuardedInputTest, InvalidUtf8IsRefusedBeforeAnythingIsTyped)
{
    // invalid_arguments says "change the arguments and call again"; if part of the text went out
    // first, the retry would type it twice. Overlong forms ("\xC0\xAF" is an overlong '/') and
    // surrogates are not UTF-8 either.
    for (std::string_view text : {"ab\xFF", "ab\xC3", "x\xC0\xAFy", "a\xED\xA0\x80", "a\xF4\x90\x80\x80"}) {
        mock->clear_logs();
        GuardedInput g(*engine, *session);
        auto typed = g.type_text(text);
        if (typed.ok()) {
            ADD_FAILURE() << testing::PrintToString(std::string(text)) << " was typed as " << *typed << " characters";
            continue;
        }
        EXPECT_EQ(typed.error().code, ErrorCode::invalid_arguments) << testing::PrintToString(std::string(text));
        EXPECT_TRUE(log_of(SyntheticEvent::Kind::type_char).empty())
            << testing::PrintToString(std::string(text)) << " was partly typed";
        EXPECT_FALSE(session->takeover.paused);
    }
}

TEST_F(GuardedInputTest, APersonsKeyPressStopsTyping)
{
    int typed_so_far = 0;
    hooked->hooks().after_char = [&](char32_t) {
        if (++typed_so_far == 3)
            mock->inject_person_input(PersonInput::key_pressed);
    };
    GuardedInput g(*engine, *session);
    auto typed = g.type_text("abcdefgh");
    ASSERT_FALSE(typed.ok());
    const Error& e = typed.error();
    EXPECT_EQ(e.code, ErrorCode::user_took_over);
    EXPECT_EQ(e.effect, "stopped");
    EXPECT_EQ(e.paused_reason, "key_pressed");
    EXPECT_EQ(e.typed_characters, 3);
    EXPECT_TRUE(e.text().starts_with("user_took_over: ")) << e.text();

    // Nothing more was sent after the person's key.
    const auto chars = log_of(SyntheticEvent::Kind::type_char);
    ASSERT_EQ(chars.size(), 3u);
    EXPECT_EQ(chars[2].ch, U'c');

    // The session is paused, the takeover is not over, and the indicator says so.
    EXPECT_TRUE(session->takeover.paused);
    EXPECT_EQ(session->takeover.paused_reason, "key_pressed");
    EXPECT_TRUE(session->takeover.on);
    EXPECT_TRUE(mock->indicator_paused());
    expect_nothing_held();
}

TEST_F(GuardedInputTest, WhilePausedEveryActIsRefusedBeforeAnythingIsSent)
{
    mock->inject_person_input(PersonInput::button_pressed);
    {
        GuardedInput g(*engine, *session);
        auto r = g.click(EMPTY_DESK, MouseButton::left, 1);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::user_took_over);
        EXPECT_EQ(r.error().paused_reason, "button_pressed");
    }
    EXPECT_TRUE(session->takeover.paused);
    mock->clear_logs();

    GuardedInput g(*engine, *session);
    auto typed = g.type_text("x");
    ASSERT_FALSE(typed.ok());
    EXPECT_EQ(typed.error().code, ErrorCode::user_took_over);
    EXPECT_EQ(typed.error().effect, "refused");
    EXPECT_EQ(typed.error().paused_reason, "button_pressed");
    auto keys = g.press_keys({"Return"});
    ASSERT_FALSE(keys.ok());
    EXPECT_EQ(keys.error().effect, "refused");
    EXPECT_EQ(g.scroll(EMPTY_DESK, 0, 3).error().code, ErrorCode::user_took_over);
    EXPECT_TRUE(mock->synthetic_log().empty());
}

TEST_F(GuardedInputTest, AStoppedHotkeyReleasesItsHeldKeys)
{
    int presses = 0;
    hooked->hooks().after_key = [&](std::string_view, bool press) {
        if (press && ++presses == 2)
            mock->inject_person_input(PersonInput::key_pressed);
    };
    GuardedInput g(*engine, *session);
    auto r = g.press_keys({"Control_L", "Shift_L", "t"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::user_took_over);
    EXPECT_EQ(r.error().effect, "stopped");
    std::vector<std::string> log;
    for (const auto& e : mock->synthetic_log())
        log.push_back(e.to_string());
    EXPECT_EQ(log, (std::vector<std::string>{"key Control_L press", "key Shift_L press", "key Shift_L release",
                       "key Control_L release"}));
    expect_nothing_held();
}

TEST_F(GuardedInputTest, AHotkeyPressesInOrderAndReleasesInReverse)
{
    GuardedInput g(*engine, *session);
    ASSERT_TRUE(g.press_keys({"Control_L", "c"}).ok());
    std::vector<std::string> log;
    for (const auto& e : mock->synthetic_log())
        log.push_back(e.to_string());
    EXPECT_EQ(log,
        (std::vector<std::string>{"key Control_L press", "key c press", "key c release", "key Control_L release"}));
}

TEST_F(GuardedInputTest, HeldKeysAreReleasedWhenTheGuardGoesAway)
{
    {
        GuardedInput g(*engine, *session);
        // The second key is refused by the backend after the first is down.
        auto r = g.press_keys({"Control_L", std::string(65, 'x')});
        ASSERT_FALSE(r.ok());
    }
    const auto keys = log_of(SyntheticEvent::Kind::key);
    ASSERT_FALSE(keys.empty());
    EXPECT_EQ(keys.front().to_string(), "key Control_L press");
    expect_nothing_held();
}

TEST_F(GuardedInputTest, ThePersonsPointerStopsADragAndTheButtonIsReleased)
{
    int moves = 0;
    hooked->hooks().after_move = [&](Point p) {
        if (++moves == 5)
            mock->set_person_pointer({p.x + 30, p.y});
    };
    GuardedInput g(*engine, *session);
    auto r = g.drag(EMPTY_DESK, {EMPTY_DESK.x + 200, EMPTY_DESK.y + 50});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::user_took_over);
    EXPECT_EQ(r.error().effect, "stopped");
    EXPECT_EQ(r.error().paused_reason, "pointer_moved");
    EXPECT_FALSE(r.error().typed_characters.has_value());
    EXPECT_EQ(log_of(SyntheticEvent::Kind::move).size(), 5u) << "the glide went on after the person moved";
    const auto buttons = log_of(SyntheticEvent::Kind::button);
    ASSERT_EQ(buttons.size(), 2u);
    EXPECT_TRUE(buttons[0].press);
    EXPECT_FALSE(buttons[1].press);
    expect_nothing_held();
    EXPECT_EQ(session->takeover.paused_reason, "pointer_moved");
}

TEST_F(GuardedInputTest, MoreThanEightPixelsOnEitherAxisStopsAGlide)
{
    for (Point push : {Point{9, 0}, Point{0, -9}, Point{-9, 3}, Point{40, 40}}) {
        start(InputMode::takeover);
        auto r = glide_with_push(push);
        ASSERT_FALSE(r.ok()) << push.x << "," << push.y;
        EXPECT_EQ(r.error().code, ErrorCode::user_took_over);
        EXPECT_EQ(r.error().paused_reason, "pointer_moved");
        EXPECT_EQ(log_of(SyntheticEvent::Kind::move).size(), 3u);
        EXPECT_TRUE(session->takeover.paused);
    }
}

TEST_F(GuardedInputTest, EightPixelsExactlyDoNotStopAGlide)
{
    for (Point push : {Point{8, 0}, Point{0, 8}, Point{-8, -8}, Point{8, -8}}) {
        start(InputMode::takeover);
        auto r = glide_with_push(push);
        ASSERT_TRUE(r.ok()) << push.x << "," << push.y << ": " << r.error().text();
        const auto moves = log_of(SyntheticEvent::Kind::move);
        ASSERT_EQ(moves.size(), 10u);
        EXPECT_EQ(moves.back().point, (Point{400, 400}));
        EXPECT_FALSE(session->takeover.paused);
    }
}

TEST_F(GuardedInputTest, ThePointerIsJudgedFromWhereTheTakeoverBegan)
{
    ASSERT_TRUE(session->pointer_anchor.has_value());
    const Point anchor = *session->pointer_anchor;
    mock->set_person_pointer({anchor.x + 8, anchor.y});
    {
        GuardedInput g(*engine, *session);
        EXPECT_TRUE(g.check().ok());
    }
    mock->set_person_pointer({anchor.x + 9, anchor.y});
    GuardedInput g(*engine, *session);
    auto r = g.check();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().paused_reason, "pointer_moved");
    EXPECT_TRUE(mock->synthetic_log().empty());
}

TEST_F(GuardedInputTest, ClicksMoveThenPressAndRelease)
{
    GuardedInput g(*engine, *session);
    ASSERT_TRUE(g.click(EMPTY_DESK, MouseButton::right, 2).ok());
    std::vector<std::string> log;
    for (const auto& e : mock->synthetic_log())
        log.push_back(e.to_string());
    EXPECT_EQ(log, (std::vector<std::string>{"move 1500,900", "button right press", "button right release",
                       "button right press", "button right release"}));
}

TEST_F(GuardedInputTest, MiddleButtonIsRefused)
{
    GuardedInput g(*engine, *session);
    auto r = g.click(EMPTY_DESK, MouseButton::middle, 1);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::invalid_arguments);
    EXPECT_TRUE(mock->synthetic_log().empty());
    EXPECT_FALSE(session->takeover.paused);
}

TEST_F(GuardedInputTest, ALostIndicatorEndsTheTakeoverBeforeSending)
{
    mock->destroy_indicator();
    GuardedInput g(*engine, *session);
    auto r = g.type_text("abc");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::requires_takeover);
    EXPECT_FALSE(session->takeover.on);
    EXPECT_TRUE(session->takeover.reason.has_value());
    EXPECT_TRUE(mock->synthetic_log().empty());
}

TEST(NormalizeKeyName, Aliases)
{
    const std::pair<const char*, const char*> cases[] = {
        {"ctrl", "Control_L"}, {"CTRL", "Control_L"}, {"Control", "Control_L"}, {"shift", "Shift_L"},
        {"alt", "Alt_L"}, {"super", "Super_L"}, {"meta", "Super_L"}, {"cmd", "Super_L"}, {"win", "Super_L"},
        {"enter", "Return"}, {"Return", "Return"}, {"esc", "Escape"}, {"Escape", "Escape"}, {"tab", "Tab"},
        {"space", "space"}, {"backspace", "BackSpace"}, {"delete", "Delete"}, {"del", "Delete"}, {"up", "Up"},
        {"down", "Down"}, {"left", "Left"}, {"right", "Right"}, {"home", "Home"}, {"end", "End"},
        {"pageup", "Page_Up"}, {"PageDown", "Page_Down"}, {"insert", "Insert"}, {"menu", "Menu"},
    };
    for (const auto& [in, out] : cases)
        EXPECT_EQ(normalize_key_name(in), out) << in;
}

TEST(NormalizeKeyName, KeysymsAndSingleCharactersPassThrough)
{
    for (const char* name : {"a", "Z", "5", "+", "/", "F5", "F12", "Page_Up", "KP_Enter", "XF86AudioPlay", "Control_R"})
        EXPECT_EQ(normalize_key_name(name), name) << name;
}

TEST(NormalizeKeyName, Rejections)
{
    for (std::string_view name : {"", " ", "ctrl+c", "a b", "\n", "\x7f", "F-5", "Return;", "\xC3\xA9", "$(rm)"})
        EXPECT_EQ(normalize_key_name(name), "") << testing::PrintToString(std::string(name));
    EXPECT_EQ(normalize_key_name(std::string(33, 'a')), "");
    EXPECT_EQ(normalize_key_name(std::string(32, 'a')), std::string(32, 'a'));
}
