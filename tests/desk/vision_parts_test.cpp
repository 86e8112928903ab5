// The vision verbs' pure parts: computer_act's actions checked whole before anything runs (each
// action's fields, wrong types, a list's limits), "typed N of M" read from a field's text before
// and after, title_at's geometry over window decorations, and the sessions (defaults per agent, an
// ended name refused for good, an ended default coming back under a new name).

#include "desk/vision/act_steps.h"
#include "desk/vision/typed_count.h"
#include "desk/vision/vision_sessions.h"
#include "desk/vision/vision_title.h"

#include <gtest/gtest.h>

namespace {

using nlohmann::json;

std::string refusal(const json& args)
{
    auto steps = nd_desk::parse_act_steps(args);
    return steps ? std::string() : steps.error().message;
}

TEST(ActSteps, ParsesOneActionFromTheCallsOwnArguments)
{
    auto steps = nd_desk::parse_act_steps(json{{"action", "double_click"}, {"x", 10}, {"y", 20.5}, {"max_edge", 512}});
    ASSERT_TRUE(steps) << steps.error().message;
    ASSERT_EQ(steps->size(), 1u);
    EXPECT_EQ((*steps)[0].click_count(), 2);
    EXPECT_DOUBLE_EQ(*(*steps)[0].y, 20.5);
}

TEST(ActSteps, ParsesAListOfActions)
{
    auto steps = nd_desk::parse_act_steps(json{{"actions",
        {{{"action", "click"}, {"element", 3}}, {{"action", "type"}, {"text", "hi"}},
            {{"action", "hotkey"}, {"keys", {"ctrl", "s"}}}, {{"action", "scroll"}}, {{"action", "wait"}, {"seconds", 0.2}}}}});
    ASSERT_TRUE(steps) << steps.error().message;
    ASSERT_EQ(steps->size(), 5u);
    EXPECT_EQ(*(*steps)[0].element, 3);
    EXPECT_EQ((*steps)[2].keys, (std::vector<std::string>{"ctrl", "s"}));
    EXPECT_EQ(*(*steps)[3].direction, "down");
    EXPECT_EQ((*steps)[3].amount, 3);
}

TEST(ActSteps, RefusesWhatNoActionCanRun)
{
    EXPECT_NE(refusal(json::object()).find("action: required"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "explode"}}).find("\"explode\" is no action"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "click"}}).find("needs element, or x and y"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "click"}, {"x", 3}}).find("y: required with the other"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "click"}, {"x", 3}, {"y", 4}, {"element", 1}}).find("not both"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "click"}, {"x", 3}, {"y", 4}, {"button", "middle"}}).find("pastes"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "type"}}).find("text: required"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "key"}}).find("key: required"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "hotkey"}, {"keys", json::array()}}).find("keys:"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "drag"}, {"x", 1}, {"y", 1}}).find("to_x"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "scroll"}, {"direction", "sideways"}}).find("direction"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "wait"}, {"seconds", 31}}).find("seconds"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "launch_app"}}).find("app: required"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "click"}, {"x", "10"}, {"y", 4}}).find("x: must be a number"), std::string::npos);
    EXPECT_NE(refusal(json{{"action", "click"}, {"element", 1.5}}).find("whole number"), std::string::npos);
}

TEST(ActSteps, RefusesABadListWholeBeforeAnyStepRuns)
{
    EXPECT_NE(refusal(json{{"actions", json::array()}}).find("1 to 50"), std::string::npos);
    EXPECT_NE(refusal(json{{"actions", "click"}}).find("list of 1 to 50"), std::string::npos);
    json many = json::array();
    for (int i = 0; i < 51; ++i)
        many.push_back({{"action", "wait"}});
    EXPECT_NE(refusal(json{{"actions", many}}).find("1 to 50"), std::string::npos);
    // The third step's mistake is found before the first runs, and named by its place.
    EXPECT_NE(refusal(json{{"actions", {{{"action", "wait"}}, {{"action", "wait"}}, {{"action", "type"}}}}})
                  .find("actions[2].text: required"),
        std::string::npos);
    EXPECT_NE(refusal(json{{"actions", {{{"action", "wait"}, {"session", "x"}}}}}).find("actions[0].session: no such field"),
        std::string::npos);
    EXPECT_NE(refusal(json{{"actions", {{{"action", "wait"}}}}, {"action", "wait"}}).find("not both"), std::string::npos);
    EXPECT_NE(refusal(json{{"actions", {42}}}).find("actions[0]: must be an action object"), std::string::npos);
}

TEST(TypedCount, CountsWhatLandedInTheField)
{
    EXPECT_EQ(nd_desk::landed_characters("", "hello", "hello"), 5);
    EXPECT_EQ(nd_desk::landed_characters("abc", "abchello", "hello"), 5);
    EXPECT_EQ(nd_desk::landed_characters("abc", "hello", "hello"), 5);   // a selection replaced
    EXPECT_EQ(nd_desk::landed_characters("", "hel", "hello"), 3);       // the rest was lost
    EXPECT_EQ(nd_desk::landed_characters("", "", "hello"), 0);          // nothing landed
    EXPECT_EQ(nd_desk::landed_characters("ab", "abab", "ba"), 2);       // typed at the caret a|b
    EXPECT_EQ(nd_desk::landed_characters("aa", "aaa", "a"), 1);
    EXPECT_EQ(nd_desk::landed_characters("x", "xa\nb", "a\r\nb"), 3); // \r\n lands as one \n
    EXPECT_EQ(nd_desk::count_characters("a\r\nb"), 3);
    EXPECT_EQ(nd_desk::landed_characters("", "h\xC3\xA9llo", "h\xC3\xA9llo"), 5); // characters, not bytes
    EXPECT_EQ(nd_desk::count_characters("h\xC3\xA9llo"), 5);
}

