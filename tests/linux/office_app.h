#pragma once

// A LibreOffice module (Calc, Writer) started for a test: a fresh profile of its own (no first-start
// wizard, no recovery), the GTK3 plugin (LibreOffice's own X11 plugin offers no AT-SPI), and, when
// it stops, the profile removed and the single-instance pipe it left in /tmp with it.

#include "tool_test_support.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace nd_test {

// LibreOffice's single-instance pipes: sockets in /tmp whatever TMPDIR says.
inline std::set<std::string> office_pipes()
{
    std::set<std::string> out;
    const std::string prefix = "OSL_PIPE_" + std::to_string(::getuid()) + "_";
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/tmp", ec))
        if (entry.path().filename().string().rfind(prefix, 0) == 0 && entry.is_socket(ec))
            out.insert(entry.path().string());
    return out;
}

// Removes the pipes not in `before` that no process listens on any more.
inline void remove_stale_office_pipes(const std::set<std::string>& before)
{
    for (const auto& path : office_pipes()) {
        if (before.count(path) || path.size() >= sizeof(sockaddr_un::sun_path))
            continue;
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
        const bool refused =
            ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 && errno == ECONNREFUSED;
        ::close(fd);
        if (refused)
            ::unlink(path.c_str());
    }
}

class OfficeApp {
public:
    // `module` is soffice's switch ("--calc", "--writer"); `write_files` may put documents into the
    // profile directory (its argument) and returns the paths to open.
    template <typename Files>
    OfficeApp(const std::string& module, Files&& write_files)
    {
        std::string dir = (std::filesystem::temp_directory_path() / "nish-office-XXXXXX").string();
        if (!::mkdtemp(dir.data())) {
            ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
            return;
        }
        m_profile = dir;
        m_pipes_before = office_pipes();
        std::vector<std::string> argv{"soffice", module, "--norestore", "--nologo",
                                      "-env:UserInstallation=file://" + m_profile + "/profile"};
        for (auto& file : write_files(m_profile))
            argv.push_back(std::move(file));
        m_app = std::make_unique<OwnedApp>(std::move(argv), std::vector<std::string>{"SAL_USE_VCLPLUGIN=gtk3"});
    }
    ~OfficeApp()
    {
        if (m_app) {
            m_app->stop();
            remove_stale_office_pipes(m_pipes_before);
        }
        if (!m_profile.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(m_profile, ec);
        }
    }
    OfficeApp(const OfficeApp&) = delete;
    OfficeApp& operator=(const OfficeApp&) = delete;

    static bool installed() { return std::system("command -v soffice >/dev/null 2>&1") == 0; }
    OwnedApp& app() { return *m_app; }
    const std::string& dir() const { return m_profile; }

private:
    std::string m_profile;
    std::set<std::string> m_pipes_before;
    std::unique_ptr<OwnedApp> m_app;
};

// A test on a LibreOffice module: its window (m_window) read through the tools of a session.
class OfficeTest : public LinuxToolTest {
protected:
    // Starts `module` ("--writer") with the files `write_files` puts into its directory and waits
    // for its window, listed as `app_name`; skips when LibreOffice is not installed.
    template <typename Files>
    void start_office(const std::string& module, const std::string& app_name, Files&& write_files)
    {
        LinuxToolTest::SetUp();
        if (IsSkipped())
            return;
        if (!OfficeApp::installed())
            GTEST_SKIP() << "LibreOffice (soffice) is not installed";
        m_office = std::make_unique<OfficeApp>(module, std::forward<Files>(write_files));
        m_window = wait_for_window(m_office->app(), app_name, 1000, std::chrono::seconds(90));
        ASSERT_FALSE(m_window.is_null());
    }

    // Starts Writer on one file of its own, `name` holding `content`.
    void start_writer_on(const std::string& name, const std::string& content)
    {
        start_office("--writer", "libreoffice-writer", [&](const std::string& dir) {
            const std::string path = dir + "/" + name;
            std::ofstream(path) << content;
            return std::vector<std::string>{path};
        });
    }

    void TearDown() override
    {
        call("end_session");
        m_office.reset();
    }

    std::unique_ptr<OfficeApp> m_office;
    json m_window;
};

} // namespace nd_test
