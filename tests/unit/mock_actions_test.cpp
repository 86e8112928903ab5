// Semantic actions on the mock desktop: every scripted effect of the fixtures, the error of every
// refusal, secure fields, and value readback.

#include "backend/mock/desktop_state.h"
#include "backend/mock/mock_backend.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace nd_core;
using nd_mock::MockBackend;

namespace {

constexpr std::int64_t CHATTER = 41943047;
constexpr std::int64_t GROCERIES = 41943112;
constexpr std::int64_t SETTINGS = 52428801;
constexpr std::int64_t CALCULATOR = 62914561;

class MockActions : public ::testing::Test {
protected:
    void SetUp() override
    {
        auto loaded = MockBackend::load(MockBackend::default_fixture_dir());
        ASSERT_TRUE(loaded.ok()) << loaded.error().text();
        backend = std::move(loaded).value();
        act = backend->actuator();
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

    std::vector<Element> read(std::int64_t id)
    {
        auto tree = backend->trees()->read_window(window(id), {});
        EXPECT_TRUE(tree.ok());
        return tree.ok() ? tree->elements : std::vector<Element>{};
    }

    // The element with this key, read afresh; an empty Element with the key when it is gone.
    Element find(std::int64_t id, const std::string& key)
    {
        for (auto& e : read(id))
            if (e.key == key)
                return e;
        Element gone;
        gone.key = key;
        return gone;
    }

    bool present(std::int64_t id, const std::string& key)
    {
        auto all = read(id);
        return std::any_of(all.begin(), all.end(), [&](const Element& e) { return e.key == key; });
    }

    std::unique_ptr<MockBackend> backend;
    Actuator* act = nullptr;
};

} // namespace

TEST_F(MockActions, CheckBoxClickTogglesChecked)
{
    Element box = find(SETTINGS, "settings.remember");
    EXPECT_EQ(box.name, "Remember me");
    EXPECT_FALSE(box.is(STATE_CHECKED));
    ASSERT_TRUE(act->do_action(window(SETTINGS), box, "click").ok());
    EXPECT_TRUE(find(SETTINGS, "settings.remember").is(STATE_CHECKED));
    ASSERT_TRUE(act->do_action(window(SETTINGS), box, "click").ok());
    EXPECT_FALSE(find(SETTINGS, "settings.remember").is(STATE_CHECKED));
    auto log = backend->semantic_log();
    ASSERT_EQ(log.size(), 2u);
    EXPECT_EQ(log[0].to_string(), "action click 52428801/settings.remember");
}

// A long-running mock daemon acts without end (scripts/bench-load): the act log keeps the latest
// events, at most twice its bound, so memory does not grow with the number of acts.
TEST_F(MockActions, TheActLogIsBounded)
{
    Element box = find(SETTINGS, "settings.remember");
    const auto settings = window(SETTINGS);
    const std::size_t acts = 3 * nd_mock::DesktopState::MAX_LOG + 1;
    for (std::size_t i = 0; i < acts; ++i)
        ASSERT_TRUE(act->do_action(settings, box, "click").ok());
    const auto log = backend->semantic_log();
    EXPECT_GE(log.size(), nd_mock::DesktopState::MAX_LOG);
    EXPECT_LE(log.size(), 2 * nd_mock::DesktopState::MAX_LOG);
    EXPECT_EQ(log.back().to_string(), "action click 52428801/settings.remember");
}

TEST_F(MockActions, SignInOpensADialogAndOkClosesIt)
{
    auto before = read(SETTINGS).size();
    ASSERT_TRUE(act->do_action(window(SETTINGS), find(SETTINGS, "settings.sign_in"), "click").ok());
    auto after = read(SETTINGS);
    ASSERT_EQ(after.size(), before + 3);
    Element dialog = find(SETTINGS, "settings.dialog");
    EXPECT_EQ(dialog.role, "dialog");
    EXPECT_EQ(dialog.name, "Signed in");
    EXPECT_EQ(dialog.depth, 1); // a child of the window's root
    // A second click while it is open leaves one dialog.
    ASSERT_TRUE(act->do_action(window(SETTINGS), find(SETTINGS, "settings.sign_in"), "click").ok());
    EXPECT_EQ(read(SETTINGS).size(), before + 3);

    Element ok = find(SETTINGS, "settings.dialog.ok");
    EXPECT_EQ(ok.name, "OK");
    ASSERT_TRUE(act->do_action(window(SETTINGS), ok, "click").ok());
    EXPECT_EQ(read(SETTINGS).size(), before);
    EXPECT_FALSE(present(SETTINGS, "settings.dialog"));
    // The OK button went with its dialog.
    auto again = act->do_action(window(SETTINGS), ok, "click");
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().code, ErrorCode::element_not_found);
}

