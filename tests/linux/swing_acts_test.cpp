// Java's Swing, read through Java's ATK wrapper (toolkit J2SE-access-bridge), on a settings form of
// our own (fixtures/java/SwingForm.java). Java makes a list's items, a table's cells and its column
// headers anew each time they are asked for; two reads must still be one structure, or every act
// answers stale_element_token. Its combo box keeps its options three wrappers down, and its slider
// ignores Value writes. Each act is read back, and Save prints what the app itself holds.
//
// The table has 60 rows, not the by-hand 5,000: when the first AT-SPI listener appears (the
// driver's event connection), the ATK bridge builds its cache of the whole window, and the wrapper
// spends 0.3 s on that for 300 rows, 2.6 s for 2,000 and 16 s for 5,000, its event thread busy.

#include "support/temp_dir.h"
#include "toolkit_acts.h"
#include "tool_test_support.h"

#include <unistd.h>

namespace nd_test {
namespace {

constexpr const char* JAVAC = "/usr/bin/javac";
constexpr const char* ATK_WRAPPER_JAR = "/usr/share/java/java-atk-wrapper.jar";

// What the status line (a label left of Save's row, "idle" until Save) says.
std::string status_of(const json& all)
{
    bool after_save = false;
    for (const auto& row : all["elements"]) {
        if (after_save && row["role"] == "label")
            return row.value("name", "");
        after_save = after_save || (row["role"] == "push_button" && row.value("name", "") == "Save");
    }
    return "";
}

// The form compiled into a directory of its own, removed with the object; `argv` runs it.
class SwingForm {
public:
    SwingForm()
    {
        if (::access(JAVAC, X_OK) != 0 || ::access(ATK_WRAPPER_JAR, R_OK) != 0) {
            m_problem = "no JDK or no ATK wrapper for Java (scripts/setup installs openjdk-17-jdk and libatk-wrapper-java)";
            return;
        }
        const auto compiled = command_output(std::string(JAVAC) + " -d '" + m_classes.path + "' '" + NISH_SOURCE_DIR +
                                             "/fixtures/java/SwingForm.java' 2>&1 && echo compiled");
        if (compiled.find("compiled") == std::string::npos)
            m_problem = "javac: " + compiled;
    }

    // Empty when the form can run.
    const std::string& problem() const { return m_problem; }
    std::vector<std::string> argv(int rows = 60) const
    {
        return {"java", "-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper", "-cp",
                std::string(ATK_WRAPPER_JAR) + ":" + m_classes.path, "SwingForm", std::to_string(rows)};
    }

private:
    TempDir m_classes{"nish-swing"};
    std::string m_problem;
};

#define NISH_REQUIRE_SWING(form)                                                                      \
    do {                                                                                             \
        if ((form).problem().rfind("no ", 0) == 0)                                                   \
            GTEST_SKIP() << (form).problem();                                                        \
        ASSERT_EQ((form).problem(), "");                                                             \
    } while (0)

class SwingActs : public ToolkitActs {
protected:
    void SetUp() override
    {
        ToolkitActs::SetUp();
        if (HasFatalFailure() || IsSkipped())
            return;
        NISH_REQUIRE_SWING(m_form);
        open(m_form.argv(rows()), "SwingForm", 25);
        ASSERT_FALSE(m_window.is_null());
    }
    virtual int rows() const { return 60; }

    std::string saved()
    {
        click(nth(fresh(), "push_button", "Save"), "Save");
        std::string status;
        eventually([&](const json& a) { return (status = status_of(a)) != "idle"; });
        return status;
    }

