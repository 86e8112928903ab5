// The plugin directory's loader (docs/plugins.md): every rule of the schema refuses a file with a
// reason naming the file and the field, a bad file leaves the good ones loaded, files load in
// file-name order, service files go to their own schema, files that are not *.json are left alone, and the
// directory's edge cases (missing, unreadable, a symbolic link, a file too large).

#include "desk/desk_test_support.h"
#include "desk/plugins/plugin_resources.h"
#include "desk/plugins/plugin_set.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

using nlohmann::json;

namespace {

class PluginSetTest : public ::testing::Test {
protected:
    void write(const std::string& name, const std::string& text)
    {
        std::ofstream(m_dir.path + "/" + name, std::ios::binary) << text;
    }
    void write(const std::string& name, const json& value) { write(name, value.dump()); }
    void write(const std::string& name, const char* text) { write(name, std::string(text)); }

    static json good(const std::string& name)
    {
        return {{"name", name}, {"description", "Runs " + name + " scripts."}, {"bin", "/usr/bin/" + name}};
    }

    nd_desk::PluginSet load() { return nd_desk::load_plugins(m_dir.path); }

    nd_test::TempDir m_dir{"plugins"};
};

TEST_F(PluginSetTest, LoadsGoodFilesInFileNameOrder)
{
    write("b.json", good("beta_run"));
    write("a.json", good("alpha_run"));
    json with_resources = good("gamma_run");
    with_resources["resources"] = json::array({{{"uri", "docs://gamma/guide"}, {"path", "/opt/gamma/guide.md"},
        {"mime", "text/markdown"}, {"description", "How to write gamma scripts"}}});
    write("c.json", with_resources);
    write("notes.txt", "not a plugin");
    write("d.json.bak", good("delta_run"));
    auto set = load();
    EXPECT_TRUE(set.refused.empty()) << set.to_json();
    ASSERT_EQ(set.loaded.size(), 3u);
    EXPECT_EQ(set.loaded[0].name, "alpha_run");
    EXPECT_EQ(set.loaded[1].name, "beta_run");
    EXPECT_EQ(set.loaded[2].name, "gamma_run");
    EXPECT_EQ(set.loaded[0].file, m_dir.path + "/a.json");
    EXPECT_EQ(set.loaded[0].bin, "/usr/bin/alpha_run");
    ASSERT_EQ(set.loaded[2].resources.size(), 1u);
    EXPECT_EQ(set.loaded[2].resources[0].mime, "text/markdown");
    EXPECT_TRUE(set.has_resources());
    EXPECT_NE(set.find("beta_run"), nullptr);
    EXPECT_EQ(set.find("script_run"), nullptr);
    EXPECT_EQ(nd_desk::plugin_resource_list(set),
        json::array({{{"uri", "docs://gamma/guide"}, {"name", "guide.md"}, {"mimeType", "text/markdown"},
            {"description", "How to write gamma scripts"}}}));
}

TEST_F(PluginSetTest, EachBadFileIsRefusedNamingTheFileAndTheField)
{
    struct Case {
        std::string file;
        std::string text;
        std::string reason; // the reason starts with this
    };
    auto with = [](json plugin, const std::string& key, json value) {
        plugin[key] = std::move(value);
        return plugin.dump();
    };
    auto without = [](json plugin, const std::string& key) {
        plugin.erase(key);
        return plugin.dump();
    };
    auto resource = [&](json entry) { return with(good("res_run"), "resources", json::array({std::move(entry)})); };
    const json good_resource = {{"uri", "docs://x"}, {"path", "/x.md"}, {"mime", "text/plain"}, {"description", "x"}};
    auto resource_with = [&](const std::string& key, json value) {
        json entry = good_resource;
        entry[key] = std::move(value);
        return resource(entry);
    };
    auto resource_without = [&](const std::string& key) {
        json entry = good_resource;
        entry.erase(key);
        return resource(entry);
    };
    const std::vector<Case> cases = {
        {"01.json", "{\"name\": ", "not valid JSON: parse error at line 1"},
        {"02.json", "[1, 2]", "must be a JSON object, not an array"},
        {"03.json", with(good("x_run"), "extra", 1), "extra: unknown field"},
        {"04.json", without(good("x_run"), "name"), "name: missing"},
        {"05.json", without(good("x_run"), "description"), "description: missing"},
        {"06.json", without(good("x_run"), "bin"), "bin: missing"},
        {"07.json", with(good("x_run"), "name", 7), "name: must be a string, not a number"},
        {"08.json", good("Upper_run").dump(), "name: \"Upper_run\" must match"},
        {"09.json", good("lookup").dump(), "name: \"lookup\" must match"},
        {"10.json", good("9lives_run").dump(), "name: \"9lives_run\" must match"},
        {"11.json", good("has-dash_run").dump(), "name: \"has-dash_run\" must match"},
        {"12.json", good("script_run").dump(), "name: script_run is a built-in tool"},
        {"13.json", good("dup_run").dump(), "name: dup_run is already the tool of "},
        {"14.json", with(good("x_run"), "description", ""), "description: is empty"},
        {"15.json", with(good("x_run"), "description", std::string(2049, 'd')), "description: 2049 characters, more than 2048"},
        {"16.json", with(good("x_run"), "description", json::array()), "description: must be a string, not an array"},
        {"17.json", with(good("x_run"), "bin", "bin/tool"), "bin: must be an absolute path, not \"bin/tool\""},
        {"18.json", with(good("x_run"), "bin", nullptr), "bin: must be a string, not null"},
        {"19.json", with(good("x_run"), "resources", json::object()), "resources: must be an array, not an object"},
        {"20.json", resource("docs://x"), "resources[0]: must be an object, not a string"},
        {"21.json", resource_without("mime"), "resources[0].mime: missing"},
        {"22.json", resource_with("size", 3), "resources[0].size: unknown field"},
        {"23.json", resource_with("path", "x.md"), "resources[0].path: must be an absolute path"},
        {"24.json", resource_with("uri", "no scheme"), "resources[0].uri: must be a URI with a scheme"},
        {"25.json", resource_with("description", false), "resources[0].description: must be a string, not a boolean"},
        {"26.json", resource_with("uri", "docs://taken"), "resources[0].uri: docs://taken is already a resource of "},
        {"27.json", resource_with("mime", ""), "resources[0].mime: must name a MIME type"},
        {"28.json", resource_without("uri"), "resources[0].uri: missing"},
        // Found by plugin_fuzz: a number no double holds threw past the parse-error handler.
        {"29.json", "{\"name\": \"x_run\", \"bin\": 1e999}", "not valid JSON: number overflow parsing '1e999'"},
    };
    // The good files the bad ones must not take down: one before, one after them all.
    write("00.json", [&] {
        json first = good("dup_run");
        json entry = good_resource;
        entry["uri"] = "docs://taken";
        first["resources"] = json::array({entry});
        return first;
    }());
    for (const auto& c : cases)
        write(c.file, c.text);
    write("99.json", good("last_run"));

    auto set = load();
    ASSERT_EQ(set.loaded.size(), 2u) << set.to_json();
    EXPECT_EQ(set.loaded[0].name, "dup_run");
    EXPECT_EQ(set.loaded[1].name, "last_run");
    ASSERT_EQ(set.refused.size(), cases.size()) << set.to_json();
    for (std::size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(cases[i].file);
        EXPECT_EQ(set.refused[i].file, m_dir.path + "/" + cases[i].file);
        EXPECT_EQ(set.refused[i].reason.rfind(cases[i].reason, 0), 0u) << set.refused[i].reason;
    }
    // The log names the file with its reason.
    const auto lines = set.log_lines();
    EXPECT_NE(std::find(lines.begin(), lines.end(), "plugin file " + m_dir.path + "/17.json refused: " + set.refused[16].reason),
        lines.end());
}

TEST_F(PluginSetTest, ADescriptionIsCountedInCharactersAndTheDeskVerbsAreTaken)
{
    // 2048 characters of two bytes each: within the bound.
    std::string accents;
    for (int i = 0; i < 2048; ++i)
        accents += "\xC3\xA9";
    json ok = good("accent_run");
    ok["description"] = accents;
    write("a.json", ok);
    write("b.json", good("gui_plan"));
    auto set = load();
    ASSERT_EQ(set.loaded.size(), 1u) << set.to_json();
    ASSERT_EQ(set.refused.size(), 1u);
    // gui_plan fails the pattern before it is looked up: either way it is refused on its name.
    EXPECT_EQ(set.refused[0].reason.rfind("name: ", 0), 0u);
}

TEST_F(PluginSetTest, AServiceFileIsReadWithTheServiceSchema)
{
    // A "service" key makes it a service: refused on that schema's rules, not the plugins'.
    write("a.json", json{{"service", {{"name", "watcher"}}}, {"anything", 1}});
    write("b.json", good("kept_run"));
    write("c.json", json{{"service", "notes"}, {"bin", "/usr/bin/notes"},
        {"tools", json::array({{{"name", "notes_read"}, {"description", "Read a note."}, {"input_schema", {{"type", "object"}}}}})}});
    auto set = load();
    ASSERT_EQ(set.loaded.size(), 1u) << set.to_json();
    ASSERT_EQ(set.refused.size(), 1u);
    EXPECT_EQ(set.refused[0].file, m_dir.path + "/a.json");
    EXPECT_EQ(set.refused[0].reason.rfind("anything: unknown field", 0), 0u) << set.refused[0].reason;
    ASSERT_EQ(set.services.size(), 1u);
    EXPECT_EQ(set.services[0].name, "notes");
    EXPECT_EQ(set.to_json()["services"][0]["tools"][0]["name"], "notes_read");
}

TEST_F(PluginSetTest, TheDirectoryItsLinksAndItsLimits)
{
    // No directory: nothing, and nothing to say.
    auto missing = nd_desk::load_plugins(m_dir.path + "/nowhere");
    EXPECT_TRUE(missing.loaded.empty());
    EXPECT_TRUE(missing.note.empty());

    // A symbolic link to a plugin file elsewhere is followed; one to a directory, or a directory
    // named *.json, is not a regular file.
    std::filesystem::create_directory(m_dir.path + "/elsewhere");
    std::ofstream(m_dir.path + "/elsewhere/real.json") << good("linked_run").dump();
    std::filesystem::create_directory(m_dir.path + "/dir");
    std::filesystem::create_symlink(m_dir.path + "/elsewhere/real.json", m_dir.path + "/dir/a.json");
    std::filesystem::create_directory(m_dir.path + "/dir/b.json");
    std::filesystem::create_symlink(m_dir.path + "/dir/gone", m_dir.path + "/dir/c.json");
    std::ofstream(m_dir.path + "/dir/d.json") << std::string(nd_desk::PLUGIN_FILE_MAX_BYTES + 1, ' ');
    auto set = nd_desk::load_plugins(m_dir.path + "/dir");
    ASSERT_EQ(set.loaded.size(), 1u) << set.to_json();
    EXPECT_EQ(set.loaded[0].name, "linked_run");
    ASSERT_EQ(set.refused.size(), 3u) << set.to_json();
    EXPECT_EQ(set.refused[0].reason, "is not a regular file");
    EXPECT_EQ(set.refused[1].reason.rfind("cannot be read: ", 0), 0u);
    EXPECT_EQ(set.refused[2].reason, "is 1048577 bytes, more than 1048576");

    // A directory that cannot be read: nothing loaded, and a note why (root reads it anyway).
    if (::geteuid() != 0) {
        ::chmod((m_dir.path + "/dir").c_str(), 0);
        auto closed = nd_desk::load_plugins(m_dir.path + "/dir");
        ::chmod((m_dir.path + "/dir").c_str(), 0700);
        EXPECT_TRUE(closed.loaded.empty());
        EXPECT_NE(closed.note.find("cannot read"), std::string::npos) << closed.note;
    }
}

TEST_F(PluginSetTest, TheDirectoryIsBesideConfigTomlUnlessConfigNamesOne)
{
    nd_desk::DeskConfig config;
    config.path = "/home/someone/.config/loomhand/shuttle/config.toml";
    EXPECT_EQ(nd_desk::plugins_dir(config), "/home/someone/.config/loomhand/shuttle/tools.d");
    config.plugins_dir = "/opt/plugins";
    EXPECT_EQ(nd_desk::plugins_dir(config), "/opt/plugins");
}

TEST_F(PluginSetTest, AResourceIsReadAsTextWhenAsked)
{
    const std::string doc = m_dir.path + "/guide.md";
    json plugin = good("doc_run");
    plugin["resources"] = json::array({{{"uri", "docs://guide"}, {"path", doc}, {"mime", "text/markdown"}, {"description", "d"}},
        {{"uri", "docs://binary"}, {"path", m_dir.path + "/blob.bin"}, {"mime", "text/plain"}, {"description", "d"}}});
    std::filesystem::create_directory(m_dir.path + "/tools.d");
    std::ofstream(m_dir.path + "/tools.d/doc.json") << plugin.dump();
    auto set = nd_desk::load_plugins(m_dir.path + "/tools.d");
    ASSERT_EQ(set.loaded.size(), 1u) << set.to_json();

    EXPECT_FALSE(nd_desk::read_plugin_resource(set, "docs://other").found);
    // Missing at read time: an error naming the file.
    auto missing = nd_desk::read_plugin_resource(set, "docs://guide");
    EXPECT_TRUE(missing.found);
    EXPECT_NE(missing.error.find(doc), std::string::npos) << missing.error;
    // Read at read time: an edit shows.
    std::ofstream(doc) << "# Guide\n";
    auto read = nd_desk::read_plugin_resource(set, "docs://guide");
    EXPECT_TRUE(read.error.empty()) << read.error;
    EXPECT_EQ(read.text, "# Guide\n");
    EXPECT_EQ(read.mime_type, "text/markdown");
    std::ofstream(m_dir.path + "/blob.bin", std::ios::binary) << std::string("\xFF\xFE\x00", 3);
    auto binary = nd_desk::read_plugin_resource(set, "docs://binary");
    EXPECT_NE(binary.error.find("is not UTF-8 text"), std::string::npos) << binary.error;
}

} // namespace

