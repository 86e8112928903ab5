// Reads through the dispatcher on the mock: skeleton, drill-down and full views of one snapshot,
// token stability and staleness, targeting, scope, screenshots, hung and closed windows.

#include "png_decode.h"
#include "tool_harness.h"

#include "backend/mock/mock_tree_reader.h"

#include <regex>

namespace {

using nd_test::ToolHarness;
using nlohmann::json;

constexpr std::int64_t SETTINGS = 52428801;
constexpr std::int64_t CHATTER = 41943047;

json row_named(const json& read, const std::string& name, const char* field = "name")
{
    for (const auto& row : read["elements"])
        if (row.value(field, "") == name)
            return row;
    return nullptr;
}

TEST(ReadTools, SkeletonFollowsTheRule)
{
    ToolHarness h;
    h.start();
    auto r = h.call("get_window_state", {{"app", "Chatter"}, {"skeleton", true}});
    ASSERT_FALSE(r.is_error) << r.text;
    const auto& rows = r.structured["elements"];
    EXPECT_LE(rows.size(), 60u);
    EXPECT_GE(r.structured["total_elements"].get<int>(), 4000);
    std::set<int> indices;
    const std::regex line(R"(^\s*\[\d+\] \S+ ".*" children=\d+ descendants=\d+$)");
    std::istringstream text(r.text);
    std::string header;
    std::getline(text, header);
    for (std::string l; std::getline(text, l);)
        EXPECT_TRUE(std::regex_match(l, line)) << l;
    for (const auto& row : rows) {
        indices.insert(row["element_index"].get<int>());
        EXPECT_LE(row["label"].get<std::string>().size(), 80u * 4);
        if (!row["parent_index"].is_null()) {
            EXPECT_TRUE(indices.count(row["parent_index"].get<int>())) << row.dump();
        }
        if (row["element_index"] != 0) {
            EXPECT_GT(row["child_count"].get<int>(), 0) << row.dump();
        }
        EXPECT_LE(row["depth"].get<int>(), 4);
        EXPECT_NE(row["role"], "password_text");
    }
}

TEST(ReadTools, SecureFieldsNeverInSkeletonAndRedactedInFull)
{
    ToolHarness h;
    h.start();
    auto skeleton = h.call("get_window_state", {{"app", "Settings"}, {"skeleton", true}, {"max_depth", 25}});
    EXPECT_TRUE(row_named(skeleton.structured, "Password", "label").is_null());
    auto full = h.call("get_window_state", {{"app", "Settings"}});
    auto pw = row_named(full.structured, "Password");
    ASSERT_FALSE(pw.is_null());
    EXPECT_EQ(pw["value_redacted"], true);
    EXPECT_FALSE(pw.contains("value"));
    auto secret = h.mock().secret(SETTINGS, "settings.password");
    ASSERT_TRUE(secret.has_value());
    EXPECT_EQ(full.text.find(*secret), std::string::npos);
    EXPECT_EQ(full.structured.dump().find(*secret), std::string::npos);
}

TEST(ReadTools, SkeletonDrillDownAndFullShareRowNumbers)
{
    ToolHarness h;
    h.start();
    auto skeleton = h.call("get_window_state", {{"app", "Chatter"}, {"skeleton", true}});
    auto history = row_named(skeleton.structured, "Message history", "label");
    ASSERT_FALSE(history.is_null()) << skeleton.text;
    const auto token = history["element_token"].get<std::string>();
    auto drill = h.call("get_window_state", {{"root", token}});
    ASSERT_FALSE(drill.is_error) << drill.text;
    EXPECT_EQ(drill.structured["root"], token);
    EXPECT_EQ(drill.structured["elements"][0]["element_index"], history["element_index"]);
    EXPECT_EQ(drill.structured["elements"][0]["element_token"], token);
    EXPECT_EQ(drill.structured["elements"].size(), 250u);
    EXPECT_EQ(drill.structured["truncated"], true);
    for (const auto& row : drill.structured["elements"])
        EXPECT_LE(row["depth"].get<int>(), 25);
    EXPECT_EQ(drill.structured["snapshot_id"], skeleton.structured["snapshot_id"]);

    auto full = h.call("get_window_state", {{"app", "Chatter"}, {"max_elements", 5000}, {"max_depth", 200}});
    EXPECT_EQ(full.structured["snapshot_id"], skeleton.structured["snapshot_id"]);
    for (const auto& row : drill.structured["elements"]) {
        const auto idx = row["element_index"].get<std::size_t>();
        ASSERT_LT(idx, full.structured["elements"].size());
        EXPECT_EQ(full.structured["elements"][idx]["element_token"], row["element_token"]);
        EXPECT_EQ(full.structured["elements"][idx]["role"], row["role"]);
    }
}

TEST(ReadTools, StructuralChangeMakesOldTokensStale)
{
    ToolHarness h;
    h.start();
    auto remember = h.token("Settings", "Remember me");
    auto sign_in = h.token("Settings", "Sign in");
    auto act = h.call("click", {{"element_token", sign_in}});
    ASSERT_FALSE(act.is_error) << act.text;
    EXPECT_EQ(act.structured["diff"]["structural"], true);
    EXPECT_NE(act.structured["snapshot_id"].get<std::string>(), remember.substr(0, remember.find(':')));
    auto stale = h.call("click", {{"element_token", remember}});
    EXPECT_EQ(stale.code(), "stale_element_token") << stale.text;
    EXPECT_EQ(stale.retry(), "after_refresh");
    auto drill = h.call("get_window_state", {{"root", remember}});
    EXPECT_EQ(drill.code(), "stale_element_token");
    // A fresh read gives working tokens again.
    auto fresh = h.token("Settings", "Remember me");
    EXPECT_FALSE(h.call("click", {{"element_token", fresh}}).is_error);
}

TEST(ReadTools, NonStructuralChangeKeepsTokens)
{
    ToolHarness h;
    h.start();
    auto seven = h.token("Calculator", "7");
    auto first = h.call("click", {{"element_token", seven}});
    ASSERT_FALSE(first.is_error) << first.text;
    EXPECT_EQ(first.structured["diff"]["structural"], false);
    auto again = h.call("click", {{"element_token", seven}});
    EXPECT_FALSE(again.is_error) << again.text;
}

TEST(ReadTools, TabSwitchIsStructural)
{
    ToolHarness h;
    h.start();
    auto remember = h.token("Settings", "Remember me");
    auto advanced = h.token("Settings", "Advanced");
    auto r = h.call("click", {{"element_token", advanced}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(r.structured["diff"]["structural"], true);
    EXPECT_EQ(h.call("click", {{"element_token", remember}}).code(), "stale_element_token");
}

TEST(ReadTools, Targeting)
{
    ToolHarness h;
    h.start();
    auto notes = h.call("get_window_state", {{"app", "Notes"}});
    EXPECT_EQ(notes.code(), "ambiguous_target");
    EXPECT_EQ(notes.retry(), "never");
    ASSERT_EQ(notes.structured["error"]["candidates"].size(), 2u);
    for (const auto& c : notes.structured["error"]["candidates"]) {
        EXPECT_EQ(c["pid"], 5120);
        EXPECT_EQ(c["app"], "Notes");
    }
    auto none = h.call("get_window_state", json::object());
    EXPECT_EQ(none.code(), "ambiguous_window_target");
    EXPECT_EQ(none.structured["error"]["candidates"].size(), 5u);
    EXPECT_EQ(h.call("get_window_state", {{"app", "Nonesuch"}}).code(), "window_target_not_found");
    EXPECT_EQ(h.call("get_window_state", {{"window_id", 999}}).code(), "window_target_not_found");
    auto by_pid = h.call("get_window_state", {{"pid", 5120}});
    ASSERT_FALSE(by_pid.is_error) << by_pid.text;
    EXPECT_EQ(by_pid.structured["window"]["window_id"], 41943112); // the topmost of the two
    auto ideas = h.call("get_window_state", {{"app", "Ideas"}});
    EXPECT_EQ(ideas.structured["window"]["window_id"], 41943113);
    auto mismatch = h.call("get_window_state", {{"window_id", 41943113}, {"pid", 4242}});
    EXPECT_EQ(mismatch.code(), "window_target_not_found");
}

TEST(ReadTools, OnlyApprovedAppsAreSeen)
{
    ToolHarness h;
    h.start({{"apps", {"Settings"}}});
    auto list = h.call("list_windows");
    ASSERT_EQ(list.structured["windows"].size(), 1u);
    EXPECT_EQ(list.structured["windows"][0]["app"], "Settings");
    EXPECT_EQ(h.call("get_window_state", {{"app", "Chatter"}}).code(), "window_target_not_found");
    EXPECT_EQ(h.call("get_window_state", {{"window_id", CHATTER}}).code(), "app_out_of_scope");
    EXPECT_EQ(h.call("get_window_state", {{"pid", 4242}}).code(), "app_out_of_scope");
    auto none = h.call("get_window_state", json::object());
    EXPECT_EQ(none.structured["error"]["candidates"].size(), 1u);
}

TEST(ReadTools, CandidatesAreCappedAndEscaped)
{
    ToolHarness h;
    json windows = json::array();
    for (int i = 0; i < 10; ++i)
        windows.push_back({{"id", 70000001 + i}, {"title", "Many " + std::to_string(i)}, {"frame", {0, 0, 100, 100}},
            {"root", {{"role", "frame"}, {"id", "many" + std::to_string(i)}, {"name", "Many"}}}});
    const std::string long_name = "Many\x07" + std::string(100, 'x');
    auto added = h.mock().add_app({{"app", long_name}, {"pid", 8001}, {"windows", windows}});
    ASSERT_TRUE(added.ok()) << added.error().text();
    h.start();
    auto r = h.call("get_window_state", {{"app", "Many"}});
    ASSERT_EQ(r.code(), "ambiguous_target") << r.text;
    EXPECT_EQ(r.structured["error"]["candidates"].size(), 8u);
    EXPECT_EQ(r.structured["error"]["candidates_truncated"], true);
    auto app = r.structured["error"]["candidates"][0]["app"].get<std::string>();
    EXPECT_EQ(app.find('\x07'), std::string::npos);
    EXPECT_EQ(app.rfind("Many\\x07", 0), 0u) << app;
    EXPECT_LE(app.size(), 64u + 3);
}

TEST(ReadTools, ScreenshotBlacksOutSecureFields)
{
    ToolHarness h;
    h.start();
    auto r = h.call("get_window_state", {{"app", "Settings"}, {"include_screenshot", true}});
    ASSERT_FALSE(r.is_error) << r.text;
    ASSERT_TRUE(r.has_image);
    nd_test::Pixels px;
    ASSERT_TRUE(nd_test::decode_png(nd_test::base64_decode(r.image_base64), px));
    EXPECT_EQ(px.width, r.structured["screenshot"]["width"].get<int>());
    const auto win = r.structured["window"]["frame"];
    const auto pw = row_named(r.structured, "Password")["frame"];
    const int x0 = pw["x"].get<int>() - win["x"].get<int>();
    const int y0 = pw["y"].get<int>() - win["y"].get<int>();
    for (int y = y0; y < y0 + pw["h"].get<int>(); y += 3)
        for (int x = x0; x < x0 + pw["w"].get<int>(); x += 7) {
            const auto* p = px.at(x, y);
            ASSERT_TRUE(p[0] == 0 && p[1] == 0 && p[2] == 0) << x << "," << y;
        }
    // Next to it, the username field is not black.
    const auto user = row_named(r.structured, "Username")["frame"];
    const auto* p = px.at(user["x"].get<int>() - win["x"].get<int>() + 5, user["y"].get<int>() - win["y"].get<int>() + 5);
    EXPECT_FALSE(p[0] == 0 && p[1] == 0 && p[2] == 0);
}

TEST(ReadTools, CaptureRateLimit)
{
    ToolHarness h;
    h.start();
    int limited = 0;
    for (int i = 0; i < 7; ++i) {
        auto r = h.call("get_window_state", {{"app", "Calculator"}, {"include_screenshot", true}});
        ASSERT_FALSE(r.is_error);
        if (r.structured.contains("screenshot_error")) {
            EXPECT_EQ(r.structured["screenshot_error"]["code"], "capture_rate_limited");
            EXPECT_EQ(r.structured["screenshot_error"]["disposition"]["retry"], "safe");
            ++limited;
        }
    }
    EXPECT_GE(limited, 2);
}

TEST(ReadTools, HungAndClosedWindows)
{
    ToolHarness h;
    h.start();
    auto token = h.token("Settings", "Remember me");
    h.mock().set_hung(SETTINGS, true);
    auto hung = h.call("get_window_state", {{"app", "Settings"}});
    EXPECT_EQ(hung.code(), "app_not_responding") << hung.text;
    EXPECT_EQ(hung.retry(), "unsafe");
    EXPECT_FALSE(h.call("get_window_state", {{"app", "Calculator"}}).is_error);
    h.mock().set_hung(SETTINGS, false);
    EXPECT_FALSE(h.call("click", {{"element_token", token}}).is_error);
    h.mock().close_window(SETTINGS);
    auto gone = h.call("click", {{"element_token", token}});
    EXPECT_EQ(gone.code(), "window_target_not_found") << gone.text;
    EXPECT_FALSE(h.call("list_windows").is_error);
}

} // namespace

namespace {

// Frames are deferred (tree_reader.h): the engine's read leaves them out and the view asks for its
// own rows' frames in one batch, with the same frames a read of everything gives.
TEST(ReadTools, FramesAreReadForTheReturnedRowsOnlyAndMatchAFullRead)
{
    ToolHarness h;
    h.start();
    auto* reader = dynamic_cast<nd_mock::MockTreeReader*>(h.mock().trees());
    ASSERT_NE(reader, nullptr);
    const int batches_before = reader->frame_reads();
    auto r = h.call("get_window_state", {{"app", "Chatter"}});
    ASSERT_FALSE(r.is_error) << r.text;
    EXPECT_EQ(reader->frame_reads(), batches_before + 1);

    auto windows = h.mock().windows()->list_windows();
    ASSERT_TRUE(windows.ok());
    const nd_core::WindowInfo* chatter = nullptr;
    for (const auto& w : *windows)
        if (w.window_id == CHATTER)
            chatter = &w;
    ASSERT_NE(chatter, nullptr);
    auto whole = reader->read_window(*chatter, nd_core::ReadLimits{});
    ASSERT_TRUE(whole.ok());
    EXPECT_FALSE(whole->frames_deferred);
    int framed = 0;
    for (const auto& row : r.structured["elements"]) {
        const auto& e = whole->elements.at(row["element_index"].get<std::size_t>());
        if (!e.has_frame) {
            EXPECT_TRUE(row["frame"].is_null()) << row.dump();
            continue;
        }
        ++framed;
        ASSERT_FALSE(row["frame"].is_null()) << row.dump();
        EXPECT_EQ(row["frame"]["x"], e.frame.x);
        EXPECT_EQ(row["frame"]["w"], e.frame.w);
    }
    EXPECT_GT(framed, 100);

    // A deferred read keeps only the root's and the secure fields' frames.
    nd_core::ReadLimits deferred;
    deferred.frames = nd_core::FrameMode::deferred;
    auto lean = reader->read_window(*chatter, deferred);
    ASSERT_TRUE(lean.ok());
    EXPECT_TRUE(lean->frames_deferred);
    for (std::size_t i = 1; i < lean->elements.size(); ++i)
        EXPECT_EQ(lean->elements[i].has_frame, lean->elements[i].secure() && whole->elements[i].has_frame) << i;
}

} // namespace
