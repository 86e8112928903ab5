#include "backend/mock/fixture_loader.h"

#include "backend/mock/tree_builder.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace nd_mock {

namespace {

using nd_core::ErrorCode;
using nlohmann::json;

// A document nested deeper than this is refused as it is parsed: the parser itself is iterative,
// but copying and walking a JSON value recurses once per level, and a hostile fixture must not
// take the stack. Each element level is two JSON levels (its object and its children array).
constexpr int MAX_DOCUMENT_DEPTH = 2 * 256 + 16;

struct TooDeep {};

nd_core::Error fail(const std::string& source, const std::string& problem)
{
    return nd_core::make_error(ErrorCode::invalid_arguments, "fixture " + source + ": " + problem);
}

nd_core::Result<void> check_keys(const json& object, std::initializer_list<std::string_view> allowed,
                                 const std::string& source, const std::string& path)
{
    for (const auto& item : object.items())
        if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
            return fail(source, path + ": unknown field \"" + item.key() + "\"");
    return {};
}

nd_core::Result<MockWindow> load_window(const json& w, const std::string& app, std::int64_t pid,
                                        const std::shared_ptr<const json>& templates, const std::string& source,
                                        const std::string& path)
{
    if (!w.is_object())
        return fail(source, path + ": a window must be an object");
    TRY_VOID(check_keys(w, {"id", "title", "frame", "root", "comment"}, source, path));
    MockWindow window;
    window.templates = templates;
    auto id = w.find("id");
    if (id == w.end() || !id->is_number_integer() || id->get<std::int64_t>() <= 0)
        return fail(source, path + ": \"id\" must be a positive integer (the X window id)");
    auto title = w.find("title");
    if (title == w.end() || !title->is_string())
        return fail(source, path + ": \"title\" must be a string");
    auto frame = w.find("frame");
    if (frame == w.end())
        return fail(source, path + ": a window needs a \"frame\"");
    auto parsed_frame = parse_frame(*frame, path);
    if (!parsed_frame)
        return fail(source, parsed_frame.error().message);
    if (parsed_frame->w <= 0 || parsed_frame->h <= 0 || parsed_frame->w > 8192 || parsed_frame->h > 8192)
        return fail(source, path + ": window frame width and height must be 1..8192");
    window.info = nd_core::WindowInfo{id->get<std::int64_t>(), pid, app, title->get<std::string>(), *parsed_frame,
                                      false};

    auto root = w.find("root");
    if (root == w.end())
        return fail(source, path + ": a window needs a \"root\" element");
    std::set<std::string> keys;
    TreeBuilder builder(templates.get(), keys, window.next_auto_key);
    auto node = builder.build(*root, PlaceholderContext{}, path + ".root");
    if (!node)
        return fail(source, node.error().message);
    window.root = std::move(node).value();
    if (!window.root->has_frame) {
        window.root->frame = window.info.frame;
        window.root->has_frame = true;
    }
    return window;
}

} // namespace

nd_core::Result<void> load_fixture_document(const json& doc, const std::string& source,
                                            std::vector<MockWindow>& windows)
{
    if (!doc.is_object())
        return fail(source, "the document must be an object with app, pid and windows");
    TRY_VOID(check_keys(doc, {"app", "pid", "templates", "windows", "comment"}, source, "document"));
    auto app = doc.find("app");
    if (app == doc.end() || !app->is_string() || app->get_ref<const std::string&>().empty())
        return fail(source, "\"app\" must be the app's name");
    auto pid = doc.find("pid");
    if (pid == doc.end() || !pid->is_number_integer() || pid->get<std::int64_t>() <= 0)
        return fail(source, "\"pid\" must be a positive integer");
    auto templates = std::make_shared<const json>(doc.value("templates", json::object()));
    if (!templates->is_object())
        return fail(source, "\"templates\" must map names to elements");
    auto list = doc.find("windows");
    if (list == doc.end() || !list->is_array() || list->empty())
        return fail(source, "\"windows\" must be a non-empty array");

    std::vector<MockWindow> loaded;
    for (std::size_t i = 0; i < list->size(); ++i) {
        auto window = load_window((*list)[i], app->get<std::string>(), pid->get<std::int64_t>(), templates, source,
                                  "windows[" + std::to_string(i) + "]");
        if (!window)
            return std::move(window).error();
        auto same_id = [&](const MockWindow& w) { return w.info.window_id == window->info.window_id; };
        if (std::any_of(windows.begin(), windows.end(), same_id) || std::any_of(loaded.begin(), loaded.end(), same_id))
            return fail(source, "windows[" + std::to_string(i) + "]: window id " +
                                    std::to_string(window->info.window_id) + " is already used");
        loaded.push_back(std::move(window).value());
    }
    for (auto& w : loaded)
        windows.push_back(std::move(w));
    return {};
}

nd_core::Result<FixtureSet> load_fixture_dir(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return nd_core::make_error(ErrorCode::internal_error, "mock fixture directory not found: " + dir);
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->is_regular_file(ec))
            files.push_back(it->path());
    if (ec)
        return nd_core::make_error(ErrorCode::internal_error, "cannot list mock fixtures in " + dir + ": " + ec.message());
    if (files.empty())
        return nd_core::make_error(ErrorCode::internal_error, "no *.json fixture files in " + dir);
    std::sort(files.begin(), files.end());

    FixtureSet set;
    for (const auto& file : files) {
        std::string name = file.filename().string();
        std::ifstream in(file, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        if (!in)
            return nd_core::make_error(ErrorCode::internal_error, "fixture " + name + ": cannot read the file");
        json doc;
        try {
            doc = json::parse(text.str(), [](int depth, json::parse_event_t, json&) {
                if (depth > MAX_DOCUMENT_DEPTH)
                    throw TooDeep{};
                return true;
            });
        } catch (const json::exception& e) {
            // A parse error, or a number no double holds (out_of_range.406, "1e999").
            return fail(name, std::string("not valid JSON: ") + e.what());
        } catch (const TooDeep&) {
            return fail(name, "elements nest deeper than 256 levels (the JSON more than " +
                                  std::to_string(MAX_DOCUMENT_DEPTH) + " levels)");
        }
        TRY_VOID(load_fixture_document(doc, name, set.windows));
        set.files.push_back(name);
    }
    return set;
}

} // namespace nd_mock
