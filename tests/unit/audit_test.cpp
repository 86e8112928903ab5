#include "core/engine/audit.h"

#include "support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <csignal>
#include <set>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <thread>
#include <vector>

namespace {

using namespace nd_core;
namespace fs = std::filesystem;
using nlohmann::json;

static_assert(AuditName::valid("takeover.paused"));
static_assert(AuditName::valid("pointer_moved"));
static_assert(!AuditName::valid("Has Space"));
static_assert(!AuditName::valid(""));
static_assert(!AuditName::valid("a-b"));

class AuditTest : public ::testing::Test {
protected:

    std::vector<json> read_lines(const fs::path& path)
    {
        std::ifstream in(path);
        std::vector<json> out;
        for (std::string line; std::getline(in, line);)
            out.push_back(json::parse(line)); // throws, failing the test, on a broken line
        return out;
    }

    nd_test::TempDir m_tmp{"nd-audit"};
    fs::path m_dir = m_tmp.path;
};

AuditEntry full_entry()
{
    AuditEntry e;
    e.event = "tool_call";
    e.session = "mcp:host:4242";
    e.tool = "type_text";
    e.outcome = AuditOutcome::failed(ErrorCode::user_took_over);
    e.window_id = 41943047;
    e.pid = 5120;
    e.app = "Slack";
    e.element_index = 12;
    e.text_length = 9;
    e.clipboard_length = 0;
    e.reason = "key_pressed";
    e.by = AuditBy::host;
    e.at_ms = 18234;
    return e;
}

TEST_F(AuditTest, WritesAndReadsBack)
{
    fs::path path = m_dir / "state" / "nish-driver" / "audit.jsonl";
    AuditLog log(path.string());
    EXPECT_TRUE(log.enabled());
    EXPECT_TRUE(log.record(full_entry()));
    AuditEntry start;
    start.event = "session.start";
    start.session = "mcp:host:4242";
    start.outcome = AuditOutcome::ok();
    EXPECT_TRUE(log.record(start));

    auto lines = read_lines(path);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0]["event"], "tool_call");
    EXPECT_EQ(lines[0]["outcome"], "user_took_over");
    EXPECT_EQ(lines[0]["reason"], "key_pressed");
    EXPECT_EQ(lines[0]["by"], "host");
    EXPECT_EQ(lines[0]["at_ms"], 18234);
    EXPECT_EQ(lines[0]["app"], "Slack");
    EXPECT_EQ(lines[1]["event"], "session.start");
    EXPECT_EQ(lines[1]["outcome"], "ok");
}