TEST_F(MockActions, SelectingATabReplacesThePage)
{
    Element advanced = find(SETTINGS, "settings.tab.advanced");
    EXPECT_EQ(advanced.role, "page_tab");
    EXPECT_TRUE(find(SETTINGS, "settings.tab.general").is(STATE_SELECTED));
    ASSERT_TRUE(act->select(window(SETTINGS), advanced).ok());
    EXPECT_TRUE(find(SETTINGS, "settings.tab.advanced").is(STATE_SELECTED));
    EXPECT_FALSE(find(SETTINGS, "settings.tab.general").is(STATE_SELECTED));
    EXPECT_FALSE(present(SETTINGS, "settings.username"));
    EXPECT_TRUE(present(SETTINGS, "settings.reset"));
    EXPECT_EQ(find(SETTINGS, "settings.page.advanced").name, "Advanced");

    // Elements of the replaced page are gone.
    auto gone = act->do_action(window(SETTINGS), Element{.key = "settings.remember"}, "click");
    ASSERT_FALSE(gone.ok());
    EXPECT_EQ(gone.error().code, ErrorCode::element_not_found);

    // Reset works on the Advanced page; clicking the General tab brings the first page back.
    ASSERT_TRUE(act->do_action(window(SETTINGS), find(SETTINGS, "settings.acceleration"), "click").ok());
    EXPECT_TRUE(find(SETTINGS, "settings.acceleration").is(STATE_CHECKED));
    ASSERT_TRUE(act->do_action(window(SETTINGS), find(SETTINGS, "settings.reset"), "click").ok());
    EXPECT_FALSE(find(SETTINGS, "settings.acceleration").is(STATE_CHECKED));
    EXPECT_TRUE(find(SETTINGS, "settings.logging").is(STATE_CHECKED));
    ASSERT_TRUE(act->do_action(window(SETTINGS), find(SETTINGS, "settings.tab.general"), "click").ok());
    EXPECT_TRUE(present(SETTINGS, "settings.username"));
    EXPECT_FALSE(present(SETTINGS, "settings.reset"));
}

TEST_F(MockActions, SendAppendsTheComposedMessage)
{
    auto messages = [&] {
        auto all = read(CHATTER);
        auto list = std::find_if(all.begin(), all.end(), [](const Element& e) { return e.name == "Messages"; });
        return list->child_count;
    };
    std::int32_t before = messages();
    Element composer = find(CHATTER, "chatter.composer");
    EXPECT_TRUE(composer.is(STATE_EDITABLE));
    ASSERT_TRUE(act->insert_text(window(CHATTER), composer, "Hello ").ok());
    ASSERT_TRUE(act->insert_text(window(CHATTER), composer, "engines").ok());
    EXPECT_EQ(act->read_value(window(CHATTER), composer).value(), "Hello engines");
    ASSERT_TRUE(act->do_action(window(CHATTER), find(CHATTER, "chatter.send"), "click").ok());
    EXPECT_EQ(messages(), before + 1);
    std::string key = "chatter.msg." + std::to_string(before + 1);
    Element sent = find(CHATTER, key);
    EXPECT_EQ(sent.name, "You: Hello engines");
    EXPECT_EQ(sent.role, "list_item");
    // The new message sits below the last one, and the composer is empty again.
    EXPECT_EQ(sent.frame.y, find(CHATTER, "chatter.msg." + std::to_string(before)).frame.y + 64);
    EXPECT_EQ(act->read_value(window(CHATTER), composer).value(), "");
}

TEST_F(MockActions, CalculatorChangesOnlyTheDisplayName)
{
    auto keys_of = [&] {
        std::vector<std::string> keys;
        for (const auto& e : read(CALCULATOR))
            keys.push_back(e.key);
        return keys;
    };
    auto shape = keys_of();
    EXPECT_EQ(find(CALCULATOR, "calc.display").name, "Display: 0");
    for (const char* key : {"calc.key.7", "calc.key.plus", "calc.key.5", "calc.key.equals"})
        ASSERT_TRUE(act->do_action(window(CALCULATOR), find(CALCULATOR, key), "click").ok()) << key;
    EXPECT_EQ(find(CALCULATOR, "calc.display").name, "Display: 12");
    EXPECT_EQ(keys_of(), shape);
    for (const char* key : {"calc.key.divide", "calc.key.0", "calc.key.equals"})
        ASSERT_TRUE(act->do_action(window(CALCULATOR), find(CALCULATOR, key), "click").ok());
    EXPECT_EQ(find(CALCULATOR, "calc.display").name, "Display: Error");
    ASSERT_TRUE(act->do_action(window(CALCULATOR), find(CALCULATOR, "calc.key.clear"), "click").ok());
    EXPECT_EQ(find(CALCULATOR, "calc.display").name, "Display: 0");
}

