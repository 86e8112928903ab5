#include "desk/cli/desk_cli.h"

#include "core/encode/base64.h"
#include "core/whole_file.h"
#include "desk/verbs/verbs.h"
#include "desk/wire/client.h"
#include "desk/wire/endpoint.h"
#include "mcp/tool_docs.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace nd_desk {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

nd_core::Result<nlohmann::json> typed_value(const ArgSpec& arg, const std::string& text)
{
    switch (arg.type) {
    case ArgType::string: return nlohmann::json(text);
    case ArgType::integer: {
        std::int64_t v = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size())
            return make_error(ErrorCode::invalid_arguments, "--" + arg.name + " takes an integer, not \"" + text + "\"");
        return nlohmann::json(v);
    }
    case ArgType::number: {
        try {
            std::size_t used = 0;
            double v = std::stod(text, &used);
            if (used == text.size())
                return nlohmann::json(v);
        } catch (...) {
        }
        return make_error(ErrorCode::invalid_arguments, "--" + arg.name + " takes a number, not \"" + text + "\"");
    }
    case ArgType::boolean:
        if (text == "true" || text == "1")
            return nlohmann::json(true);
        if (text == "false" || text == "0")
            return nlohmann::json(false);
        return make_error(ErrorCode::invalid_arguments, "--" + arg.name + " takes true or false");
    case ArgType::object: {
        auto j = nlohmann::json::parse(text, nullptr, false);
        if (j.is_discarded() || !j.is_object())
            return make_error(ErrorCode::invalid_arguments, "--" + arg.name + " takes a JSON object");
        return j;
    }
    case ArgType::json: {
        // JSON when it parses as an object or a list, else the text itself.
        auto j = nlohmann::json::parse(text, nullptr, false);
        if (!j.is_discarded() && (j.is_object() || j.is_array()))
            return j;
        return nlohmann::json(text);
    }
    case ArgType::string_array: {
        nlohmann::json list = nlohmann::json::array();
        std::size_t start = 0;
        while (start <= text.size()) {
            auto comma = text.find(',', start);
            if (comma == std::string::npos)
                comma = text.size();
            list.push_back(text.substr(start, comma - start));
            start = comma + 1;
        }
        return list;
    }
    }
    return make_error(ErrorCode::invalid_arguments, "--" + arg.name + ": unknown type");
}

std::string usage_of(const VerbDef& verb)
{
    std::string out = "usage: shuttle desk " + std::string(verb.verb());
    for (const auto& a : verb.decl.args)
        out += a.required ? " --" + a.name + " VALUE" : " [--" + a.name + " VALUE]";
    return out + "   (or one JSON object of the same arguments)";
}

int call_daemon(const std::string& tool, const nlohmann::json& args, const std::string& out_path)
{
    auto endpoint = wire::default_endpoint();
    if (!endpoint) {
        std::cerr << "shuttle: " << endpoint.error().message << "\n";
        return 3;
    }
    auto client = wire::Client::connect(*endpoint);
    if (!client) {
        std::cerr << "shuttle: " << client.error().message << "\n";
        return 3;
    }
    auto result = client->call(wire::Request{"", tool, args});
    if (result.status != wire::Client::CallStatus::answered) {
        std::cerr << "shuttle: " << result.failure << "\n";
        return 3;
    }
    const auto& response = result.response;
    if (response.is_error) {
        std::cerr << response.text << "\n";
        return 1;
    }
    if (!response.image_b64) {
        std::cout << response.text << "\n";
        return 0;
    }
    std::string path = out_path;
    if (path.empty())
        path = "shot-" + std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count()) +
               (response.image_mime == "image/jpeg" ? ".jpg" : ".png");
    std::string png;
    if (!nd_core::base64_decode(*response.image_b64, png)) {
        std::cerr << "shuttle: the daemon's image is not base64\n";
        return 3;
    }
    // Relative to where the command runs; written whole or not at all (core/whole_file.h).
    std::string absolute = path;
    if (absolute.front() != '/') {
        std::error_code ec;
        if (auto full = std::filesystem::absolute(path, ec); !ec)
            absolute = full.lexically_normal().string();
    }
    if (auto written = nd_core::write_whole_file(absolute, png, "--out", nd_core::Links::follow); !written) {
        std::cerr << "shuttle: " << written.error().message << "\n";
        return 1;
    }
    auto text = nlohmann::json::parse(response.text, nullptr, false);
    if (text.is_object()) {
        text["file"] = path;
        std::cout << text.dump() << "\n";
    } else {
        std::cout << response.text << "\n" << path << "\n";
    }
    return 0;
}

} // namespace

