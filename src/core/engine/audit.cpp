#include "core/engine/audit.h"

#include "core/encode/json_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nd_core {

std::optional<AuditName> AuditName::match(std::string_view value, std::initializer_list<AuditName> allowed)
{
    for (const AuditName& name : allowed)
        if (name.view() == value)
            return name;
    return std::nullopt;
}

std::string_view AuditOutcome::name() const { return m_error ? error_name(*m_error) : "ok"; }

namespace {

bool is_identifier(std::string_view s, std::size_t max, bool extra_ok(char))
{
    if (s.empty() || s.size() > max)
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || extra_ok(c)))
            return false;
    return true;
}

bool tool_extra(char) { return false; }
// Session ids are made by the driver ("mcp:host:4242"); anything else is not written.
bool session_extra(char c) { return (c >= 'A' && c <= 'Z') || c == ':' || c == '.' || c == '-'; }

std::string iso8601_utc(std::chrono::system_clock::time_point wall)
{
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wall.time_since_epoch()).count();
    std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    long millis = static_cast<long>(ms % 1000);
    if (millis < 0) {
        millis += 1000;
        --seconds;
    }
    std::tm tm {};
    gmtime_r(&seconds, &tm);
    char buf[40];
    std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, ".%03ldZ", millis);
    return buf;
}

std::string_view by_name(AuditBy by)
{
    switch (by) {
    case AuditBy::indicator: return "indicator";
    case AuditBy::host: return "host";
    case AuditBy::none: break;
    }
    return {};
}

// mkdir -p for the directories above `path`, each new one 0700. Existing ones are left alone.
void make_parent_dirs(const std::string& path)
{
    for (std::size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
        std::string dir = path.substr(0, slash);
        if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
            return; // open() will fail and report it
    }
}

std::string env(const char* name)
{
    const char* value = std::getenv(name);
    return value ? value : "";
}

} // namespace

std::int64_t monotonic_ms()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string audit_line(const AuditEntry& e, std::chrono::system_clock::time_point wall, std::int64_t at_ms)
{
    std::string out;
    JsonWriter w(out);
    w.begin_object();
    w.field("time", iso8601_utc(wall));
    w.field("at_ms", e.at_ms.value_or(at_ms));
    w.field("event", e.event.view());
    if (!e.session.empty())
        w.field("session", is_identifier(e.session, 128, session_extra) ? std::string_view(e.session) : "invalid");
    if (!e.tool.empty())
        w.field("tool", is_identifier(e.tool, 64, tool_extra) ? e.tool : "invalid");
    if (e.outcome)
        w.field("outcome", e.outcome->name());
    if (e.window_id)
        w.field("window_id", *e.window_id);
    if (e.pid)
        w.field("pid", *e.pid);
    if (e.app)
        w.field("app", sanitize_app_name(*e.app));
    if (e.element_index)
        w.field("element_index", *e.element_index);
    if (e.text_length)
        w.field("text_length", *e.text_length);
    if (e.clipboard_length)
        w.field("clipboard_length", *e.clipboard_length);
    if (!e.reason.empty())
        w.field("reason", e.reason.view());
    if (e.by != AuditBy::none)
        w.field("by", by_name(e.by));
    w.end_object();
    return out;
}

AuditLog::AuditLog(std::string path) : m_path(std::move(path)) {}

AuditLog::~AuditLog()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

std::string AuditLog::default_path()
{
    if (const char* explicit_path = std::getenv("NISH_AUDIT_LOG"))
        return explicit_path;
    // XDG: a relative XDG_STATE_HOME is invalid and must be ignored.
    std::string state = env("XDG_STATE_HOME");
    if (!state.empty() && state.front() == '/')
        return state + "/nish-driver/audit.jsonl";
    std::string home = env("HOME");
    if (!home.empty() && home.front() == '/')
        return home + "/.local/state/nish-driver/audit.jsonl";
    return {};
}

bool AuditLog::open_locked()
{
    if (m_fd >= 0)
        return true;
    make_parent_dirs(m_path);
    int fd = ::open(m_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        warn_once("open", errno);
        return false;
    }
    // A file made earlier with a wider mode is narrowed: the log names the apps the person used.
    // Only a regular file: a log pointed at a device or a pipe leaves its mode alone.
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 077) != 0)
        (void)::fchmod(fd, 0600);
    m_fd = fd;
    return true;
}

void AuditLog::warn_once(const char* what, int error) noexcept
{
    if (m_warned.exchange(true))
        return;
    std::fprintf(stderr, "nish-driver: cannot %s the audit log %s: %s; carrying on without it\n", what,
                 m_path.c_str(), std::strerror(error));
}

bool AuditLog::record(const AuditEntry& entry) noexcept
{
    if (!enabled() || entry.event.empty())
        return false;
    try {
        std::string line = audit_line(entry, std::chrono::system_clock::now(), monotonic_ms());
        line += '\n';
        std::lock_guard lock(m_mutex);
        if (!open_locked())
            return false;
        // One write per line with O_APPEND keeps lines whole even with other writers. A write cut
        // short (a full disk) is taken back, so the log never holds half a line.
        const off_t start = ::lseek(m_fd, 0, SEEK_END);
        std::size_t done = 0;
        while (done < line.size()) {
            ssize_t n = ::write(m_fd, line.data() + done, line.size() - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                warn_once("write", n < 0 ? errno : EIO);
                if (done > 0 && start >= 0)
                    (void)::ftruncate(m_fd, start);
                // Reopen next time: the file may have been removed or the disk freed.
                ::close(m_fd);
                m_fd = -1;
                return false;
            }
            done += static_cast<std::size_t>(n);
        }
        return true;
    } catch (...) {
        // Formatting can only fail on allocation; the log is not worth stopping the driver for.
        warn_once("format an entry for", ENOMEM);
        return false;
    }
}

} // namespace nd_core