TEST_F(MockActions, RefusalsCarryTheirCodes)
{
    auto missing = act->do_action(window(SETTINGS), find(SETTINGS, "settings.username"), "activate");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::action_not_offered);
    EXPECT_NE(missing.error().message.find("activate"), std::string::npos);

    Element disabled = find(SETTINGS, "settings.disabled");
    EXPECT_EQ(disabled.name, "Disabled action");
    EXPECT_FALSE(disabled.is(STATE_ENABLED));
    auto off = act->do_action(window(SETTINGS), disabled, "click");
    ASSERT_FALSE(off.ok());
    EXPECT_EQ(off.error().code, ErrorCode::element_not_ready);
    EXPECT_NE(off.error().message.find("disabled"), std::string::npos);

    auto gone = act->do_action(window(SETTINGS), Element{.key = "settings.nothing"}, "click");
    EXPECT_EQ(gone.error().code, ErrorCode::element_not_found);

    auto not_editable = act->set_value(window(SETTINGS), find(SETTINGS, "settings.sign_in"), "x");
    EXPECT_EQ(not_editable.error().code, ErrorCode::action_not_offered);
    auto not_text = act->insert_text(window(SETTINGS), find(SETTINGS, "settings.volume"), "1");
    EXPECT_EQ(not_text.error().code, ErrorCode::action_not_offered);
    auto not_selectable = act->select(window(SETTINGS), find(SETTINGS, "settings.sign_in"));
    EXPECT_EQ(not_selectable.error().code, ErrorCode::action_not_offered);

    WindowInfo ghost = window(SETTINGS);
    ghost.window_id = 1;
    EXPECT_EQ(act->do_action(ghost, find(SETTINGS, "settings.sign_in"), "click").error().code,
              ErrorCode::window_target_not_found);
    EXPECT_TRUE(backend->semantic_log().empty());
}

TEST_F(MockActions, SecureFieldIsNeverReadOrWritten)
{
    Element password = find(SETTINGS, "settings.password");
    auto read_back = act->read_value(window(SETTINGS), password);
    ASSERT_FALSE(read_back.ok());
    EXPECT_EQ(read_back.error().code, ErrorCode::secure_field_refused);
    EXPECT_EQ(act->set_value(window(SETTINGS), password, "x").error().code, ErrorCode::secure_field_refused);
    EXPECT_EQ(act->insert_text(window(SETTINGS), password, "x").error().code, ErrorCode::secure_field_refused);
    EXPECT_TRUE(act->is_secure_now(window(SETTINGS), password).value());
    EXPECT_FALSE(act->is_secure_now(window(SETTINGS), find(SETTINGS, "settings.username")).value());
    // Live: a field that becomes secure is reported so at once.
    ASSERT_TRUE(backend->mutate(SETTINGS, "settings.username", {{"add_states", {"secure"}}}).ok());
    EXPECT_TRUE(act->is_secure_now(window(SETTINGS), find(SETTINGS, "settings.username")).value());
}

TEST_F(MockActions, SetValueReadsBackLiveIncludingAMismatch)
{
    Element username = find(SETTINGS, "settings.username");
    ASSERT_TRUE(act->set_value(window(SETTINGS), username, "ada").ok());
    EXPECT_EQ(act->read_value(window(SETTINGS), username).value(), "ada");
    EXPECT_EQ(find(SETTINGS, "settings.username").value, "ada");

    Element phone = find(SETTINGS, "settings.phone");
    ASSERT_TRUE(act->set_value(window(SETTINGS), phone, "555-1234").ok());
    EXPECT_EQ(act->read_value(window(SETTINGS), phone).value(), "5551234");

    Element notes = find(GROCERIES, "notes.groceries.text");
    EXPECT_TRUE(notes.is(STATE_MULTI_LINE));
    ASSERT_TRUE(act->insert_text(window(GROCERIES), notes, "\nTea").ok());
    EXPECT_EQ(act->read_value(window(GROCERIES), notes).value(), "Milk\nEggs\nBread\nTea");
    auto log = backend->semantic_log();
    ASSERT_EQ(log.size(), 3u);
    EXPECT_EQ(log[1].kind, "set_value");
    EXPECT_EQ(log[1].detail.find("555"), std::string::npos); // lengths, never text
}

TEST_F(MockActions, SliderTakesNumbersInRange)
{
    Element volume = find(SETTINGS, "settings.volume");
    EXPECT_EQ(volume.value, "30");
    ASSERT_TRUE(act->set_value(window(SETTINGS), volume, "75").ok());
    EXPECT_EQ(act->read_value(window(SETTINGS), volume).value(), "75");
    ASSERT_TRUE(act->set_value(window(SETTINGS), volume, "12.5").ok());
    EXPECT_EQ(act->read_value(window(SETTINGS), volume).value(), "12.5");
    for (const char* bad : {"101", "-1", "loud", "", "5x"}) {
        auto r = act->set_value(window(SETTINGS), volume, bad);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::invalid_arguments);
    }
    EXPECT_EQ(act->read_value(window(SETTINGS), volume).value(), "12.5");
}

TEST_F(MockActions, SelectingAListItemMovesTheSelection)
{
    Element channel = find(CHATTER, "chatter.channel.5");
    EXPECT_EQ(channel.name, "#project-5");
    ASSERT_TRUE(act->select(window(CHATTER), channel).ok());
    EXPECT_TRUE(find(CHATTER, "chatter.channel.5").is(STATE_SELECTED));
    EXPECT_FALSE(find(CHATTER, "chatter.channel.1").is(STATE_SELECTED));
}