namespace {

// A program another user could change is refused when the file is read (docs/security.md): one
// that others or its group may write, one in a directory they may write (unless it is sticky, as
// /tmp is). One this user alone can change loads; one not installed yet loads too, and is judged
// again when it is started (plugin_run_test, service_supervisor_test).
TEST_F(PluginSetTest, AProgramAnotherUserCouldChangeIsRefused)
{
    const auto program = [&](const std::string& dir, const std::string& name, mode_t mode) {
        std::filesystem::create_directories(dir);
        const auto path = dir + "/" + name;
        std::ofstream(path) << "#!/bin/sh\n";
        ::chmod(path.c_str(), mode);
        return path;
    };
    const auto plugin = [&](const std::string& name, const std::string& bin) {
        json p = good(name);
        p["bin"] = bin;
        return p;
    };
    const std::string safe_dir = m_dir.path + "/bin";
    const std::string open_dir = m_dir.path + "/open";
    const std::string sticky_dir = m_dir.path + "/sticky";
    write("a.json", plugin("safe_run", program(safe_dir, "safe", 0755)));
    write("b.json", plugin("writable_run", program(safe_dir, "writable", 0777)));
    write("c.json", plugin("group_run", program(safe_dir, "group", 0775)));
    write("d.json", plugin("open_dir_run", program(open_dir, "prog", 0755)));
    ::chmod(open_dir.c_str(), 0777);
    write("e.json", plugin("sticky_run", program(sticky_dir, "prog", 0755)));
    ::chmod(sticky_dir.c_str(), 01777);
    write("f.json", plugin("later_run", safe_dir + "/not-installed-yet"));
    write("g.json", json{{"service", "open"}, {"bin", open_dir + "/prog"},
                            {"tools", json::array({{{"name", "open_read"}, {"description", "Reads."},
                                                        {"input_schema", {{"type", "object"}}}}})}});
    auto set = load();
    std::vector<std::string> loaded;
    for (const auto& p : set.loaded)
        loaded.push_back(p.name);
    EXPECT_EQ(loaded, (std::vector<std::string>{"safe_run", "sticky_run", "later_run"})) << set.to_json();
    ASSERT_EQ(set.refused.size(), 4u) << set.to_json();
    EXPECT_EQ(set.refused[0].reason, "bin: " + safe_dir + "/writable may be written by others (mode 0777); only a program "
                                     "that this user or root alone can change is run (docs/security.md)");
    EXPECT_NE(set.refused[1].reason.find("group may be written by others (mode 0775)"), std::string::npos) << set.refused[1].reason;
    EXPECT_NE(set.refused[2].reason.find("'s directory " + open_dir + " may be written by others (mode 0777)"), std::string::npos)
        << set.refused[2].reason;
    EXPECT_EQ(set.refused[3].file, m_dir.path + "/g.json");
    EXPECT_NE(set.refused[3].reason.find("may be written by others"), std::string::npos) << set.refused[3].reason;
    EXPECT_TRUE(set.services.empty());
}

} // namespace
