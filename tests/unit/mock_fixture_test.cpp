// The fixture format: repeat blocks, templates and placeholders, and a clear error naming the file
// and the place for every kind of bad fixture.

#include "backend/mock/mock_backend.h"
#include "backend/mock/placeholders.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <cstdlib>
#include <fstream>

#include <unistd.h>

using namespace nd_core;
using nd_mock::MockBackend;

namespace {

namespace fs = std::filesystem;

class FixtureDir : public ::testing::Test {
protected:
    void SetUp() override
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir = fs::temp_directory_path() / ("nish_mock_fixture_" + std::string(info->name()) + "_" +
                                           std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    void write(const std::string& name, const std::string& text)
    {
        std::ofstream(dir / name) << text;
    }

    // A one-window app whose root has `children` (JSON text).
    static std::string app(const std::string& children, std::int64_t id = 100, const std::string& extra = "")
    {
        return R"({"app": "T", "pid": 1, )" + extra + R"( "windows": [{"id": )" + std::to_string(id) +
               R"(, "title": "T", "frame": [0, 0, 400, 300], "root": {"role": "frame", "children": )" + children +
               "}}]}";
    }

    Error load_error()
    {
        auto loaded = MockBackend::load(dir.string());
        EXPECT_FALSE(loaded.ok());
        return loaded.ok() ? Error() : loaded.error();
    }

    std::vector<Element> read_first()
    {
        auto loaded = MockBackend::load(dir.string());
        EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().text());
        if (!loaded.ok())
            return {};
        auto list = (*loaded)->windows()->list_windows();
        auto tree = (*loaded)->trees()->read_window(list->front(), {});
        return tree.ok() ? tree->elements : std::vector<Element>{};
    }

    fs::path dir;
};

} // namespace

TEST(MockPlaceholders, ExpandIndexPickTextAndBraces)
{
    nd_mock::PlaceholderContext ctx;
    ctx.index = 17;
    EXPECT_EQ(nd_mock::expand_placeholders("m{i}", ctx).value(), "m17");
    EXPECT_EQ(nd_mock::expand_placeholders("{i%5}", ctx).value(), "2");
    EXPECT_EQ(nd_mock::expand_placeholders("{i+3}", ctx).value(), "20");
    EXPECT_EQ(nd_mock::expand_placeholders("{i%10+1}", ctx).value(), "8");
    EXPECT_EQ(nd_mock::expand_placeholders("10:{i%60:2}", ctx).value(), "10:17");
    EXPECT_EQ(nd_mock::expand_placeholders("{i%4:3}", ctx).value(), "001");
    EXPECT_EQ(nd_mock::expand_placeholders("{pick:a|b|c}", ctx).value(), "c");
    EXPECT_EQ(nd_mock::expand_placeholders("{{x}}", ctx).value(), "{x}");
    EXPECT_FALSE(nd_mock::expand_placeholders("{text}", ctx).ok());
    EXPECT_FALSE(nd_mock::expand_placeholders("{j}", ctx).ok());
    EXPECT_FALSE(nd_mock::expand_placeholders("{i%0}", ctx).ok());
    EXPECT_FALSE(nd_mock::expand_placeholders("open {i", ctx).ok());
    EXPECT_FALSE(nd_mock::expand_placeholders("close }", ctx).ok());
    EXPECT_FALSE(nd_mock::expand_placeholders("{i}", {}).ok());
    ctx.text = "hi";
    EXPECT_EQ(nd_mock::expand_placeholders("You: {text}", ctx).value(), "You: hi");
}

TEST_F(FixtureDir, RepeatExpandsWithIndexStepAndTemplates)
{
    write("a.json", app(R"([{"repeat": 3, "from": 5, "step": [0, 10], "template":
        {"use": "row", "name": "row {i}", "children": [{"role": "label", "id": "l{i}", "name": "{pick:x|y}"}]}}])",
                        100, R"("templates": {"row": {"role": "list_item", "id": "r{i}", "frame": [1, 2, 30, 10],
                                 "states": ["enabled"]}},)"));
    auto elements = read_first();
    ASSERT_EQ(elements.size(), 7u);
    EXPECT_EQ(elements[1].key, "r5");
    EXPECT_EQ(elements[1].name, "row 5");
    EXPECT_EQ(elements[1].role, "list_item");
    EXPECT_EQ(elements[1].frame, (Frame{1, 2, 30, 10}));
    EXPECT_TRUE(elements[1].is(STATE_ENABLED));
    EXPECT_EQ(elements[2].key, "l5");
    EXPECT_EQ(elements[2].name, "y");
    EXPECT_EQ(elements[5].key, "r7");
    EXPECT_EQ(elements[5].frame, (Frame{1, 22, 30, 10}));
    EXPECT_EQ(elements[6].name, "y");
    EXPECT_EQ(elements[4].name, "x");
    // The root without an id gets a reserved automatic key; without a frame, the window's.
    EXPECT_TRUE(elements[0].key.starts_with("auto."));
    EXPECT_EQ(elements[0].frame, (Frame{0, 0, 400, 300}));
}

