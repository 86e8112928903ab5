// Reading the plugin directory: the files in file-name order, each checked against every rule of
// the schema (plugin_set.h, docs/plugins.md) and loaded or refused on its own.

#include "desk/plugins/plugin_set.h"

#include "desk/plugins/bounded_file.h"
#include "desk/verbs/verbs.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>

namespace nd_desk {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The tools a plugin may not take the name of, besides the desk verbs.
constexpr std::array<std::string_view, 5> BUILT_IN_TOOLS = {"gui_plan", "script_run", "desk", "screenshot", "status"};

nd_core::Error refuse(const std::string& reason) { return nd_core::make_error(nd_core::ErrorCode::invalid_arguments, reason); }

std::string type_name(const json& value)
{
    switch (value.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::null: return "null";
    default: return "a number";
    }
}

// ^[a-z][a-z0-9_]*_run$
bool valid_name(std::string_view name)
{
    if (name.size() < 5 || name.front() < 'a' || name.front() > 'z' || !name.ends_with("_run"))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::size_t characters(std::string_view text)
{
    // The JSON parser admits only valid UTF-8: every byte but a continuation byte starts a character.
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// A URI needs a scheme: a letter, then letters, digits, +, - or ., then a colon.
bool has_scheme(std::string_view uri)
{
    const auto colon = uri.find(':');
    if (colon == std::string_view::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(uri[0])))
        return false;
    return std::all_of(uri.begin(), uri.begin() + static_cast<std::ptrdiff_t>(colon),
        [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.'; });
}

// Every key of `object` is one of `keys`, and each of `required` is there.
nd_core::Result<void> check_keys(const json& object, std::string_view where, std::initializer_list<std::string_view> keys,
    std::initializer_list<std::string_view> required, std::string_view expected)
{
    for (const auto& [key, value] : object.items())
        if (std::find(keys.begin(), keys.end(), key) == keys.end())
            return refuse(std::string(where) + key + ": unknown field (" + std::string(expected) + ")");
    for (auto key : required)
        if (!object.contains(key))
            return refuse(std::string(where) + std::string(key) + ": missing (" + std::string(expected) + ")");
    return {};
}

// The string at object[key] (present), or a refusal naming the field.
nd_core::Result<std::string> string_field(const json& object, std::string_view where, const char* key)
{
    const auto& value = object.at(key);
    if (!value.is_string())
        return refuse(std::string(where) + key + ": must be a string, not " + type_name(value));
    return value.get<std::string>();
}

nd_core::Result<std::string> absolute_field(const json& object, std::string_view where, const char* key)
{
    auto value = TRY(string_field(object, where, key));
    if (value.empty() || value.front() != '/')
        return refuse(std::string(where) + key + ": must be an absolute path, not \"" + value + "\"");
    return value;
}

nd_core::Result<PluginResource> parse_resource(const json& entry, std::size_t index, const std::vector<Plugin>& earlier,
    const std::vector<PluginResource>& own)
{
    const std::string where = "resources[" + std::to_string(index) + "].";
    if (!entry.is_object())
        return refuse("resources[" + std::to_string(index) + "]: must be an object, not " + type_name(entry));
    TRY_VOID(check_keys(entry, where, {"uri", "path", "mime", "description"}, {"uri", "path", "mime", "description"},
        "a resource has uri, path, mime and description"));
    PluginResource resource;
    resource.uri = TRY(string_field(entry, where, "uri"));
    resource.path = TRY(absolute_field(entry, where, "path"));
    resource.mime = TRY(string_field(entry, where, "mime"));
    resource.description = TRY(string_field(entry, where, "description"));
    if (!has_scheme(resource.uri))
        return refuse(where + "uri: must be a URI with a scheme (file:///..., docs://...), not \"" + resource.uri + "\"");
    if (resource.mime.empty())
        return refuse(where + "mime: must name a MIME type (text/markdown, ...)");
    for (const auto& r : own)
        if (r.uri == resource.uri)
            return refuse(where + "uri: " + resource.uri + " is listed twice");
    for (const auto& plugin : earlier)
        for (const auto& r : plugin.resources)
            if (r.uri == resource.uri)
                return refuse(where + "uri: " + resource.uri + " is already a resource of " + plugin.file);
    return resource;
}

nd_core::Result<Plugin> parse_plugin(const json& object, const std::string& file, const std::vector<Plugin>& earlier)
{
    TRY_VOID(check_keys(object, "", {"name", "description", "bin", "resources"}, {"name", "description", "bin"},
        "a plugin has name, description, bin and optionally resources"));
    Plugin plugin;
    plugin.file = file;
    plugin.name = TRY(string_field(object, "", "name"));
    if (plugin.name.size() > PLUGIN_NAME_MAX || !valid_name(plugin.name))
        return refuse("name: \"" + plugin.name.substr(0, PLUGIN_NAME_MAX) + "\" must match ^[a-z][a-z0-9_]*_run$ (at most " +
                      std::to_string(PLUGIN_NAME_MAX) + " characters)");
    if (std::find(BUILT_IN_TOOLS.begin(), BUILT_IN_TOOLS.end(), plugin.name) != BUILT_IN_TOOLS.end() || find_verb(plugin.name))
        return refuse("name: " + plugin.name + " is a built-in tool");
    for (const auto& other : earlier)
        if (other.name == plugin.name)
            return refuse("name: " + plugin.name + " is already the tool of " + other.file);
    plugin.description = TRY(string_field(object, "", "description"));
    if (plugin.description.empty())
        return refuse("description: is empty; say what the tool does for the model");
    if (const auto n = characters(plugin.description); n > PLUGIN_DESCRIPTION_MAX_CHARS)
        return refuse("description: " + std::to_string(n) + " characters, more than " + std::to_string(PLUGIN_DESCRIPTION_MAX_CHARS));
    plugin.bin = TRY(absolute_field(object, "", "bin"));
    if (auto resources = object.find("resources"); resources != object.end()) {
        if (!resources->is_array())
            return refuse("resources: must be an array, not " + type_name(*resources));
        for (std::size_t i = 0; i < resources->size(); ++i)
            plugin.resources.push_back(TRY(parse_resource((*resources)[i], i, earlier, plugin.resources)));
    }
    return plugin;
}

nd_core::Result<json> parse_json(const std::string& text)
{
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        // e.what() reads "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
        std::string what = e.what();
        if (const auto at = what.find("] "); at != std::string::npos)
            what = what.substr(at + 2);
        return refuse("not valid JSON: " + what);
    }
}

// The *.json files of dir, sorted by name; or why the directory could not be listed.
nd_core::Result<std::vector<std::string>> json_files(const std::string& dir)
{
    std::vector<std::string> names;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec)
        return refuse(ec == std::errc::no_such_file_or_directory ? std::string() : "cannot read " + dir + ": " + ec.message());
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() > 5 && name.ends_with(".json") && name.front() != '.')
            names.push_back(name);
    }
    if (ec)
        return refuse("cannot read " + dir + ": " + ec.message());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

const Plugin* PluginSet::find(std::string_view name) const
{
    for (const auto& plugin : loaded)
        if (plugin.name == name)
            return &plugin;
    return nullptr;
}

const PluginResource* PluginSet::find_resource(std::string_view uri) const
{
    for (const auto& plugin : loaded)
        for (const auto& resource : plugin.resources)
            if (resource.uri == uri)
                return &resource;
    return nullptr;
}

bool PluginSet::has_resources() const
{
    return std::any_of(loaded.begin(), loaded.end(), [](const Plugin& p) { return !p.resources.empty(); });
}

json PluginSet::to_json() const
{
    json out = {{"dir", dir}, {"loaded", json::array()}, {"refused", json::array()}};
    for (const auto& plugin : loaded) {
        json resources = json::array();
        for (const auto& r : plugin.resources)
            resources.push_back({{"uri", r.uri}, {"path", r.path}, {"mime", r.mime}, {"description", r.description}});
        out["loaded"].push_back({{"name", plugin.name}, {"description", plugin.description}, {"bin", plugin.bin},
            {"resources", std::move(resources)}, {"file", plugin.file}});
    }
    for (const auto& r : refused)
        out["refused"].push_back({{"file", r.file}, {"reason", r.reason}});
    if (!note.empty())
        out["note"] = note;
    return out;
}

std::vector<std::string> PluginSet::log_lines() const
{
    std::vector<std::string> lines;
    for (const auto& plugin : loaded)
        lines.push_back("plugin " + plugin.name + " loaded from " + plugin.file);
    for (const auto& r : refused)
        lines.push_back("plugin file " + r.file + " refused: " + r.reason);
    if (!note.empty())
        lines.push_back("plugins: " + note);
    return lines;
}

std::string plugins_dir(const DeskConfig& config)
{
    return config.plugins_dir ? *config.plugins_dir : config_dir(config) + "/tools.d";
}

PluginSet load_plugins(const std::string& dir)
{
    PluginSet set;
    set.dir = dir;
    auto names = json_files(dir);
    if (!names) {
        set.note = names.error().message;
        return set;
    }
    for (std::size_t i = 0; i < names->size(); ++i) {
        const std::string file = dir + "/" + (*names)[i];
        if (i >= PLUGIN_FILES_MAX) {
            set.refused.push_back({file, "more than " + std::to_string(PLUGIN_FILES_MAX) + " plugin files; this one is not read"});
            continue;
        }
        auto object = [&]() -> nd_core::Result<json> {
            const auto text = TRY(read_bounded_file(file, PLUGIN_FILE_MAX_BYTES));
            auto value = TRY(parse_json(text));
            if (!value.is_object())
                return refuse("must be a JSON object, not " + type_name(value));
            return value;
        }();
        if (!object) {
            set.refused.push_back({file, object.error().message});
            continue;
        }
        // The seam for service plugins: their loader reads these files; this one leaves them be.
        if (object->contains("service")) {
            set.service_files.push_back(file);
            continue;
        }
        auto plugin = parse_plugin(*object, file, set.loaded);
        if (plugin)
            set.loaded.push_back(std::move(plugin).value());
        else
            set.refused.push_back({file, plugin.error().message});
    }
    return set;
}

} // namespace nd_desk
