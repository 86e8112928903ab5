// The mock backend as the engine sees it: the fixture desktop, tree reads and their limits, the
// registry report, and the hooks tests use to play the person and the apps.

#include "backend/mock/fixture_loader.h"
#include "backend/mock/mock_backend.h"
#include "core/model/policy.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

using namespace nd_core;
using nd_mock::MockBackend;

namespace {

constexpr std::int64_t CHATTER = 41943047;
constexpr std::int64_t GROCERIES = 41943112;
constexpr std::int64_t IDEAS = 41943113;
constexpr std::int64_t SETTINGS = 52428801;
constexpr std::int64_t CALCULATOR = 62914561;

std::unique_ptr<MockBackend> load_default()
{
    auto loaded = MockBackend::load(MockBackend::default_fixture_dir());
    if (!loaded.ok())
        ADD_FAILURE() << loaded.error().text();
    return loaded.ok() ? std::move(loaded).value() : nullptr;
}

WindowInfo window_of(MockBackend& backend, std::int64_t id)
{
    auto list = backend.windows()->list_windows();
    for (const auto& w : list.value())
        if (w.window_id == id)
            return w;
    ADD_FAILURE() << "no window " << id;
    return {};
}

RawTree read(MockBackend& backend, std::int64_t id, ReadLimits limits = {})
{
    auto tree = backend.trees()->read_window(window_of(backend, id), limits);
    if (!tree.ok()) {
        ADD_FAILURE() << tree.error().text();
        return {};
    }
    return std::move(tree).value();
}

} // namespace

TEST(MockBackend, DefaultFixturesLoadIntoTheRequiredDesktop)
{
    auto backend = load_default();
    ASSERT_TRUE(backend);
    EXPECT_EQ(backend->name(), "mock");
    EXPECT_EQ(backend->session_type(), "mock");
    auto list = backend->windows()->list_windows();
    ASSERT_TRUE(list.ok());
    ASSERT_EQ(list->size(), 5u);
    // Topmost first, exactly one active: the topmost.
    EXPECT_EQ((*list)[0].window_id, CHATTER);
    EXPECT_EQ((*list)[0].app, "Chatter");
    EXPECT_EQ((*list)[0].pid, 4242);
    EXPECT_EQ((*list)[0].title, "Chatter — #general");
    EXPECT_EQ(std::count_if(list->begin(), list->end(), [](const WindowInfo& w) { return w.active; }), 1);
    EXPECT_TRUE((*list)[0].active);

    auto groceries = window_of(*backend, GROCERIES);
    auto ideas = window_of(*backend, IDEAS);
    EXPECT_EQ(groceries.title, "Notes — Groceries");
    EXPECT_EQ(ideas.title, "Notes — Ideas");
    EXPECT_EQ(groceries.pid, 5120);
    EXPECT_EQ(ideas.pid, groceries.pid);
    EXPECT_EQ(window_of(*backend, SETTINGS).pid, 6001);
    EXPECT_EQ(window_of(*backend, CALCULATOR).pid, 7001);
    EXPECT_EQ(backend->fixture_files().size(), 4u);
}

// One line per element, everything a read gives of it.
std::vector<std::string> rows_of(MockBackend& backend, std::int64_t id)
{
    std::vector<std::string> rows;
    for (const auto& e : read(backend, id).elements) {
        std::string actions;
        for (const auto& a : e.actions)
            actions += a + ",";
        rows.push_back(e.key + " " + e.role + " " + e.name + " " + e.value + " " + e.description + " " +
                       std::to_string(e.states) + " " + actions + " " + std::to_string(e.frame.x) + "," +
                       std::to_string(e.frame.y) + "," + std::to_string(e.frame.w) + "," +
                       std::to_string(e.frame.h) + " " + std::to_string(e.parent) + " " + std::to_string(e.child_count));
    }
    return rows;
}