TEST(TitleAt, TellsTitleBarsFromWindowBodies)
{
    nd_core::WindowInfo top;
    top.window_id = 1;
    top.frame = {100, 130, 400, 300};
    top.decor = {4, 4, 30, 4};
    nd_core::WindowInfo below;
    below.window_id = 2;
    below.frame = {0, 30, 800, 600};
    below.decor = {2, 2, 28, 2};
    const std::vector<nd_core::WindowInfo> windows{top, below};
    const nd_core::ScreenSize screen{1280, 800};
    auto at = [&](std::int32_t x, std::int32_t y) { return nd_desk::title_at(windows, {}, {x, y}, screen); };
    EXPECT_TRUE(at(200, 110).title);
    EXPECT_EQ(at(200, 110).where, "title_bar");
    EXPECT_EQ(at(200, 110).window->window_id, 1);
    EXPECT_EQ(at(200, 200).where, "window");
    EXPECT_FALSE(at(200, 200).title);
    EXPECT_EQ(at(98, 200).where, "frame");
    EXPECT_EQ(at(600, 10).where, "title_bar"); // the lower window's bar, where the upper one is not
    EXPECT_EQ(at(600, 10).window->window_id, 2);
    EXPECT_EQ(at(1000, 700).where, "desktop");
    EXPECT_EQ(at(-1, 5).where, "off_screen");
    nd_core::WindowInfo panel;
    panel.frame = {0, 0, 1280, 24};
    EXPECT_EQ(nd_desk::title_at(windows, {panel}, {600, 10}, screen).where, "panel");
    EXPECT_EQ(nd_desk::title_at(windows, {panel}, {600, 10}, screen).panel->frame.w, 1280);
}

TEST(TitleAt, APanelButtonNamedAfterAWindowShowsItsTitle)
{
    nd_core::WindowInfo editor;
    editor.title = "notes.txt - Editor";
    const std::vector<nd_core::WindowInfo> windows{editor};
    std::vector<nd_core::Element> panel(4);
    panel[1] = {.role = "push_button", .name = "notes.txt - Editor", .parent = 0};
    panel[2] = {.role = "label", .name = "notes.txt - Editor", .parent = 1};
    panel[3] = {.role = "label", .name = "12:45", .parent = 0};
    EXPECT_EQ(nd_desk::titled_window(panel, 2, windows), &windows[0]); // the button's label
    EXPECT_EQ(nd_desk::titled_window(panel, 1, windows), &windows[0]);
    EXPECT_EQ(nd_desk::titled_window(panel, 3, windows), nullptr); // the clock
    EXPECT_EQ(nd_desk::titled_window(panel, -1, windows), nullptr);
}

TEST(VisionSessions, DefaultsPerAgentAndEndedNamesRefusedForGood)
{
    nd_desk::VisionSessions sessions;
    EXPECT_EQ(*sessions.name_for(std::nullopt, ""), "default");
    EXPECT_EQ(*sessions.name_for(std::nullopt, "a1"), "agent:a1");
    EXPECT_EQ(*sessions.name_for(std::string("mine"), "a1"), "mine");
    EXPECT_FALSE(sessions.name_for(std::string(""), ""));
    EXPECT_FALSE(sessions.name_for(std::string(200, 'x'), ""));

    sessions.put({"mine", {{{}, "k", "push_button", "OK", {1, 2, 3, 4}}}, nd_desk::VisionShot{1024, 640, 1280, 800}});
    EXPECT_EQ(sessions.get("mine").elements.size(), 1u);
    EXPECT_DOUBLE_EQ(sessions.any_shot()->scale(), 1.25);
    EXPECT_TRUE(sessions.end("mine"));
    auto again = sessions.name_for(std::string("mine"), "");
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("was ended"), std::string::npos);
    // A put racing the end does not bring it back.
    sessions.put({"mine", {}, std::nullopt});
    EXPECT_TRUE(sessions.get("mine").elements.empty());

    sessions.put({"default", {{{}, "k", "push_button", "OK", {}}}, std::nullopt});
    sessions.end("default");
    const auto next = *sessions.name_for(std::nullopt, "");
    EXPECT_EQ(next, "default#2");
    EXPECT_TRUE(sessions.get(next).elements.empty());
    EXPECT_EQ(*sessions.name_for(std::nullopt, "a1"), "agent:a1"); // other agents keep theirs

    // A new screenshot keeps the elements a state listed, and makes a session of a new name.
    sessions.put({"s2", {{{}, "k", "push_button", "OK", {}}}, nd_desk::VisionShot{512, 320, 1280, 800}});
    sessions.put_shot("s2", nd_desk::VisionShot{1024, 640, 1280, 800});
    EXPECT_EQ(sessions.get("s2").elements.size(), 1u);
    EXPECT_DOUBLE_EQ(sessions.get("s2").shot->scale(), 1.25);
    sessions.put_shot("s3", nd_desk::VisionShot{640, 400, 1280, 800});
    EXPECT_DOUBLE_EQ(sessions.get("s3").shot->scale(), 2.0);
    sessions.end("s3");
    sessions.put_shot("s3", nd_desk::VisionShot{640, 400, 1280, 800});
    EXPECT_FALSE(sessions.get("s3").shot.has_value()) << "an ended session came back";
}

} // namespace
