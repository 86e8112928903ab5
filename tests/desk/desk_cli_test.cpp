// `shuttle desk VERB ...`, `shuttle stop` and `shuttle resume` (docs/desk.md, "CLI"): parsing of the
// JSON and flag forms (parse_desk_cli), and the program itself against a daemon on the mock backend:
// its output and exit status (0 answered, 1 the daemon answered is_error, 2 bad arguments, 3 no
// daemon).

#include "desk/desk_test_support.h"
#include "backend/mock/mock_backend.h"
#include "desk/cli/desk_cli.h"
#include "desk/daemon/daemon.h"
#include "desk/verbs/verbs.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using nlohmann::json;

namespace {

using nd_test::MockDaemon;

struct TempDir : nd_test::TempDir {
    TempDir() : nd_test::TempDir("desk-cli") {}
};

std::string slurp(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Run {
    int status = -1;
    std::string out, err;
};

// Runs the shuttle binary with SHUTTLE_SOCKET set to `socket`, in `cwd`.
Run run_shuttle(const std::vector<std::string>& args, const std::string& socket, const std::string& cwd)
{
    const std::string out_path = cwd + "/stdout.txt", err_path = cwd + "/stderr.txt";
    const std::string bin = std::string(NISH_BIN_DIR) + "/shuttle";
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(bin.c_str()));
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // The environment is built before fork: the child of a threaded process only calls what is
    // async-signal-safe.
    std::vector<std::string> env_strings{"SHUTTLE_SOCKET=" + socket};
    for (char** e = environ; *e; ++e)
        if (std::string_view(*e).rfind("SHUTTLE_SOCKET=", 0) != 0)
            env_strings.emplace_back(*e);
    std::vector<char*> envp;
    for (auto& e : env_strings)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0 || ::chdir(cwd.c_str()) != 0)
            ::_exit(126);
        ::dup2(out, STDOUT_FILENO);
        ::dup2(err, STDERR_FILENO);
        ::execve(bin.c_str(), argv.data(), envp.data());
        ::_exit(127);
    }
    Run r;
    int wstatus = 0;
    if (pid > 0 && ::waitpid(pid, &wstatus, 0) == pid && WIFEXITED(wstatus))
        r.status = WEXITSTATUS(wstatus);
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    return r;
}

// The JSON a run printed, or an empty object when it printed something else.
json printed(const Run& r)
{
    auto j = json::parse(r.out, nullptr, false);
    return j.is_discarded() ? json::object() : j;
}

std::string error_of(const std::vector<std::string>& argv)
{
    auto parsed = nd_desk::parse_desk_cli(argv);
    EXPECT_FALSE(parsed.ok());
    return parsed.ok() ? std::string() : parsed.error().message;
}

// A value the CLI would accept for `arg`, as typed on the command line, and the JSON it stands for.
std::pair<std::string, json> sample_value(const nd_desk::ArgSpec& arg)
{
    using nd_desk::ArgType;
    switch (arg.type) {
    case ArgType::string: {
        std::string v = arg.enum_values.empty() ? "abc" : arg.enum_values.front();
        return {v, json(v)};
    }
    case ArgType::integer: {
        const auto v = static_cast<std::int64_t>(arg.min.value_or(arg.max ? std::min(1.0, *arg.max) : 1.0));
        return {std::to_string(v), json(v)};
    }
    case ArgType::number: {
        const double v = arg.min.value_or(arg.max ? std::min(1.5, *arg.max) : 1.5);
        std::ostringstream s;
        s << v;
        return {s.str(), json(std::stod(s.str()))};
    }
    case ArgType::boolean: return {"true", json(true)};
    case ArgType::object: return {"{}", json::object()};
    case ArgType::json: return {"[1]", json::array({1})};
    case ArgType::string_array: return {"a,b", json::array({"a", "b"})};
    }
    return {"", json()};
}

} // namespace