TEST(MockBackend, DesktopsMadeFromOneLoadReadAsTheLoadedOneAndChangeAlone)
{
    auto set = nd_mock::load_fixture_dir(MockBackend::default_fixture_dir());
    ASSERT_TRUE(set.ok()) << set.error().text();
    auto loaded = load_default();
    auto first = MockBackend::from(*set);
    auto second = MockBackend::from(*set);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(first->fixture_files(), loaded->fixture_files());
    for (auto id : {CHATTER, GROCERIES, IDEAS, SETTINGS, CALCULATOR})
        EXPECT_EQ(rows_of(*first, id), rows_of(*loaded, id)) << id;

    // A change to one copy (an element renamed, a window closed) leaves the other copies as they were.
    const auto before = rows_of(*second, SETTINGS);
    ASSERT_TRUE(first->mutate(SETTINGS, "settings.sign_in", nlohmann::json{{"name", "Changed"}}).ok());
    ASSERT_TRUE(first->close_window(CALCULATOR));
    EXPECT_NE(rows_of(*first, SETTINGS), before);
    EXPECT_EQ(rows_of(*second, SETTINGS), before);
    EXPECT_EQ(second->windows()->list_windows()->size(), 5u);
    EXPECT_EQ(MockBackend::from(*set)->windows()->list_windows()->size(), 5u);
}

TEST(MockBackend, ChatterIsDenseDeepAndInPreorder)
{
    auto backend = load_default();
    ASSERT_TRUE(backend);
    RawTree tree = read(*backend, CHATTER);
    ASSERT_GE(tree.elements.size(), 4000u);
    EXPECT_LE(tree.elements.size(), static_cast<std::size_t>(ReadLimits{}.max_elements));
    EXPECT_FALSE(tree.truncated);
    EXPECT_EQ(tree.elements[0].role, "frame");
    EXPECT_EQ(tree.elements[0].parent, -1);

    std::set<std::string> keys;
    std::int32_t max_depth = 0;
    std::vector<std::int32_t> children(tree.elements.size(), 0);
    for (std::size_t i = 0; i < tree.elements.size(); ++i) {
        const Element& e = tree.elements[i];
        EXPECT_TRUE(keys.insert(e.key).second) << "duplicate key " << e.key;
        if (i > 0) {
            ASSERT_GE(e.parent, 0);
            ASSERT_LT(e.parent, static_cast<std::int32_t>(i));
            EXPECT_EQ(e.depth, tree.elements[static_cast<std::size_t>(e.parent)].depth + 1);
            ++children[static_cast<std::size_t>(e.parent)];
        }
        max_depth = std::max(max_depth, e.depth);
    }
    for (std::size_t i = 0; i < tree.elements.size(); ++i)
        EXPECT_EQ(tree.elements[i].child_count, children[i]);
    EXPECT_GE(max_depth, 8);
    EXPECT_LE(max_depth, 12);

    auto named = [&](std::string_view role, std::string_view name) {
        return std::count_if(tree.elements.begin(), tree.elements.end(),
                             [&](const Element& e) { return e.role == role && e.name == name; });
    };
    EXPECT_EQ(named("list", "Channels"), 1);
    EXPECT_EQ(named("list", "Messages"), 1);
    EXPECT_EQ(named("split_pane", "Main"), 1);
    EXPECT_EQ(named("list_item", "Ada Lovelace: message 17"), 1);
    EXPECT_EQ(named("push_button", "Send"), 1);
    EXPECT_EQ(named("text", "Message #general"), 1);
    EXPECT_GE(named("push_button", "Reply"), 400);
    EXPECT_GE(named("push_button", "React"), 400);
    EXPECT_EQ(std::count_if(tree.elements.begin(), tree.elements.end(),
                            [](const Element& e) { return e.role == "tool_bar"; }),
              1);
}

TEST(MockBackend, ReadLimitsCutTheTreeAndSayTruncated)
{
    auto backend = load_default();
    ASSERT_TRUE(backend);
    ReadLimits few;
    few.max_elements = 100;
    RawTree cut = read(*backend, CHATTER, few);
    EXPECT_EQ(cut.elements.size(), 100u);
    EXPECT_TRUE(cut.truncated);

    ReadLimits shallow;
    shallow.max_depth = 3;
    RawTree flat = read(*backend, CHATTER, shallow);
    EXPECT_TRUE(flat.truncated);
    for (const auto& e : flat.elements)
        EXPECT_LE(e.depth, 3);
    for (std::size_t i = 0; i < flat.elements.size(); ++i)
        EXPECT_EQ(flat.elements[i].child_count,
                  std::count_if(flat.elements.begin(), flat.elements.end(),
                                [&](const Element& e) { return e.parent == static_cast<std::int32_t>(i); }));

    RawTree whole = read(*backend, CALCULATOR);
    EXPECT_FALSE(whole.truncated);

    ReadLimits bad;
    bad.max_elements = 0;
    auto refused = backend->trees()->read_window(window_of(*backend, CALCULATOR), bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::invalid_arguments);
}

