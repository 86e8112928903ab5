// The mock desktop's ElementFinder: the same hits as filtering a read, in read order, with the
// finder contract (flat hits, no values, truncation, the read's errors) and the shared name rule.

#include "backend/mock/fixture_loader.h"
#include "backend/mock/mock_backend.h"
#include "backend/mock/mock_finder.h"
#include "backend/mock/mock_tree_reader.h"

#include <gtest/gtest.h>

#include <memory>

using namespace nd_core;
using nd_mock::DesktopState;
using nd_mock::MockFinder;

namespace {

constexpr std::int64_t SETTINGS = 52428801;
constexpr std::int64_t CALCULATOR = 62914561;
constexpr const char* SECRET = "correct-horse-battery-staple"; // the settings password's secret

class MockFinderTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        auto set = nd_mock::load_fixture_dir(nd_mock::MockBackend::default_fixture_dir());
        ASSERT_TRUE(set.ok()) << set.error().text();
        m_state.windows = std::move(set->windows);
    }

    WindowInfo window(std::int64_t id)
    {
        nd_mock::MockWindow* w = m_state.find_window(id);
        if (!w) {
            ADD_FAILURE() << "no window " << id;
            return {};
        }
        return w->info;
    }

    FindResult find(std::int64_t id, FindQuery query)
    {
        auto r = m_finder.find(window(id), query);
        if (!r.ok()) {
            ADD_FAILURE() << r.error().text();
            return {};
        }
        return std::move(r).value();
    }

    // What filtering a whole read gives: the reference the finder must agree with.
    std::vector<std::string> keys_by_read(std::int64_t id, const FindQuery& query)
    {
        nd_mock::MockTreeReader reader(m_state);
        auto tree = reader.read_window(window(id), ReadLimits{});
        EXPECT_TRUE(tree.ok());
        std::vector<std::string> keys;
        for (const auto& e : tree->elements)
            if (query_matches(query, e.role, e.name))
                keys.push_back(e.key);
        return keys;
    }

    static std::vector<std::string> keys(const FindResult& r)
    {
        std::vector<std::string> out;
        for (const auto& e : r.elements)
            out.push_back(e.key);
        return out;
    }

    DesktopState m_state;
    MockFinder m_finder{m_state};
};

} // namespace

TEST(NameContains, IsACaseInsensitiveAsciiSubstring)
{
    EXPECT_TRUE(name_contains("Sign in", ""));
    EXPECT_TRUE(name_contains("", ""));
    EXPECT_TRUE(name_contains("Sign in", "sign"));
    EXPECT_TRUE(name_contains("Sign in", "GN I"));
    EXPECT_TRUE(name_contains("Sign in", "Sign in"));
    EXPECT_FALSE(name_contains("Sign in", "Sign in now"));
    EXPECT_FALSE(name_contains("Sign in", "sing"));
    EXPECT_FALSE(name_contains("", "a"));
    // Bytes past ASCII compare exactly: "É" does not fold to "é".
    EXPECT_TRUE(name_contains("Caf\xC3\xA9 menu", "caf\xC3\xA9"));
    EXPECT_FALSE(name_contains("CAF\xC3\x89", "caf\xC3\xA9"));
}

TEST(NameContains, QueryMatchesWantsBothRoleAndName)
{
    FindQuery q;
    EXPECT_TRUE(query_matches(q, "push_button", "OK"));
    q.role = "push_button";
    EXPECT_TRUE(query_matches(q, "push_button", "OK"));
    EXPECT_FALSE(query_matches(q, "push_button_menu", "OK")); // roles compare whole
    q.name = "ok";
    EXPECT_TRUE(query_matches(q, "push_button", "OK"));
    EXPECT_FALSE(query_matches(q, "push_button", "Cancel"));
}

TEST_F(MockFinderTest, RoleSearchGivesEveryElementOfTheRoleInReadOrder)
{
    FindQuery q;
    q.role = "push_button";
    q.max_results = 1000;
    for (std::int64_t id : {SETTINGS, CALCULATOR}) {
        auto r = find(id, q);
        EXPECT_FALSE(r.truncated);
        EXPECT_EQ(keys(r), keys_by_read(id, q)) << id;
        for (const auto& e : r.elements)
            EXPECT_EQ(e.role, "push_button");
    }
    EXPECT_GE(find(CALCULATOR, q).elements.size(), 16u);
}