TEST(DeskCliParse, VerbAndJsonForm)
{
    EXPECT_NE(error_of({}).find("name a verb"), std::string::npos);
    const std::string unknown = error_of({"nope"});
    EXPECT_NE(unknown.find("unknown verb nope"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("screen"), std::string::npos) << unknown << ": the error lists the verbs";

    auto bare = nd_desk::parse_desk_cli({"screen"});
    ASSERT_TRUE(bare.ok());
    EXPECT_EQ(bare->verb, "screen");
    EXPECT_EQ(bare->args, json::object());
    EXPECT_EQ(bare->out_path, "");

    auto json_form = nd_desk::parse_desk_cli({"screen", "{}"});
    ASSERT_TRUE(json_form.ok());
    EXPECT_EQ(json_form->args, json::object());
    EXPECT_NE(error_of({"screen", "{not json"}).find("not one JSON object"), std::string::npos);
    EXPECT_NE(error_of({"screen", R"({"bogus":1})"}).find("bogus"), std::string::npos);
}

TEST(DeskCliParse, FlagForm)
{
    EXPECT_NE(error_of({"screen", "--bogus", "1"}).find("takes no --bogus"), std::string::npos);
    EXPECT_NE(error_of({"screen", "stray"}).find("unexpected \"stray\""), std::string::npos);
    EXPECT_NE(error_of({"screen", "--out"}).find("--out takes a file name"), std::string::npos);
    auto out = nd_desk::parse_desk_cli({"screen", "--out", "a.png"});
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->out_path, "a.png");
    auto inline_out = nd_desk::parse_desk_cli({"screen", "{}", "--out=b.png"});
    ASSERT_TRUE(inline_out.ok());
    EXPECT_EQ(inline_out->out_path, "b.png");
}

// Every declared argument of every verb, given as a flag, arrives typed as declared; both forms
// give the same arguments.
TEST(DeskCliParse, FlagsAreTypedByTheVerbsDeclarations)
{
    std::size_t checked = 0;
    for (const auto& verb : nd_desk::desk_verbs()) {
        const std::string name(verb.verb());
        std::vector<std::string> argv{name};
        json expected = json::object();
        for (const auto& arg : verb.decl.args) {
            auto [text, value] = sample_value(arg);
            argv.push_back("--" + arg.name);
            argv.push_back(text);
            expected[arg.name] = value;
        }
        auto flags = nd_desk::parse_desk_cli(argv);
        if (!flags.ok()) {
            // A verb may refuse the sample combination (mutually exclusive arguments); its own
            // message must then say why, never that the flag syntax failed.
            EXPECT_EQ(flags.error().message.find("takes no --"), std::string::npos) << name << ": " << flags.error().message;
            continue;
        }
        EXPECT_EQ(flags->args, expected) << name;
        auto json_form = nd_desk::parse_desk_cli({name, expected.dump()});
        ASSERT_TRUE(json_form.ok()) << name;
        EXPECT_EQ(json_form->args, flags->args) << name;
        checked += verb.decl.args.size();
        for (const auto& arg : verb.decl.args) {
            if (arg.type == nd_desk::ArgType::integer) {
                EXPECT_NE(error_of({name, "--" + arg.name, "x1"}).find("takes an integer"), std::string::npos);
            }
        }
    }
    if (checked == 0)
        GTEST_SKIP() << "no desk verb declares arguments yet";
}

TEST(DeskCliRun, HelpListsEveryVerb)
{
    TempDir dir;
    auto r = run_shuttle({"--help"}, dir.socket(), dir.path);
    EXPECT_EQ(r.status, 0) << r.err;
    for (const auto& def : nd_desk::desk_verbs())
        EXPECT_NE(r.out.find("\n  " + def.decl.name.substr(5) + " "), std::string::npos) << def.decl.name << "\n" << r.out;
    // Without a command, the usage alone, on an error status.
    auto bare = run_shuttle({}, dir.socket(), dir.path);
    EXPECT_EQ(bare.status, 2);
}