TEST(MockBackend, SecureFieldValueIsNeverInTheTree)
{
    auto backend = load_default();
    ASSERT_TRUE(backend);
    RawTree tree = read(*backend, SETTINGS);
    auto secret = backend->secret(SETTINGS, "settings.password");
    ASSERT_TRUE(secret.has_value());
    ASSERT_FALSE(secret->empty());
    bool seen = false;
    for (const auto& e : tree.elements) {
        EXPECT_EQ(e.name.find(*secret), std::string::npos);
        EXPECT_EQ(e.value.find(*secret), std::string::npos);
        EXPECT_EQ(e.description.find(*secret), std::string::npos);
        if (e.key == "settings.password") {
            seen = true;
            EXPECT_EQ(e.role, "password_text");
            EXPECT_TRUE(e.is(STATE_SECURE));
            EXPECT_TRUE(e.is(STATE_EDITABLE));
            EXPECT_TRUE(e.value.empty());
            EXPECT_TRUE(is_secure_element(e.role, e.states));
        }
    }
    EXPECT_TRUE(seen);
}

TEST(MockBackend, RegistryMirrorsLinuxWithTheMockRequired)
{
    auto backend = load_default();
    ASSERT_TRUE(backend);
    RegistryReport report = backend->registry();
    EXPECT_EQ(report.platform, "linux");
    EXPECT_EQ(report.session_type, "mock");
    ASSERT_EQ(report.backends.size(), 2u);
    EXPECT_EQ(report.backends[0].id, "mock");
    EXPECT_EQ(report.backends[0].status, Status::available);
    EXPECT_TRUE(report.backends[0].required);
    EXPECT_EQ(report.backends[1].id, "wayland-portal");
    EXPECT_EQ(report.backends[1].status, Status::planned);
    EXPECT_FALSE(report.backends[1].required);
    EXPECT_EQ(report.backends[1].reason_code, std::optional<std::string>("wayland_portal_not_built"));
    EXPECT_TRUE(report.ready());

    const auto& names = capability_names();
    ASSERT_EQ(report.capabilities.size(), names.size());
    for (std::size_t i = 0; i < names.size(); ++i)
        EXPECT_EQ(report.capabilities[i].name, names[i]);
    auto cap = [&](std::string_view name) { return report.capability(name); };
    for (auto name : {"read_tree", "act_semantic", "capture_window", "clipboard_write"}) {
        ASSERT_TRUE(cap(name)) << name;
        EXPECT_EQ(cap(name)->status, Status::available);
        EXPECT_EQ(cap(name)->consent, ConsentKind::session);
    }
    for (auto name : {"input_takeover", "takeover_indicator", "takeover_handback"}) {
        EXPECT_EQ(cap(name)->status, Status::available);
        EXPECT_EQ(cap(name)->consent, ConsentKind::takeover);
    }
    EXPECT_EQ(cap("clipboard_read")->consent, ConsentKind::separate);
    for (auto name : {"list_notifications", "dismiss_notification", "invoke_notification_action"}) {
        EXPECT_EQ(cap(name)->status, Status::unsupported);
        EXPECT_EQ(cap(name)->reason_code, std::optional<std::string>("no_platform_api"));
    }
    ASSERT_EQ(report.probes.size(), 1u);
    EXPECT_EQ(report.probes[0].label, "mock desktop");
    EXPECT_EQ(report.probes[0].status, "ok");
    EXPECT_NE(report.probes[0].message.find("4 fixture files"), std::string::npos);
}

TEST(MockBackend, HungWindowFailsReadsActionsAndCaptures)
{
    auto backend = load_default();
    ASSERT_TRUE(backend);
    WindowInfo calc = window_of(*backend, CALCULATOR);
    RawTree tree = read(*backend, CALCULATOR);
    ASSERT_TRUE(backend->set_hung(CALCULATOR, true));
    auto r = backend->trees()->read_window(calc, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::app_not_responding);
    auto a = backend->actuator()->do_action(calc, tree.elements.back(), "click");
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.error().code, ErrorCode::app_not_responding);
    auto c = backend->capture()->capture_window(calc);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().code, ErrorCode::app_not_responding);
    // The window is still listed: a hung app keeps its windows.
    EXPECT_EQ(window_of(*backend, CALCULATOR).window_id, CALCULATOR);
    ASSERT_TRUE(backend->set_hung(CALCULATOR, false));
    EXPECT_TRUE(backend->trees()->read_window(calc, {}).ok());
    EXPECT_FALSE(backend->set_hung(12345, true));
}