    SwingForm m_form;
};

TEST_F(SwingActs, TwoReadsAreOneStructureAndActsReadBack)
{
    auto first = fresh();
    auto second = fresh();
    EXPECT_EQ(first["snapshot_id"], second["snapshot_id"]) << "two reads of an unchanged window differ";
    // The table's cells, made anew by Java on every ask, keep their tokens.
    auto cell = nth(first, "label", "row 5");
    ASSERT_FALSE(cell.is_null()) << "the table's cells are not in the read";
    EXPECT_EQ(cell["element_token"], nth(second, "label", "row 5")["element_token"]);
    EXPECT_EQ(status_of(first), "idle");

    expect_click_flips(second, "check_box", "Subscribe", 0, "checked");
    set_value(nth(fresh(), "text", "Name:"), "Ada", "the name field");
    EXPECT_EQ(value_of(nth(fresh(), "text", "Name:")), "Ada");

    // The combo box is named by its choice; its options sit in popup_menu > scroll_pane > viewport > list.
    auto plan = nth(fresh(), "combo_box", "Free");
    set_value(plan, "Pro", "the combo box");
    EXPECT_TRUE(eventually([](const json& a) { return !nth(a, "combo_box", "Pro").is_null(); }))
        << "the combo box does not show Pro";
    auto wrong = call("set_value", {{"element_token", nth(fresh(), "combo_box", "Pro")["element_token"]}, {"value", "Gold"}});
    ASSERT_TRUE(wrong.is_error) << wrong.text;
    EXPECT_EQ(wrong.code(), "invalid_arguments") << wrong.text;
    EXPECT_NE(wrong.text.find("\"Free\", \"Pro\", \"Team\""), std::string::npos) << wrong.text;

    // Java's slider ignores Value writes: said so, with the takeover's keys.
    auto slid = call("set_value", {{"element_token", nth(fresh(), "slider", "Volume")["element_token"]}, {"value", "70"}});
    ASSERT_TRUE(slid.is_error) << slid.text;
    EXPECT_EQ(slid.code(), "action_failed") << slid.text;
    EXPECT_NE(slid.text.find("ignores Value writes"), std::string::npos) << slid.text;
    EXPECT_EQ(slid.s["error"]["escalation"]["recommend"], "takeover") << slid.text;
    EXPECT_NE(slid.s["error"]["escalation"].dump().find("press_key Right"), std::string::npos) << slid.s.dump();

    auto secret = call("type_text", {{"element_token", nth(fresh(), "password_text", "Password:")["element_token"]},
                                     {"text", "hunter2"}});
    EXPECT_EQ(secret.code(), "secure_field_refused") << secret.text;
    EXPECT_EQ(saved(), "Ada|true|Pro|30");
}

// A table of more cells than a read enumerates (1,000), which Java makes anew at each ask as a
// spreadsheet does: read as the part on screen, with the table's size in its row. Whole, its 1,200
// cells cost about 5,000 calls at 0.3 ms; at 2,000 rows no read finished within its deadline.
class SwingBigTable : public SwingActs {
protected:
    int rows() const override { return 400; }
};

TEST_F(SwingBigTable, ReadsTheShowingPartOfTheTable)
{
    auto r = call("get_window_state", {{"window_id", m_window["window_id"]}, {"max_elements", 5000}});
    ASSERT_FALSE(r.is_error) << r.text;
    auto table = nth(r.s, "table", "");
    ASSERT_FALSE(table.is_null()) << r.text.substr(0, 3000);
    ASSERT_TRUE(table.contains("managed")) << table.dump();
    EXPECT_EQ(table["managed"]["children"], 1200);
    EXPECT_EQ(table["managed"]["rows"], 400);
    EXPECT_EQ(table["managed"]["visible_rows"][0], 0);
    EXPECT_LT(table["child_count"].get<int>(), 300) << "the table was read whole";
    EXPECT_FALSE(nth(r.s, "label", "row 0").is_null());
    EXPECT_TRUE(nth(r.s, "label", "row 399").is_null()) << "a row far off screen was read";
    // The part on screen keeps its tokens from read to read.
    EXPECT_EQ(nth(r.s, "label", "row 1")["element_token"], nth(fresh(), "label", "row 1")["element_token"]);
}

// In a takeover, what headless routes cannot do: typing into the field, and the slider's keys
// (the recipe of set_value's escalation for a slider that ignores Value).
class SwingTakeover : public TakeoverAppTest {
protected:
    void SetUp() override
    {
        NISH_REQUIRE_SWING(m_form);
        open_in_takeover(m_form.argv(), "SwingForm", 25);
    }

    json row(const std::string& role, const std::string& name)
    {
        auto found = find_row(read_all(m_window), role, name);
        EXPECT_FALSE(found.is_null()) << role << " \"" << name << "\" is not in the read";
        return found;
    }

    SwingForm m_form;
};

TEST_F(SwingTakeover, TypingAndTheSlidersKeysWork)
{
    auto typed = call("type_text", {{"element_token", row("text", "Name:")["element_token"]}, {"text", "Ada"},
                                    {"delivery_mode", "foreground"}});
    ASSERT_FALSE(typed.is_error) << typed.text;
    auto clicked = call("click", {{"element_token", row("slider", "Volume")["element_token"]},
                                  {"delivery_mode", "foreground"}});
    ASSERT_FALSE(clicked.is_error) << clicked.text;
    ASSERT_FALSE(call("press_key", {{"key", "Home"}}).is_error);
    for (int i = 0; i < 5; ++i)
        ASSERT_FALSE(call("press_key", {{"key", "Right"}}).is_error);
    std::string volume;
    EXPECT_TRUE(wait_until([&] { return (volume = row("slider", "Volume").value("value", "")) == "5"; }, CLICK_EFFECT))
        << "the slider reads " << volume;

    auto save = call("click", {{"element_token", row("push_button", "Save")["element_token"]}});
    ASSERT_FALSE(save.is_error) << save.text;
    std::string status;
    EXPECT_TRUE(wait_until([&] { return (status = status_of(read_all(m_window))) == "Ada|false|Free|5"; }, CLICK_EFFECT))
        << "the form holds " << status;
}

} // namespace
} // namespace nd_test
