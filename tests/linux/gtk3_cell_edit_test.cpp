// A GTK3 tree view's editable cell (gtk3-demo's Editable Cells): its `Edit` action cannot run in
// GTK 3.24 and it has neither EditableText nor Value, so set_value refuses it and recommends the
// takeover; the escalation's own recipe (a foreground click on the selected row's cell opens its
// editor, then ctrl+a, the keys and Return) then changes it, read back from a fresh read.

#include "tool_test_support.h"

namespace nd_test {
namespace {

class Gtk3CellEdit : public TakeoverAppTest {
protected:
    void SetUp() override { open_in_takeover({"gtk3-demo", "--run=editable_cells"}, "gtk3-demo", 20, "Editable Cells"); }

    json cell(const std::string& name) { return find_row(read_all(m_window), "table_cell", name); }
};

TEST_F(Gtk3CellEdit, SetValueRecommendsTheTakeoverWhoseRecipeEditsTheCell)
{
    auto coke = cell("bottles of coke");
    ASSERT_FALSE(coke.is_null()) << read_all(m_window).dump().substr(0, 2000);
    ASSERT_TRUE(has_state(coke, "selected")) << "the demo starts with its first row selected";

    auto refused = call("set_value", {{"element_token", coke["element_token"]}, {"value", "pears"}});
    ASSERT_TRUE(refused.is_error) << refused.text;
    EXPECT_EQ(refused.code(), "action_not_offered") << refused.text;
    EXPECT_NE(refused.text.find("offers Edit"), std::string::npos) << refused.text;
    EXPECT_EQ(refused.s["error"]["escalation"]["recommend"], "takeover") << refused.text;
    EXPECT_NE(refused.s["error"]["escalation"]["reason"].get<std::string>().find("open its editor"), std::string::npos);
    ASSERT_FALSE(cell("bottles of coke").is_null()) << "the refused set_value changed the cell";

    auto opened = call("click", {{"element_token", coke["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(opened.is_error) << opened.text;
    ASSERT_FALSE(call("hotkey", {{"keys", {"ctrl", "a"}}}).is_error);
    for (const char* key : {"p", "e", "a", "r", "s", "Return"}) {
        auto pressed = call("press_key", {{"key", key}});
        ASSERT_FALSE(pressed.is_error) << key << ": " << pressed.text;
    }
    EXPECT_TRUE(wait_until([&] { return !cell("pears").is_null(); }, std::chrono::seconds(3)))
        << "the cell does not read pears: " << read_all(m_window).dump().substr(0, 2000);
}

} // namespace
} // namespace nd_test