TEST(MockBackend, ClosedWindowLeavesTheListAndFailsReads)
{
    auto backend = load_default();
    ASSERT_TRUE(backend);
    WindowInfo chatter = window_of(*backend, CHATTER);
    ASSERT_TRUE(backend->close_window(CHATTER));
    EXPECT_FALSE(backend->close_window(CHATTER));
    auto list = backend->windows()->list_windows();
    ASSERT_EQ(list->size(), 4u);
    EXPECT_EQ((*list)[0].window_id, GROCERIES);
    EXPECT_TRUE((*list)[0].active);
    auto r = backend->trees()->read_window(chatter, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::window_target_not_found);
}

TEST(MockBackend, MutateChangesASubtreeAsTheAppWould)
{
    auto backend = load_default();
    ASSERT_TRUE(backend);
    auto before = read(*backend, GROCERIES).elements.size();
    nlohmann::json patch = {{"name", "Shopping"},
                            {"value", "Tea"},
                            {"add_states", {"focused"}},
                            {"append", {{{"role", "label"}, {"id", "notes.extra"}, {"name", "Added"}}}}};
    ASSERT_TRUE(backend->mutate(GROCERIES, "notes.groceries.text", patch).ok());
    RawTree tree = read(*backend, GROCERIES);
    EXPECT_EQ(tree.elements.size(), before + 1);
    auto text = std::find_if(tree.elements.begin(), tree.elements.end(),
                             [](const Element& e) { return e.key == "notes.groceries.text"; });
    ASSERT_NE(text, tree.elements.end());
    EXPECT_EQ(text->name, "Shopping");
    EXPECT_EQ(text->value, "Tea");
    EXPECT_TRUE(text->is(STATE_FOCUSED));
    EXPECT_EQ(text->child_count, 1);

    // A bad patch changes nothing and says why.
    auto bad = backend->mutate(GROCERIES, "notes.groceries.text", {{"name", "X"}, {"states", {"shiny"}}});
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::invalid_arguments);
    EXPECT_NE(bad.error().message.find("shiny"), std::string::npos);
    EXPECT_EQ(backend->mutate(GROCERIES, "nope", {{"name", "X"}}).error().code, ErrorCode::element_not_found);
    EXPECT_EQ(backend->mutate(999, "nope", {{"name", "X"}}).error().code, ErrorCode::window_target_not_found);
    auto dup = backend->mutate(GROCERIES, "notes.groceries.text",
                               {{"append", {{"role", "label"}, {"id", "notes.extra"}}}});
    ASSERT_FALSE(dup.ok());
    EXPECT_NE(dup.error().message.find("duplicate id"), std::string::npos);

    ASSERT_TRUE(backend->mutate(GROCERIES, "notes.groceries.text", {{"remove", true}}).ok());
    EXPECT_EQ(read(*backend, GROCERIES).elements.size(), before - 1);
    // Making a field secure blanks its value from then on.
    ASSERT_TRUE(backend->mutate(IDEAS, "notes.ideas.text", {{"add_states", {"secure"}}}).ok());
    for (const auto& e : read(*backend, IDEAS).elements) {
        if (e.key == "notes.ideas.text") {
            EXPECT_TRUE(e.value.empty());
        }
    }
}

TEST(MockBackend, AddAppPutsItsWindowsOnTop)
{
    auto backend = load_default();
    ASSERT_TRUE(backend);
    nlohmann::json doc = {{"app", "Popup"},
                          {"pid", 9001},
                          {"windows",
                           {{{"id", 77}, {"title", "Popup"}, {"frame", {10, 10, 200, 100}},
                             {"root", {{"role", "frame"}, {"name", "Popup"}}}}}}};
    ASSERT_TRUE(backend->add_app(doc).ok());
    auto list = backend->windows()->list_windows();
    EXPECT_EQ((*list)[0].window_id, 77);
    EXPECT_TRUE((*list)[0].active);
    EXPECT_EQ(list->size(), 6u);
    auto again = backend->add_app(doc);
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.error().message.find("already used"), std::string::npos);
    RawTree tree = read(*backend, 77);
    ASSERT_EQ(tree.elements.size(), 1u);
    EXPECT_EQ(tree.elements[0].frame, (Frame{10, 10, 200, 100}));
}