TEST_F(FixtureDir, FilesLoadInNameOrder)
{
    write("b.json", app("[]", 2));
    write("a.json", app("[]", 1));
    write("notes.txt", "not a fixture");
    auto loaded = MockBackend::load(dir.string());
    ASSERT_TRUE(loaded.ok()) << loaded.error().text();
    EXPECT_EQ((*loaded)->fixture_files(), (std::vector<std::string>{"a.json", "b.json"}));
    auto list = (*loaded)->windows()->list_windows();
    EXPECT_EQ((*list)[0].window_id, 1);
    EXPECT_EQ((*list)[1].window_id, 2);
}

TEST_F(FixtureDir, BadFixturesNameTheFileAndTheProblem)
{
    struct Case {
        std::string text;
        std::string expect;
    };
    const std::vector<Case> cases = {
        {"{\"app\": ", "not valid JSON"},
        {R"({"app": "T", "pid": 1e999, "windows": []})", "number overflow"},
        {"[]", "must be an object"},
        {R"({"app": "T", "pid": 1, "windows": []})", "non-empty array"},
        {R"({"app": "T", "pid": -1, "windows": []})", "pid"},
        {app(R"([{"role": "label", "states": ["shiny"]}])"), "unknown state"},
        {app(R"([{"role": "Push Button"}])"), "snake_case"},
        {app(R"([{"role": "label", "id": "x"}, {"role": "label", "id": "x"}])"), "duplicate id \"x\""},
        {app(R"([{"use": "nothing"}])"), "unknown template \"nothing\""},
        {app(R"([{"role": "label", "name": "n{i}"}])"), "outside a repeat"},
        {app(R"([{"role": "label", "colour": "red"}])"), "unknown field \"colour\""},
        {app(R"([{"role": "push_button", "actions": ["click"], "effects": {"press": []}}])"), "not one of the element"},
        {app(R"([{"role": "push_button", "actions": ["click"], "effects": {"click": [{"explode": 1}]}}])"),
         "unknown field \"explode\""},
        {app(R"([{"role": "push_button", "actions": ["click"], "effects": {"click": [{"insert": "ghost"}]}}])"),
         "unknown template \"ghost\""},
        {app(R"([{"role": "password_text", "value": "hunter2"}])"), "secret"},
        {app(R"([{"role": "slider", "value": "300", "range": [0, 100]}])"), "within its range"},
        {app(R"([{"role": "label", "frame": [0, 0, -5, 5]}])"), "negative"},
        {app(R"([{"repeat": 2, "template": {"role": "label", "id": "same"}}])"), "duplicate id"},
        {app(R"([{"role": "label", "id": "auto.1"}])"), "reserved"},
        {app(R"([{"use": "loop"}])", 100, R"("templates": {"loop": {"use": "loop"}},)"), "nest too deeply"},
    };
    for (const auto& c : cases) {
        fs::remove_all(dir);
        fs::create_directories(dir);
        write("50_broken.json", c.text);
        Error error = load_error();
        EXPECT_EQ(error.code, ErrorCode::invalid_arguments) << c.text;
        EXPECT_NE(error.message.find("50_broken.json"), std::string::npos) << error.message;
        EXPECT_NE(error.message.find(c.expect), std::string::npos) << c.expect << " not in: " << error.message;
    }
}

TEST_F(FixtureDir, ErrorsNameThePathInsideTheFile)
{
    write("x.json", app(R"([{"role": "panel", "children": [{"role": "label"}, {"role": "label", "states": [1]}]}])"));
    Error error = load_error();
    EXPECT_NE(error.message.find("windows[0].root.children[0].children[1]"), std::string::npos) << error.message;
}

TEST_F(FixtureDir, DeepNestingIsRefusedNotACrash)
{
    std::string deep;
    for (int i = 0; i < 2000; ++i)
        deep += R"({"role": "panel", "children": [)";
    for (int i = 0; i < 2000; ++i)
        deep += "]}";
    write("deep.json", app("[" + deep + "]"));
    Error error = load_error();
    EXPECT_EQ(error.code, ErrorCode::invalid_arguments);
    EXPECT_NE(error.message.find("nest deeper"), std::string::npos) << error.message.substr(0, 200);
}

TEST_F(FixtureDir, WindowIdsAreUniqueAcrossFiles)
{
    write("a.json", app("[]", 7));
    write("b.json", app("[]", 7));
    Error error = load_error();
    EXPECT_NE(error.message.find("b.json"), std::string::npos);
    EXPECT_NE(error.message.find("already used"), std::string::npos);
}

TEST_F(FixtureDir, MissingOrEmptyDirectoryIsAnInternalError)
{
    Error empty = load_error();
    EXPECT_EQ(empty.code, ErrorCode::internal_error);
    EXPECT_NE(empty.message.find("no *.json"), std::string::npos);
    auto missing = MockBackend::load((dir / "absent").string());
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::internal_error);
}

TEST(MockFixtureDir, EnvironmentOverridesTheDefault)
{
    ::setenv("NISH_MOCK_FIXTURES", "/somewhere/else", 1);
    EXPECT_EQ(MockBackend::default_fixture_dir(), "/somewhere/else");
    ::unsetenv("NISH_MOCK_FIXTURES");
    EXPECT_TRUE(MockBackend::default_fixture_dir().ends_with("/fixtures/mock"));
}
