#include "desk/config.h"

#include <toml++/toml.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    for (auto& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

nd_core::Error config_error(const std::string& path, const std::string& what)
{
    return make_error(ErrorCode::invalid_arguments, "config.toml" + (path.empty() ? std::string() : " (" + path + ")") + ": " + what);
}

// Every key a table may hold; anything else is refused, so a typo is not silently ignored.
nd_core::Result<void> only_keys(const toml::table& table, std::string_view name, std::initializer_list<std::string_view> keys,
                                const std::string& path)
{
    for (const auto& [key, value] : table) {
        bool known = false;
        for (auto k : keys)
            known = known || key.str() == k;
        if (!known)
            return config_error(path, "unknown key " + std::string(name) + "." + std::string(key.str()));
    }
    return {};
}

} // namespace

bool DeskConfig::allows(std::string_view app) const
{
    if (allow.empty())
        return true;
    const std::string a = lower(app);
    for (const auto& entry : allow)
        if (lower(entry) == a)
            return true;
    return false;
}

std::string config_path()
{
    if (const char* over = std::getenv("SHUTTLE_CONFIG"); over && over[0])
        return over;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && xdg[0] == '/')
        return std::string(xdg) + "/loomhand/shuttle/config.toml";
    const char* home = std::getenv("HOME");
    return std::string(home ? home : "") + "/.config/loomhand/shuttle/config.toml";
}

std::vector<std::string> DeskConfig::model_key_variables() const
{
    std::vector<std::string> names{"OPENROUTER_API_KEY"};
    if (api_key_env)
        names.push_back(*api_key_env);
    return names;
}

std::string config_dir(const DeskConfig& config)
{
    const std::string path = config.path.empty() ? config_path() : config.path;
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? std::string("/") : path.substr(0, slash);
}

nd_core::Result<DeskConfig> parse_config(std::string_view text, std::string path)
{
    DeskConfig config;
    config.path = path;
    toml::table root;
    try {
        root = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        std::ostringstream what;
        what << e.description() << " at line " << e.source().begin.line << ", column " << e.source().begin.column;
        return config_error(path, what.str());
    }
    TRY_VOID(only_keys(root, "", {"daemon", "apps", "input", "tools", "models"}, path));
    if (auto* daemon = root["daemon"].as_table()) {
        TRY_VOID(only_keys(*daemon, "daemon", {"socket_group"}, path));
        if (auto node = (*daemon)["socket_group"]; node) {
            auto group = node.value<std::string>();
            if (!group || group->empty())
                return config_error(path, "daemon.socket_group must be a group's name");
            config.socket_group = *group;
        }
    } else if (root.contains("daemon")) {
        return config_error(path, "[daemon] must be a table");
    }
    if (auto* apps = root["apps"].as_table()) {
        TRY_VOID(only_keys(*apps, "apps", {"allow"}, path));
        if (auto node = (*apps)["allow"]; node) {
            auto* list = node.as_array();
            if (!list)
                return config_error(path, "apps.allow must be a list of app names");
            for (const auto& item : *list) {
                auto name = item.value<std::string>();
                if (!name || name->empty())
                    return config_error(path, "apps.allow must hold app names (non-empty strings)");
                config.allow.push_back(*name);
            }
        }
    } else if (root.contains("apps")) {
        return config_error(path, "[apps] must be a table");
    }
    if (auto* input = root["input"].as_table()) {
        TRY_VOID(only_keys(*input, "input", {"confirm", "background"}, path));
        if (auto node = (*input)["confirm"]; node) {
            auto mode = node.value<std::string>();
            if (!mode || *mode != "off")
                return config_error(path, "input.confirm: only \"off\" is available in this build (docs/config.md)");
            config.confirm = *mode;
        }
        if (auto node = (*input)["background"]; node) {
            auto on = node.value<bool>();
            if (!on)
                return config_error(path, "input.background must be true or false");
            if (*on)
                return config_error(path, "input.background = true: X11 has no background input; this desk sends input "
                                          "in the foreground only (docs/config.md)");
            config.background = false;
        }
    } else if (root.contains("input")) {
        return config_error(path, "[input] must be a table");
    }
    if (auto* tools = root["tools"].as_table()) {
        TRY_VOID(only_keys(*tools, "tools", {"plugins", "script_run"}, path));
        if (auto node = (*tools)["plugins"]; node) {
            auto dir = node.value<std::string>();
            if (!dir || dir->empty() || (*dir)[0] != '/')
                return config_error(path, "tools.plugins must be an absolute directory");
            config.plugins_dir = *dir;
        }
        if (auto node = (*tools)["script_run"]; node) {
            auto on = node.value<bool>();
            if (!on)
                return config_error(path, "tools.script_run must be true or false");
            config.script_run = *on;
        }
    }
    if (auto* models = root["models"].as_table()) {
        if (auto node = (*models)["api_key_env"]; node) {
            auto name = node.value<std::string>();
            if (!name || name->empty())
                return config_error(path, "models.api_key_env must name an environment variable");
            config.api_key_env = *name;
        }
    }
    return config;
}

nd_core::Result<DeskConfig> load_config(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (errno == ENOENT) {
            DeskConfig defaults;
            return defaults;
        }
        return config_error(path, std::string("cannot be read: ") + std::strerror(errno));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().size() > (1u << 20))
        return config_error(path, "is larger than 1 MiB");
    return parse_config(text.str(), path);
}

} // namespace nd_desk