TEST_F(AuditTest, Permissions)
{
    fs::path path = m_dir / "a" / "b" / "audit.jsonl";
    AuditLog log(path.string());
    AuditEntry e;
    e.event = "session.start";
    ASSERT_TRUE(log.record(e));
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    ASSERT_EQ(::stat((m_dir / "a").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    ASSERT_EQ(::stat((m_dir / "a" / "b").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST_F(AuditTest, NarrowsAnExistingWideFile)
{
    fs::path path = m_dir / "audit.jsonl";
    std::ofstream(path) << "{\"event\":\"earlier\"}\n";
    ::chmod(path.c_str(), 0644);
    AuditLog log(path.string());
    AuditEntry e;
    e.event = "session.end";
    ASSERT_TRUE(log.record(e));
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(read_lines(path).size(), 2u); // appended, not truncated
}

TEST_F(AuditTest, FieldSet)
{
    auto wall = std::chrono::system_clock::time_point(std::chrono::milliseconds(1700000000123));
    json full = json::parse(audit_line(full_entry(), wall, 99));
    std::set<std::string> keys;
    for (auto& [k, v] : full.items())
        keys.insert(k);
    EXPECT_EQ(keys, (std::set<std::string>{"time", "at_ms", "event", "session", "tool", "outcome", "window_id", "pid",
                                           "app", "element_index", "text_length", "clipboard_length", "reason", "by"}));
    EXPECT_EQ(full["time"], "2023-11-14T22:13:20.123Z");
    EXPECT_EQ(full["at_ms"], 18234); // the entry's own clock wins

    AuditEntry minimal;
    minimal.event = "takeover.resumed";
    std::string line = audit_line(minimal, wall, 99);
    EXPECT_EQ(line, R"({"time":"2023-11-14T22:13:20.123Z","at_ms":99,"event":"takeover.resumed"})");
}

TEST_F(AuditTest, OnlyIdentifiersAndAppNamesGetThrough)
{
    auto wall = std::chrono::system_clock::time_point();
    AuditEntry e;
    e.event = "tool_call";
    e.session = "mcp:host 4242 typed secret";
    e.tool = "Click Me!";
    e.app = std::string("Evil\nApp") + std::string(100, 'x');
    json j = json::parse(audit_line(e, wall, 0));
    EXPECT_EQ(j["time"], "1970-01-01T00:00:00.000Z");
    EXPECT_EQ(j["session"], "invalid");
    EXPECT_EQ(j["tool"], "invalid");
    // Control characters escaped, cut to 64 characters of the app's name.
    EXPECT_EQ(j["app"], "Evil\\x0aApp" + std::string(56, 'x'));

    auto reason = AuditName::match("pointer_moved", {"pointer_moved", "key_pressed", "button_pressed"});
    ASSERT_TRUE(reason);
    EXPECT_EQ(reason->view(), "pointer_moved");
    EXPECT_FALSE(AuditName::match("my password", {"pointer_moved", "key_pressed"}));
}

TEST_F(AuditTest, MonotonicClockWhenEntryHasNone)
{
    fs::path path = m_dir / "audit.jsonl";
    AuditLog log(path.string());
    AuditEntry e;
    e.event = "session.start";
    std::int64_t before = monotonic_ms();
    ASSERT_TRUE(log.record(e));
    std::int64_t after = monotonic_ms();
    auto lines = read_lines(path);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_GE(lines[0]["at_ms"].get<std::int64_t>(), before);
    EXPECT_LE(lines[0]["at_ms"].get<std::int64_t>(), after);
    EXPECT_EQ(lines[0]["time"].get<std::string>().back(), 'Z');
}

TEST_F(AuditTest, ConcurrentWritersKeepLinesWhole)
{
    fs::path path = m_dir / "audit.jsonl";
    AuditLog log(path.string());
    constexpr int THREADS = 4, PER_THREAD = 250;
    std::vector<std::thread> threads;
    for (int t = 0; t < THREADS; ++t)
        threads.emplace_back([&log, t] {
            for (int i = 0; i < PER_THREAD; ++i) {
                AuditEntry e = full_entry();
                e.pid = t;
                e.element_index = i;
                EXPECT_TRUE(log.record(e));
            }
        });
    for (auto& th : threads)
        th.join();
    auto lines = read_lines(path);
    ASSERT_EQ(lines.size(), std::size_t(THREADS * PER_THREAD));
    std::set<std::pair<int, int>> seen;
    for (const json& line : lines)
        seen.insert({line["pid"].get<int>(), line["element_index"].get<int>()});
    EXPECT_EQ(seen.size(), lines.size());
}

TEST_F(AuditTest, UnwritablePathWarnsOnceAndCarriesOn)
{
    fs::path blocker = m_dir / "not-a-dir";
    std::ofstream(blocker) << "x";
    AuditLog log((blocker / "audit.jsonl").string());
    AuditEntry e;
    e.event = "session.start";
    ::testing::internal::CaptureStderr();
    EXPECT_FALSE(log.record(e));
    EXPECT_FALSE(log.record(e));
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("audit log"), std::string::npos);
    EXPECT_EQ(err.find("audit log"), err.rfind("audit log")); // once
}

TEST_F(AuditTest, DisabledAndEventlessRecordNothing)
{
    AuditLog disabled("");
    EXPECT_FALSE(disabled.enabled());
    AuditEntry e;
    e.event = "session.start";
    EXPECT_FALSE(disabled.record(e));

    fs::path path = m_dir / "audit.jsonl";
    AuditLog log(path.string());
    EXPECT_FALSE(log.record(AuditEntry{}));
    EXPECT_FALSE(fs::exists(path));
}

TEST_F(AuditTest, DefaultPath)
{
    auto saved = [](const char* name) -> std::optional<std::string> {
        const char* v = std::getenv(name);
        return v ? std::optional<std::string>(v) : std::nullopt;
    };
    auto restore = [](const char* name, const std::optional<std::string>& v) {
        if (v)
            ::setenv(name, v->c_str(), 1);
        else
            ::unsetenv(name);
    };
    auto log_env = saved("NISH_AUDIT_LOG"), state = saved("XDG_STATE_HOME"), home = saved("HOME");

    ::setenv("NISH_AUDIT_LOG", "/x/explicit.jsonl", 1);
    ::setenv("XDG_STATE_HOME", "/x/state", 1);
    ::setenv("HOME", "/x/home", 1);
    EXPECT_EQ(AuditLog::default_path(), "/x/explicit.jsonl");
    ::setenv("NISH_AUDIT_LOG", "", 1);
    EXPECT_EQ(AuditLog::default_path(), ""); // explicitly disabled
    ::unsetenv("NISH_AUDIT_LOG");
    EXPECT_EQ(AuditLog::default_path(), "/x/state/nish-driver/audit.jsonl");
    ::setenv("XDG_STATE_HOME", "relative/state", 1);
    EXPECT_EQ(AuditLog::default_path(), "/x/home/.local/state/nish-driver/audit.jsonl");
    ::unsetenv("XDG_STATE_HOME");
    ::unsetenv("HOME");
    EXPECT_EQ(AuditLog::default_path(), "");

    restore("NISH_AUDIT_LOG", log_env);
    restore("XDG_STATE_HOME", state);
    restore("HOME", home);
}

} // namespace

// A disk that fills up mid-line (here the file size limit, which cuts a write short the same way):
// the record fails, the log keeps only whole lines, and once there is room again it carries on.
TEST_F(AuditTest, AFullDiskNeverLeavesHalfALine)
{
    fs::path path = m_dir / "audit.jsonl";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        AuditLog log(path.string());
        if (!log.record(full_entry()))
            ::_exit(2);
        const auto one_line = fs::file_size(path);
        rlimit limit{static_cast<rlim_t>(one_line + one_line / 2), RLIM_INFINITY};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        if (log.record(full_entry())) // half of it fits: refused and taken back
            ::_exit(3);
        if (fs::file_size(path) != one_line)
            ::_exit(4);
        limit.rlim_cur = RLIM_INFINITY;
        ::setrlimit(RLIMIT_FSIZE, &limit);
        ::_exit(log.record(full_entry()) ? 0 : 5);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "2: first record, 3: the cut record succeeded, 4: half a line left, 5: no recovery";
    EXPECT_EQ(read_lines(path).size(), 2u);
}
