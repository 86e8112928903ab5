// core/engine/act_route.h: the headless route of a click, double click or right click, one for the
// driver's tools and the desk's verbs. An actuator that records what it was asked runs behind a
// backend whose windows are GTK3's or Chromium's; each test reads which action ran on which element,
// or which error came back with which escalation.

#include "core/backend/actuator.h"
#include "core/engine/act_route.h"
#include "empty_backend.h"
#include "tree_fixture.h"

#include <gtest/gtest.h>

#include <memory>

namespace {

using nd_core::ActKind;
using nd_core::ErrorCode;
using nd_core::STATE_FOCUSABLE;
using nd_core::STATE_SELECTABLE;

struct RecordingActuator : nd_core::Actuator {
    std::vector<std::string> calls; // "<action>@<key>", "select@<key>", "names@<key>"
    nd_core::Result<void> select_answer = nd_core::Ok{};
    nd_core::Result<std::vector<std::string>> live_names = std::vector<std::string>{};

    nd_core::Result<void> do_action(const nd_core::WindowInfo&, const nd_core::Element& e, std::string_view action) override
    {
        calls.push_back(std::string(action) + "@" + e.key);
        return nd_core::Ok{};
    }
    nd_core::Result<void> set_value(const nd_core::WindowInfo&, const nd_core::Element&, std::string_view) override
    {
        return nd_core::Ok{};
    }
    nd_core::Result<void> insert_text(const nd_core::WindowInfo&, const nd_core::Element&, std::string_view) override
    {
        return nd_core::Ok{};
    }
    nd_core::Result<void> select(const nd_core::WindowInfo&, const nd_core::Element& e) override
    {
        calls.push_back("select@" + e.key);
        return select_answer;
    }
    nd_core::Result<std::string> read_value(const nd_core::WindowInfo&, const nd_core::Element&) override
    {
        return std::string();
    }
    nd_core::Result<bool> is_secure_now(const nd_core::WindowInfo&, const nd_core::Element&) override { return false; }
    nd_core::Result<std::vector<std::string>> action_names(const nd_core::WindowInfo&, const nd_core::Element& e) override
    {
        calls.push_back("names@" + e.key);
        return live_names;
    }
    nd_core::Result<bool> is_focused_now(const nd_core::WindowInfo&, const nd_core::Element&) override { return false; }
};

struct ToolkitBackend : nd_test::EmptyBackend {
    RecordingActuator acts;
    std::string toolkit = "GTK3";
    nd_core::Actuator* actuator() override { return &acts; }
    nd_core::BackgroundRoutes background_routes(const nd_core::WindowInfo&) override { return {toolkit, {"actions"}, ""}; }
};

// A dialog with a button, a list of one row holding a label, a GTK text field and a disabled button.
class ActRoute : public ::testing::Test {
protected:
    ToolkitBackend backend;
    nd_test::TreeBuilder t;
    std::int32_t button = 0, row = 0, label = 0, field = 0, greyed = 0;

    void SetUp() override
    {
        t.add(-1, "frame", "Preferences");
        button = t.add(0, "push_button", "OK");
        t.at(button).actions = {"click"};
        const auto list = t.add(0, "list_box", "");
        row = t.add(list, "list_item", "", nd_test::PLAIN | STATE_SELECTABLE | STATE_FOCUSABLE);
        t.at(row).actions = {"activate"};
        label = t.add(row, "label", "Cobalt");
        field = t.add(0, "text", "Name", nd_test::PLAIN | STATE_FOCUSABLE);
        t.at(field).actions = {"activate"};
        greyed = t.add(0, "push_button", "Apply", nd_core::STATE_SHOWING);
        t.at(greyed).actions = {"click"};
    }

