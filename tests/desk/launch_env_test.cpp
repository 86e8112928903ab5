// What an app started by desk_launch inherits (desk_read_launch.h, docs/security.md): the daemon's
// environment without the model key variables and the desk's own SHUTTLE_* ones, with the
// variables the launch sets in place of inherited ones, and no descriptor besides its stdin,
// stdout and stderr, even one the daemon left without O_CLOEXEC.

#include "desk/desk_read_launch.h"
#include "desk/desk_test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(LaunchedApp, GetsNoModelKeyNoDeskVariableAndNoDescriptor)
{
    nd_test::TempDir dir("launch-env");
    const std::string out = dir.path + "/seen";
    const std::string program = dir.path + "/app";
    std::ofstream(program) << "#!/bin/sh\n"
                              "env > " << out << ".env\n"
                              "for fd in 3 4 5 6 7 8 9; do [ -e /proc/$$/fd/$fd ] && echo $fd; done > " << out << ".fds\n"
                              "mv " << out << ".env " << out << "\n";
    ::chmod(program.c_str(), 0755);
    ::setenv("NISH_TEST_MODEL_KEY", "sk-secret", 1);
    ::setenv("SHUTTLE_TEST_PRIVATE", "1", 1);
    ::setenv("NISH_TEST_VISIBLE", "yes", 1);
    ::setenv("NISH_TEST_SET", "inherited", 1);
    // A descriptor the daemon holds without O_CLOEXEC, as a library might leave one.
    const int leaked = ::open("/dev/null", O_RDONLY);
    ASSERT_GE(leaked, 0);
    ASSERT_EQ(::dup2(leaked, 7), 7);
    auto launched = nd_desk::launch_app(program, {"NISH_TEST_MODEL_KEY"}, {"NISH_TEST_SET=given"});
    ::close(7);
    ::close(leaked);
    ::unsetenv("NISH_TEST_MODEL_KEY");
    ::unsetenv("SHUTTLE_TEST_PRIVATE");
    ::unsetenv("NISH_TEST_SET");
    ASSERT_TRUE(launched) << launched.error().message;
    for (int i = 0; i < 500 && ::access(out.c_str(), F_OK) != 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const auto env = slurp(out);
    ASSERT_FALSE(env.empty()) << "the app did not run";
    EXPECT_NE(env.find("NISH_TEST_VISIBLE=yes"), std::string::npos);
    EXPECT_EQ(env.find("sk-secret"), std::string::npos) << env;
    EXPECT_EQ(env.find("SHUTTLE_TEST_PRIVATE"), std::string::npos) << env;
    // A variable the launch sets takes the place of the inherited one.
    EXPECT_NE(env.find("NISH_TEST_SET=given"), std::string::npos) << env;
    EXPECT_EQ(env.find("NISH_TEST_SET=inherited"), std::string::npos) << env;
    EXPECT_EQ(slurp(out + ".fds"), "") << "descriptors the app inherited";
    ::unsetenv("NISH_TEST_VISIBLE");
}

} // namespace
