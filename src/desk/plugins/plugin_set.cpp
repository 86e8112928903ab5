// Reading the plugin directory: the files in file-name order, each checked against every rule of
// the schema (plugin_set.h, docs/plugins.md) and loaded or refused on its own.

#include "desk/plugins/plugin_set.h"

#include "desk/plugins/bounded_file.h"
#include "desk/plugins/plugin_fields.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace nd_desk {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using namespace plugin_fields;

// ^[a-z][a-z0-9_]*_run$
bool valid_name(std::string_view name) { return name.size() >= 5 && name.ends_with("_run") && lower_identifier(name); }

// A URI needs a scheme: a letter, then letters, digits, +, - or ., then a colon.
bool has_scheme(std::string_view uri)
{
    const auto colon = uri.find(':');
    if (colon == std::string_view::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(uri[0])))
        return false;
    return std::all_of(uri.begin(), uri.begin() + static_cast<std::ptrdiff_t>(colon),
        [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.'; });
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
    if (is_built_in_tool(plugin.name))
        return refuse("name: " + plugin.name + " is a built-in tool");
    for (const auto& other : earlier)
        if (other.name == plugin.name)
            return refuse("name: " + plugin.name + " is already the tool of " + other.file);
    plugin.description = TRY(description_field(object, "", "description", PLUGIN_DESCRIPTION_MAX_CHARS));
    plugin.bin = TRY(program_field(object, "", "bin"));
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
    } catch (const json::exception& e) {
        // e.what() reads "[json.exception.parse_error.101] parse error at line 1, column 2: ...", or
        // "[json.exception.out_of_range.406] number overflow parsing '1e999'" for a number no double holds.
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
    out["services"] = json::array();
    for (const auto& service : services) {
        json tools = json::array();
        for (const auto& t : service.tools)
            tools.push_back({{"name", t.name}, {"description", t.description}, {"input_schema", t.input_schema}, {"mcp", t.mcp}});
        out["services"].push_back({{"service", service.name}, {"bin", service.bin}, {"args", service.args},
            {"tools", std::move(tools)}, {"file", service.file}});
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
    for (const auto& service : services)
        lines.push_back("service " + service.name + " (" + std::to_string(service.tools.size()) + " tool" +
                        (service.tools.size() == 1 ? "" : "s") + ") loaded from " + service.file);
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

void add_plugin_file(PluginSet& set, const std::string& file, const std::string& text)
{
    auto object = [&]() -> nd_core::Result<json> {
        auto value = TRY(parse_json(text));
        if (!value.is_object())
            return refuse("must be a JSON object, not " + type_name(value));
        return value;
    }();
    if (!object) {
        set.refused.push_back({file, object.error().message});
        return;
    }
    if (object->contains("service")) {
        auto service = parse_service(*object, file, set.services);
        if (service)
            set.services.push_back(std::move(service).value());
        else
            set.refused.push_back({file, service.error().message});
        return;
    }
    auto plugin = parse_plugin(*object, file, set.loaded);
    if (plugin)
        set.loaded.push_back(std::move(plugin).value());
    else
        set.refused.push_back({file, plugin.error().message});
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
        auto text = read_bounded_file(file, PLUGIN_FILE_MAX_BYTES);
        if (!text) {
            set.refused.push_back({file, text.error().message});
            continue;
        }
        add_plugin_file(set, file, *text);
    }
    return set;
}

} // namespace nd_desk
