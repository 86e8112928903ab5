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

// A variable's name as a shell would take it: a letter or _, then letters, digits and _.
bool is_variable_name(std::string_view name)
{
    if (name.empty() || name.size() > 128 || (name[0] >= '0' && name[0] <= '9'))
        return false;
    for (char c : name)
        if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            return false;
    return true;
}

// [models]: every key optional, each checked for what a call will need of it.
nd_core::Result<void> parse_models(const toml::table& table, ModelsConfig& out, const std::string& path)
{
    TRY_VOID(only_keys(table, "models", {"base_url", "api_key_env", "timeout_ms", "decide", "verify", "ask", "ground"}, path));
    if (auto node = table["base_url"]; node) {
        auto url = node.value<std::string>();
        if (!url || !(url->starts_with("https://") || url->starts_with("http://")) || url->size() > 2048 ||
            url->find_first_of(" \t\r\n") != std::string::npos)
            return config_error(path, "models.base_url must be an http:// or https:// URL (the API root, e.g. " +
                                          std::string(ModelsConfig::DEFAULT_BASE_URL) + ")");
        while (url->size() > 8 && url->back() == '/')
            url->pop_back();
        out.base_url = *url;
    }
    if (auto node = table["api_key_env"]; node) {
        auto name = node.value<std::string>();
        if (!name || !is_variable_name(*name))
            return config_error(path, "models.api_key_env must name an environment variable (letters, digits and _)");
        out.api_key_env = *name;
    }
    if (auto node = table["timeout_ms"]; node) {
        auto ms = node.is_integer() ? node.value<std::int64_t>() : std::nullopt; // toml++ casts floats unchecked
        if (!ms || *ms < ModelsConfig::MIN_TIMEOUT_MS || *ms > ModelsConfig::MAX_TIMEOUT_MS)
            return config_error(path, "models.timeout_ms must be an integer from " + std::to_string(ModelsConfig::MIN_TIMEOUT_MS) +
                                          " to " + std::to_string(ModelsConfig::MAX_TIMEOUT_MS));
        out.timeout_ms = static_cast<int>(*ms);
    }
    for (auto role : {ModelRole::decide, ModelRole::verify, ModelRole::ask, ModelRole::ground}) {
        const std::string key(role_name(role));
        if (auto node = table[key]; node) {
            auto model = node.value<std::string>();
            if (!model || model->empty() || model->size() > 256)
                return config_error(path, "models." + key + " must name a model (e.g. \"" + out.model_for(role) + "\")");
            out.model_for(role) = *model;
        }
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
    std::vector<std::string> names{std::string(ModelsConfig::DEFAULT_KEY_VARIABLE)};
    if (models.api_key_env != ModelsConfig::DEFAULT_KEY_VARIABLE)
        names.push_back(models.api_key_env);
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
        TRY_VOID(only_keys(*input, "input", {"confirm", "confirm_timeout_s", "background", "mode"}, path));
        if (auto node = (*input)["confirm"]; node) {
            auto mode = node.value<std::string>();
            if (mode && *mode == "off")
                config.confirm = DeskConfig::ConfirmMode::off;
            else if (mode && *mode == "acts")
                config.confirm = DeskConfig::ConfirmMode::acts;
            else if (mode && *mode == "all")
                config.confirm = DeskConfig::ConfirmMode::all;
            else
                return config_error(path, "input.confirm must be \"off\", \"acts\" or \"all\"");
        }
        if (auto node = (*input)["confirm_timeout_s"]; node) {
            // Only an integer is read as one: toml++ casts a float to int64 without a range check.
            auto seconds = node.is_integer() ? node.value<std::int64_t>() : std::nullopt;
            if (!seconds || *seconds < 1 || *seconds > 600)
                return config_error(path, "input.confirm_timeout_s must be a whole number of seconds from 1 to 600");
            config.confirm_timeout_s = *seconds;
        }
        std::optional<bool> background;
        if (auto node = (*input)["background"]; node) {
            if (!node.is_boolean())
                return config_error(path, "input.background must be true or false");
            background = node.value<bool>();
            config.input_mode = *background ? DeskConfig::InputMode::background : DeskConfig::InputMode::foreground;
        }
        if (auto node = (*input)["mode"]; node) {
            auto mode = node.value<std::string>();
            if (mode && *mode == "foreground")
                config.input_mode = DeskConfig::InputMode::foreground;
            else if (mode && *mode == "background")
                config.input_mode = DeskConfig::InputMode::background;
            else if (mode && *mode == "auto")
                config.input_mode = DeskConfig::InputMode::automatic;
            else
                return config_error(path, "input.mode must be \"foreground\", \"background\" or \"auto\"");
            if (background && *background != (config.input_mode != DeskConfig::InputMode::foreground))
                return config_error(path, "input.background = " + std::string(*background ? "true" : "false") +
                                              " contradicts input.mode = \"" + *mode + "\"; keep one of them");
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
            if (!node.is_boolean())
                return config_error(path, "tools.script_run must be true or false");
            config.script_run = *node.value<bool>();
        }
    }
    if (auto* models = root["models"].as_table()) {
        TRY_VOID(parse_models(*models, config.models, path));
    } else if (root.contains("models")) {
        return config_error(path, "[models] must be a table");
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