TEST_F(MockFinderTest, NameFragmentIgnoresCaseAndCombinesWithRole)
{
    FindQuery q;
    q.name = "SIGN i";
    auto r = find(SETTINGS, q);
    ASSERT_EQ(r.elements.size(), 1u);
    EXPECT_EQ(r.elements[0].name, "Sign in");
    EXPECT_EQ(r.elements[0].role, "push_button");
    EXPECT_EQ(r.elements[0].key, "settings.sign_in");
    EXPECT_EQ(r.elements[0].actions, std::vector<std::string>{"click"});
    EXPECT_TRUE(r.elements[0].has_frame);

    q.name = "general";
    auto any_role = find(SETTINGS, q);
    EXPECT_EQ(keys(any_role), keys_by_read(SETTINGS, q));
    EXPECT_GE(any_role.elements.size(), 2u); // the tab and its page
    q.role = "page_tab";
    auto tab = find(SETTINGS, q);
    ASSERT_EQ(tab.elements.size(), 1u);
    EXPECT_EQ(tab.elements[0].key, "settings.tab.general");
}

TEST_F(MockFinderTest, TheWindowRootIsAHitWhenItMatches)
{
    FindQuery q;
    q.role = "frame";
    auto r = find(CALCULATOR, q);
    ASSERT_EQ(r.elements.size(), 1u);
    EXPECT_EQ(r.elements[0].name, "Calculator");
}

TEST_F(MockFinderTest, MaxResultsCutsAndSaysSo)
{
    FindQuery q;
    q.role = "push_button";
    q.max_results = 1000;
    const auto all = keys(find(CALCULATOR, q));
    ASSERT_GE(all.size(), 4u);

    q.max_results = 3;
    auto cut = find(CALCULATOR, q);
    EXPECT_TRUE(cut.truncated);
    EXPECT_EQ(keys(cut), std::vector<std::string>(all.begin(), all.begin() + 3));

    q.max_results = static_cast<std::int32_t>(all.size());
    auto exact = find(CALCULATOR, q);
    EXPECT_FALSE(exact.truncated);
    EXPECT_EQ(keys(exact), all);
}

TEST_F(MockFinderTest, NoMatchIsAnEmptyResultNotAnError)
{
    FindQuery q;
    q.name = "no element is called this";
    auto r = find(SETTINGS, q);
    EXPECT_TRUE(r.elements.empty());
    EXPECT_FALSE(r.truncated);
    q = {};
    q.role = "no_such_role";
    EXPECT_TRUE(find(SETTINGS, q).elements.empty());
}

TEST_F(MockFinderTest, HitsAreFlatAndCarryNoValueSecureFieldsMarked)
{
    FindQuery q;
    q.max_results = 1000;
    auto r = find(SETTINGS, q);
    ASSERT_EQ(keys(r), keys_by_read(SETTINGS, q));
    bool saw_password = false;
    for (const auto& e : r.elements) {
        EXPECT_EQ(e.parent, -1);
        EXPECT_EQ(e.depth, 0);
        EXPECT_EQ(e.child_count, 0);
        EXPECT_TRUE(e.value.empty()) << e.key; // the slider's "30" too: finders carry no values
        if (e.has_frame) {
            EXPECT_TRUE(e.is(STATE_SHOWING)) << e.key;
        }
        EXPECT_EQ(e.name.find(SECRET), std::string::npos);
        if (e.role == "password_text") {
            saw_password = true;
            EXPECT_TRUE(e.is(STATE_SECURE));
            EXPECT_TRUE(e.secure());
        }
    }
    EXPECT_TRUE(saw_password);
}

TEST_F(MockFinderTest, FailsAsAReadWould)
{
    FindQuery q;
    WindowInfo gone = window(SETTINGS);
    gone.window_id = 12345;
    auto missing = m_finder.find(gone, q);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::window_target_not_found);

    m_state.find_window(SETTINGS)->hung = true;
    auto hung = m_finder.find(window(SETTINGS), q);
    ASSERT_FALSE(hung.ok());
    EXPECT_EQ(hung.error().code, ErrorCode::app_not_responding);
    m_state.find_window(SETTINGS)->hung = false;

    m_state.find_window(SETTINGS)->answer_time = std::chrono::milliseconds(5000);
    q.deadline = std::chrono::milliseconds(100);
    auto slow = m_finder.find(window(SETTINGS), q);
    ASSERT_FALSE(slow.ok());
    EXPECT_EQ(slow.error().code, ErrorCode::timed_out);
    m_state.find_window(SETTINGS)->answer_time = {};

    q = {};
    q.max_results = 0;
    auto bad = m_finder.find(window(SETTINGS), q);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::invalid_arguments);
}