TEST(DeskCliRun, EachVerbsHelpNamesEveryArgument)
{
    TempDir dir;
    for (const auto& def : nd_desk::desk_verbs()) {
        const std::string verb = def.decl.name.substr(5);
        auto r = run_shuttle({"desk", verb, "--help"}, dir.socket(), dir.path);
        EXPECT_EQ(r.status, 0) << verb << ": " << r.err;
        EXPECT_EQ(r.out.rfind("usage: shuttle desk " + verb, 0), 0u) << r.out;
        for (const auto& arg : def.decl.args)
            EXPECT_NE(r.out.find("--" + arg.name), std::string::npos) << verb << " --" << arg.name << "\n" << r.out;
    }
}

TEST(DeskCliRun, ExitStatusAndOutput)
{
    TempDir dir;
    // No daemon: 3, and the message says how to start one.
    auto none = run_shuttle({"desk", "screen"}, dir.socket(), dir.path);
    EXPECT_EQ(none.status, 3) << none.err;
    EXPECT_NE(none.err.find("no shuttle daemon answers at " + dir.socket()), std::string::npos) << none.err;
    EXPECT_EQ(run_shuttle({"stop"}, dir.socket(), dir.path).status, 3);

    MockDaemon daemon(dir.socket());
    // Bad arguments never reach the daemon: 2.
    for (const auto& argv : std::vector<std::vector<std::string>>{
             {"desk"}, {"desk", "nope"}, {"desk", "screen", "--bogus", "1"}, {"desk", "screen", "{x"}}) {
        auto r = run_shuttle(argv, dir.socket(), dir.path);
        EXPECT_EQ(r.status, 2) << argv.back() << ": " << r.err;
        EXPECT_NE(r.err.find("shuttle desk: "), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
    }
    // The daemon answers is_error (the mock backend has no screen): 1, the text on stderr.
    auto screen = run_shuttle({"desk", "screen"}, dir.socket(), dir.path);
    EXPECT_EQ(screen.status, 1);
    EXPECT_EQ(screen.err, "this desk has no screen\n");
    EXPECT_EQ(screen.out, "");

    // An answer: 0, the verb's JSON on stdout. The flag form types each value by the verb's
    // declaration (an object and an integer here), and a value of the wrong type is a 2.
    auto windows = run_shuttle({"desk", "windows"}, dir.socket(), dir.path);
    EXPECT_EQ(windows.status, 0) << windows.err;
    EXPECT_TRUE(printed(windows)["windows"].is_array()) << windows.out;
    auto wait = run_shuttle({"desk", "wait", "--since", R"({"windows":[]})", "--timeout_ms", "0"}, dir.socket(), dir.path);
    EXPECT_EQ(wait.status, 0) << wait.err;
    EXPECT_EQ(printed(wait)["changed"], true) << wait.out;
    auto bad_int = run_shuttle({"desk", "wait", "--since", "{}", "--timeout_ms", "soon"}, dir.socket(), dir.path);
    EXPECT_EQ(bad_int.status, 2);
    EXPECT_NE(bad_int.err.find("--timeout_ms takes an integer"), std::string::npos) << bad_int.err;

    // stop and resume: 0, the halt state as JSON; while halted, desk calls are refused.
    auto stop = run_shuttle({"stop"}, dir.socket(), dir.path);
    EXPECT_EQ(stop.status, 0) << stop.err;
    EXPECT_EQ(printed(stop), (json{{"halted", true}})) << stop.out;
    auto halted = run_shuttle({"desk", "screen"}, dir.socket(), dir.path);
    EXPECT_EQ(halted.status, 1);
    EXPECT_NE(halted.err.find("shuttle resume"), std::string::npos) << halted.err;
    auto resume = run_shuttle({"resume"}, dir.socket(), dir.path);
    EXPECT_EQ(resume.status, 0) << resume.err;
    EXPECT_EQ(printed(resume), (json{{"halted", false}})) << resume.out;
    EXPECT_EQ(run_shuttle({"desk", "screen"}, dir.socket(), dir.path).err, "this desk has no screen\n");
}