    nd_core::Result<nd_core::ActRouteTaken> run(std::int32_t index, ActKind act = ActKind::click, bool select = true)
    {
        auto snap = std::make_shared<nd_core::Snapshot>(t.snapshot());
        for (auto& e : snap->elements)
            e.action_names_asked = !e.actions.empty();
        return nd_core::run_act_route(backend, nd_core::ElementRef{snap, index},
            {.act = act, .name = act == ActKind::click ? "click" : "double_click", .select_fallback = select});
    }
    std::string key(std::int32_t index) { return t.at(index).key; }
};

TEST_F(ActRoute, AButtonRunsItsOwnClick)
{
    const auto taken = run(button);
    ASSERT_TRUE(taken) << taken.error().message;
    EXPECT_EQ(taken->action, "click");
    EXPECT_EQ(taken->index, button);
    EXPECT_EQ(backend.acts.calls, std::vector<std::string>{"click@" + key(button)});
}

// GTK3's row "activate" is the row-activated of a double click: a click selects the row, and the
// row's label passes its click to the row.
TEST_F(ActRoute, ARowAndItsLabelSelectTheRowAndADoubleClickActivatesIt)
{
    auto taken = run(row);
    ASSERT_TRUE(taken) << taken.error().message;
    EXPECT_EQ(taken->action, "select");
    taken = run(label);
    ASSERT_TRUE(taken) << taken.error().message;
    EXPECT_EQ(taken->action, "select");
    EXPECT_EQ(taken->index, row);
    taken = run(label, ActKind::double_click, false);
    ASSERT_TRUE(taken) << taken.error().message;
    EXPECT_EQ(taken->action, "activate");
    EXPECT_EQ(taken->index, row);
    EXPECT_EQ(backend.acts.calls, (std::vector<std::string>{"select@" + key(row), "names@" + key(label),
                                      "select@" + key(row), "names@" + key(label), "activate@" + key(row)}));
}

TEST_F(ActRoute, AListThatRefusesToSelectFailsWithTheTakeoversEscalation)
{
    backend.acts.select_answer = nd_core::make_error(ErrorCode::action_failed, "the list selected nothing");
    const auto taken = run(row);
    ASSERT_FALSE(taken);
    EXPECT_EQ(taken.error().code, ErrorCode::action_failed);
    EXPECT_EQ(taken.error().escalation_reason.value_or(""), "a foreground click in a takeover session may work");
}

TEST_F(ActRoute, AGtkFieldsEnterIsHeldBackAndNamedInTheError)
{
    const auto taken = run(field);
    ASSERT_FALSE(taken);
    EXPECT_EQ(taken.error().code, ErrorCode::action_not_offered);
    EXPECT_NE(taken.error().message.find("element " + std::to_string(field) + " (text) has no action for click; its actions: "),
              std::string::npos) << taken.error().message;
    EXPECT_NE(taken.error().message.find("Enter key"), std::string::npos) << taken.error().message;
    EXPECT_TRUE(taken.error().escalation_reason);
    EXPECT_TRUE(backend.acts.calls.empty());
    // Where activate is a click (the web's fields), it runs.
    backend.toolkit = "Chromium";
    const auto web = run(field);
    ASSERT_TRUE(web) << web.error().message;
    EXPECT_EQ(web->action, "activate");
}

TEST_F(ActRoute, ADisabledElementIsNotReadyAndNothingRuns)
{
    const auto taken = run(greyed);
    ASSERT_FALSE(taken);
    EXPECT_EQ(taken.error().code, ErrorCode::element_not_ready);
    EXPECT_TRUE(backend.acts.calls.empty());
}

// Chromium leaves the names empty in a bulk read: the element is asked for them, and a failure to
// answer them is the act's error. A read that did not ask (empty list) asks once, and a node
// without the Action interface answers that it has none.
TEST_F(ActRoute, EmptyActionNamesAreAskedOfTheElement)
{
    t.at(button).actions = {"", ""};
    backend.acts.live_names = std::vector<std::string>{"press", "showContextMenu"};
    auto snap = std::make_shared<nd_core::Snapshot>(t.snapshot());
    auto taken = nd_core::run_act_route(backend, nd_core::ElementRef{snap, button}, {});
    ASSERT_TRUE(taken) << taken.error().message;
    EXPECT_EQ(taken->action, "press");
    backend.acts.live_names = nd_core::make_error(ErrorCode::app_not_responding, "no answer");
    taken = nd_core::run_act_route(backend, nd_core::ElementRef{snap, button}, {});
    ASSERT_FALSE(taken);
    EXPECT_EQ(taken.error().code, ErrorCode::app_not_responding);
    // A label the read did not ask: its failed answer leaves it without actions, so its row's route.
    taken = nd_core::run_act_route(backend, nd_core::ElementRef{snap, label}, {.select_fallback = true});
    ASSERT_TRUE(taken) << taken.error().message;
    EXPECT_EQ(taken->action, "select");
    EXPECT_EQ(taken->index, row);
}

} // namespace
