// Headless actions on gtk3-widget-factory through AT-SPI: element actions, text and values,
// selection, and what happens with keys that lead nowhere.

#include "atspi_test_app.h"

#include "backend/linux/atspi/atspi_actuator.h"

#include <thread>

namespace {

using namespace nd_test;

class AtspiActTest : public WidgetFactoryTest {
protected:
    void SetUp() override
    {
        WidgetFactoryTest::SetUp();
        if (m_bus)
            m_actuator = std::make_unique<nd_linux::AtspiActuator>(*m_bus);
    }
    const nd_core::Element& at(int i) const { return m_tree.elements[static_cast<std::size_t>(i)]; }

    // Re-reads until `done` holds for the element with `key` (the app updates after its main loop
    // runs), bounded; returns the last read.
    template<typename Pred>
    nd_core::RawTree reread_until(const std::string& key, Pred done)
    {
        nd_core::RawTree tree;
        for (int i = 0; i < 40; ++i) {
            tree = reread();
            int k = find_key(tree, key);
            if (k >= 0 && done(tree.elements[static_cast<std::size_t>(k)]))
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return tree;
    }

    std::unique_ptr<nd_linux::AtspiActuator> m_actuator;
};

TEST_F(AtspiActTest, clicking_a_check_box_toggles_it)
{
    int box = find(m_tree, "check_box", "checkbutton", nd_core::STATE_SHOWING | nd_core::STATE_ENABLED);
    ASSERT_GE(box, 0);
    const nd_core::Element before = at(box);
    bool was_checked = before.is(nd_core::STATE_CHECKED);
    ASSERT_TRUE(m_actuator->do_action(m_window, before, "click"));
    auto tree = reread_until(before.key, [&](const nd_core::Element& e) { return e.is(nd_core::STATE_CHECKED) != was_checked; });
    int again = find_key(tree, before.key);
    ASSERT_GE(again, 0);
    EXPECT_NE(tree.elements[static_cast<std::size_t>(again)].is(nd_core::STATE_CHECKED), was_checked);
}

TEST_F(AtspiActTest, pressing_a_toggle_button_changes_its_state)
{
    int button = find(m_tree, "toggle_button", "togglebutton", nd_core::STATE_SHOWING | nd_core::STATE_ENABLED);
    ASSERT_GE(button, 0);
    const nd_core::Element before = at(button);
    bool was = before.is(nd_core::STATE_CHECKED);
    ASSERT_TRUE(m_actuator->do_action(m_window, before, "click"));
    auto tree = reread_until(before.key, [&](const nd_core::Element& e) { return e.is(nd_core::STATE_CHECKED) != was; });
    int again = find_key(tree, before.key);
    ASSERT_GE(again, 0);
    EXPECT_NE(tree.elements[static_cast<std::size_t>(again)].is(nd_core::STATE_CHECKED), was);
}

TEST_F(AtspiActTest, an_unknown_action_fails_cleanly)
{
    int box = find(m_tree, "check_box");
    ASSERT_GE(box, 0);
    auto done = m_actuator->do_action(m_window, at(box), "no-such-action");
    ASSERT_FALSE(done);
    EXPECT_EQ(done.error().code, nd_core::ErrorCode::action_not_offered); // nothing was sent
}

TEST_F(AtspiActTest, set_value_into_an_entry_reads_back)
{
    int entry = -1;
    for (std::size_t i = 0; i < m_tree.elements.size() && entry < 0; ++i)
        if (m_tree.elements[i].role == "text" && m_tree.elements[i].value == "entry" &&
            m_tree.elements[i].is(nd_core::STATE_EDITABLE))
            entry = static_cast<int>(i);
    ASSERT_GE(entry, 0);
    ASSERT_TRUE(m_actuator->set_value(m_window, at(entry), "hello from nish"));
    auto value = m_actuator->read_value(m_window, at(entry));
    ASSERT_TRUE(value) << value.error().text();
    EXPECT_EQ(*value, "hello from nish");
    auto tree = reread();
    int again = find_key(tree, at(entry).key);
    ASSERT_GE(again, 0);
    EXPECT_EQ(tree.elements[static_cast<std::size_t>(again)].value, "hello from nish");

    auto secure = m_actuator->is_secure_now(m_window, at(entry));
    ASSERT_TRUE(secure) << secure.error().text();
    EXPECT_FALSE(*secure);
}

TEST_F(AtspiActTest, insert_text_goes_in_at_the_caret_or_the_end)
{
    int entry = -1;
    for (std::size_t i = 0; i < m_tree.elements.size() && entry < 0; ++i)
        if (m_tree.elements[i].role == "text" && m_tree.elements[i].value == "entry" &&
            m_tree.elements[i].is(nd_core::STATE_EDITABLE))
            entry = static_cast<int>(i);
    ASSERT_GE(entry, 0);
    ASSERT_TRUE(m_actuator->set_value(m_window, at(entry), "abc"));
    ASSERT_TRUE(m_actuator->insert_text(m_window, at(entry), "XY"));
    auto value = m_actuator->read_value(m_window, at(entry));
    ASSERT_TRUE(value) << value.error().text();
    EXPECT_EQ(value->size(), 5u);
    EXPECT_NE(value->find("XY"), std::string::npos);
}

TEST_F(AtspiActTest, set_value_on_a_spin_button_sets_its_number)
{
    int spin = find(m_tree, "spin_button", "", nd_core::STATE_ENABLED);
    ASSERT_GE(spin, 0);
    ASSERT_TRUE(m_actuator->set_value(m_window, at(spin), "42"));
    auto value = m_actuator->read_value(m_window, at(spin));
    ASSERT_TRUE(value) << value.error().text();
    EXPECT_EQ(*value, "42");
    auto refused = m_actuator->set_value(m_window, at(spin), "forty-two");
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, nd_core::ErrorCode::invalid_arguments);
}

TEST_F(AtspiActTest, selecting_a_page_tab_switches_the_page)
{
    // The first notebook: select a tab that is not selected; its page starts showing and the
    // page of the tab selected before stops.
    int list = find(m_tree, "page_tab_list");
    ASSERT_GE(list, 0);
    int target = -1, previous = -1;
    for (std::size_t i = 0; i < m_tree.elements.size(); ++i) {
        const auto& e = m_tree.elements[i];
        if (e.parent != list || e.role != "page_tab")
            continue;
        if (e.is(nd_core::STATE_SELECTED))
            previous = static_cast<int>(i);
        else if (target < 0)
            target = static_cast<int>(i);
    }
    ASSERT_GE(target, 0);
    ASSERT_GE(previous, 0);
    ASSERT_TRUE(m_actuator->select(m_window, at(target)));
    auto tree = reread_until(at(target).key, [](const nd_core::Element& e) { return e.is(nd_core::STATE_SELECTED); });
    int t = find_key(tree, at(target).key), p = find_key(tree, at(previous).key);
    ASSERT_GE(t, 0);
    ASSERT_GE(p, 0);
    const auto& now_target = tree.elements[static_cast<std::size_t>(t)];
    const auto& now_previous = tree.elements[static_cast<std::size_t>(p)];
    EXPECT_TRUE(now_target.is(nd_core::STATE_SELECTED));
    EXPECT_FALSE(now_previous.is(nd_core::STATE_SELECTED));
    // The pages below the tabs: the new one shows, the old one does not.
    ASSERT_EQ(now_target.child_count, 1);
    ASSERT_EQ(now_previous.child_count, 1);
    EXPECT_TRUE(tree.elements[static_cast<std::size_t>(t) + 1].is(nd_core::STATE_SHOWING));
    EXPECT_FALSE(tree.elements[static_cast<std::size_t>(p) + 1].is(nd_core::STATE_SHOWING));
}

TEST_F(AtspiActTest, keys_that_lead_nowhere_are_element_not_found)
{
    nd_core::Element bogus = m_tree.elements[1];
    bogus.key = "not a key";
    auto a = m_actuator->do_action(m_window, bogus, "click");
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().code, nd_core::ErrorCode::element_not_found);

    auto ref = nd_linux::parse_key(m_tree.elements[1].key);
    ASSERT_TRUE(ref);
    bogus.key = ref->bus + "|/org/a11y/atspi/accessible/987654";
    auto v = m_actuator->read_value(m_window, bogus);
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().code, nd_core::ErrorCode::element_not_found);

    bogus.key = ":1.999999|/org/a11y/atspi/accessible/1";
    auto s = m_actuator->is_secure_now(m_window, bogus);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, nd_core::ErrorCode::element_not_found);

    // The element of this app, named for another process's window.
    nd_core::WindowInfo other = m_window;
    other.pid = m_window.pid + 100000;
    auto o = m_actuator->do_action(other, m_tree.elements[1], "click");
    ASSERT_FALSE(o);
    EXPECT_EQ(o.error().code, nd_core::ErrorCode::element_not_found);
}

} // namespace
