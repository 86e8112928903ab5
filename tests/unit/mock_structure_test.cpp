// The mock's changes as the engine's snapshot sees them: finish_tree agrees with the mock's shape,
// a calculator click keeps the structure hash (names are not structure) and the scripted
// structural changes (Send, Sign in, a tab) change it.

#include "backend/mock/mock_backend.h"
#include "core/model/snapshot.h"

#include <gtest/gtest.h>

using namespace nd_core;
using nd_mock::MockBackend;

namespace {

constexpr std::int64_t CHATTER = 41943047;
constexpr std::int64_t SETTINGS = 52428801;
constexpr std::int64_t CALCULATOR = 62914561;

class MockStructure : public ::testing::Test {
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
        return {};
    }

    std::vector<Element> read(std::int64_t id)
    {
        auto tree = backend->trees()->read_window(window(id), {});
        EXPECT_TRUE(tree.ok());
        return tree.ok() ? tree->elements : std::vector<Element>{};
    }

    std::uint64_t hash(std::int64_t id)
    {
        auto elements = read(id);
        return finish_tree(elements);
    }

    void act(std::int64_t id, const std::string& key, const char* action = "click")
    {
        Element e;
        e.key = key;
        auto done = backend->actuator()->do_action(window(id), e, action);
        ASSERT_TRUE(done.ok()) << done.error().text();
    }

    std::unique_ptr<MockBackend> backend;
};

} // namespace

TEST_F(MockStructure, FinishTreeAgreesWithTheReader)
{
    auto elements = read(CHATTER);
    auto finished = elements;
    finish_tree(finished);
    ASSERT_EQ(finished.size(), elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i) {
        EXPECT_EQ(finished[i].depth, elements[i].depth);
        EXPECT_EQ(finished[i].child_count, elements[i].child_count);
    }
    EXPECT_EQ(finished[0].descendant_count + 1, static_cast<std::int32_t>(finished.size()));
}

TEST_F(MockStructure, NamesAndStatesAreNotStructure)
{
    auto before = hash(CALCULATOR);
    act(CALCULATOR, "calc.key.4");
    act(CALCULATOR, "calc.key.2");
    EXPECT_EQ(hash(CALCULATOR), before);
    auto settings = hash(SETTINGS);
    act(SETTINGS, "settings.remember");
    EXPECT_EQ(hash(SETTINGS), settings);
}

TEST_F(MockStructure, ScriptedInsertsAndRemovalsAreStructure)
{
    auto chatter = hash(CHATTER);
    act(CHATTER, "chatter.send");
    EXPECT_NE(hash(CHATTER), chatter);

    auto settings = hash(SETTINGS);
    act(SETTINGS, "settings.sign_in");
    auto with_dialog = hash(SETTINGS);
    EXPECT_NE(with_dialog, settings);
    act(SETTINGS, "settings.dialog.ok");
    EXPECT_EQ(hash(SETTINGS), settings);

    act(SETTINGS, "settings.tab.advanced");
    EXPECT_NE(hash(SETTINGS), settings);
    act(SETTINGS, "settings.tab.general");
    // The General page comes back with the same keys, so the same structure.
    EXPECT_EQ(hash(SETTINGS), settings);
}
