// A Qt line edit that turns into a password field while the session runs (Qt 5's lineedits
// example: its Echo mode combo box set to Password with the keyboard of a takeover). The field
// reads as a secure field from then on: its text is in no read, no diff and no error, and a
// headless type_text or set_value is refused. Qt says so by role (password_text) and state.

#include "tool_test_support.h"

#include <thread>

namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr const char* TYPED = "hunter2-not-for-the-model";

class QtSecureField : public nd_test::TakeoverAppTest {
protected:
    void SetUp() override
    {
        open_in_takeover({nd_test::qt5_example("widgets/widgets/lineedits/lineedits")}, "lineedits", 30);
    }
};

TEST_F(QtSecureField, ALineEditTurnedPasswordIsNeverReadOrWritten)
{
    auto all = read_all(m_window);
    auto echo = find_row(all, "text", "Echo");
    ASSERT_FALSE(echo.is_null()) << all.dump().substr(0, 2000);
    auto typed = call("type_text", {{"element_token", echo["element_token"]}, {"text", TYPED}});
    ASSERT_FALSE(typed.is_error) << typed.text;

    // The person's way: the combo box focused by a click, its popup shut, Down picks "Password".
    auto combo = find_row(all, "combo_box", "Normal");
    ASSERT_FALSE(combo.is_null());
    auto clicked = call("click", {{"element_token", combo["element_token"]}, {"delivery_mode", "foreground"}});
    ASSERT_FALSE(clicked.is_error) << clicked.text;
    std::this_thread::sleep_for(300ms);
    ASSERT_FALSE(call("press_key", {{"window_id", m_window["window_id"]}, {"key", "Escape"}}).is_error);
    auto down = call("press_key", {{"window_id", m_window["window_id"]}, {"key", "Down"}});
    ASSERT_FALSE(down.is_error) << down.text;
    EXPECT_EQ(down.text.find(TYPED), std::string::npos) << "a diff showed the field's text";
    EXPECT_EQ(down.s.dump().find(TYPED), std::string::npos) << "a diff carried the field's text";

    json field;
    ASSERT_TRUE(nd_test::wait_until(
        [&] {
            all = read_all(m_window);
            field = find_row(all, "password_text", "Echo");
            return !field.is_null();
        },
        5s))
        << "the field did not turn into a password field: " << all.dump().substr(0, 2000);
    EXPECT_EQ(field["value_redacted"], true) << field.dump();
    EXPECT_FALSE(field.contains("value")) << field.dump();
    EXPECT_EQ(all.dump().find(TYPED), std::string::npos) << "the read carried the field's text";
    auto text = call("get_window_state", {{"window_id", m_window["window_id"]}, {"max_elements", 500}});
    EXPECT_EQ(text.text.find(TYPED), std::string::npos) << "the read's text showed the field's text";

    for (const auto* tool : {"type_text", "set_value"}) {
        auto r = call(tool, {{"element_token", field["element_token"]}, {"text", "x"}, {"value", "x"}});
        ASSERT_TRUE(r.is_error) << tool << ": " << r.text;
        EXPECT_EQ(r.code(), "secure_field_refused") << tool << ": " << r.text;
        EXPECT_EQ(r.text.find(TYPED), std::string::npos);
    }
}

} // namespace