nd_core::Result<CliArgs> parse_desk_cli(const std::vector<std::string>& argv)
{
    if (argv.empty())
        return make_error(ErrorCode::invalid_arguments, "name a verb: shuttle desk VERB (windows, snapshot, find, press, ...)");
    CliArgs out;
    out.verb = argv[0];
    const VerbDef* verb = find_verb("desk_" + out.verb);
    if (!verb) {
        std::string names;
        for (const auto& v : desk_verbs())
            names += (names.empty() ? "" : ", ") + std::string(v.verb());
        return make_error(ErrorCode::invalid_arguments, "unknown verb " + out.verb + "; the desk has: " + names);
    }
    std::size_t i = 1;
    if (i < argv.size() && !argv[i].empty() && argv[i][0] == '{') {
        auto j = nlohmann::json::parse(argv[i], nullptr, false);
        if (j.is_discarded() || !j.is_object())
            return make_error(ErrorCode::invalid_arguments, "the arguments are not one JSON object");
        out.args = std::move(j);
        ++i;
    }
    for (; i < argv.size(); ++i) {
        const std::string& flag = argv[i];
        if (flag.rfind("--", 0) != 0)
            return make_error(ErrorCode::invalid_arguments, "unexpected \"" + flag + "\". " + usage_of(*verb));
        std::string name = flag.substr(2);
        std::optional<std::string> inline_value;
        if (auto eq = name.find('='); eq != std::string::npos) {
            inline_value = name.substr(eq + 1);
            name.resize(eq);
        }
        if (name == "out") {
            if (!inline_value && i + 1 >= argv.size())
                return make_error(ErrorCode::invalid_arguments, "--out takes a file name");
            out.out_path = inline_value ? *inline_value : argv[++i];
            continue;
        }
        const ArgSpec* arg = nullptr;
        for (const auto& a : verb->decl.args)
            if (a.name == name)
                arg = &a;
        if (!arg)
            return make_error(ErrorCode::invalid_arguments,
                "desk " + std::string(verb->verb()) + " takes no --" + name + ". " + usage_of(*verb));
        std::string value;
        if (inline_value) {
            value = *inline_value;
        } else if (arg->type == ArgType::boolean && (i + 1 >= argv.size() || argv[i + 1].rfind("--", 0) == 0)) {
            value = "true";
        } else {
            if (i + 1 >= argv.size())
                return make_error(ErrorCode::invalid_arguments, "--" + name + " needs a value");
            value = argv[++i];
        }
        out.args[name] = TRY(typed_value(*arg, value));
    }
    if (auto checked = nd_mcp::check_arguments(verb->decl, out.args); !checked)
        return make_error(ErrorCode::invalid_arguments, checked.error().message + ". " + usage_of(*verb));
    return out;
}

int run_desk_cli(const std::vector<std::string>& argv)
{
    // `shuttle desk VERB --help`: the verb's description and every argument, from its declaration.
    if (argv.size() == 2 && (argv[1] == "--help" || argv[1] == "-h")) {
        if (const VerbDef* verb = find_verb("desk_" + argv[0])) {
            std::cout << usage_of(*verb) << "\n" << nd_mcp::tool_section_markdown(verb->decl, argv[0])
                      << "\n--out FILE: where a picture goes (default shot-<time>.png here).\n";
            return 0;
        }
    }
    auto parsed = parse_desk_cli(argv);
    if (!parsed) {
        std::cerr << "shuttle desk: " << parsed.error().message << "\n";
        return 2;
    }
    return call_daemon("desk_" + parsed->verb, parsed->args, parsed->out_path);
}

int run_safety(bool stop) { return call_daemon(stop ? "safety_stop" : "safety_resume", nullptr, ""); }

} // namespace nd_desk
