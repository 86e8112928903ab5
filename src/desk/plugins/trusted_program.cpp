#include "desk/plugins/trusted_program.h"

#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

namespace nd_desk {

namespace {

std::string mode_of(mode_t mode)
{
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

bool owner_ok(uid_t uid) { return uid == ::geteuid() || uid == 0; }

} // namespace

std::optional<std::string> untrusted_program(const std::string& path)
{
    const auto slash = path.rfind('/');
    const std::string dir = slash == 0 ? "/" : path.substr(0, slash);
    struct stat st{};
    if (::stat(dir.c_str(), &st) == 0) {
        if (!owner_ok(st.st_uid))
            return path + "'s directory " + dir + " belongs to another user (uid " + std::to_string(st.st_uid) + ")";
        if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
            return path + "'s directory " + dir + " may be written by others (mode " + mode_of(st.st_mode) + ")";
    }
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    if (!S_ISREG(st.st_mode))
        return path + " is not a regular file";
    if (!owner_ok(st.st_uid))
        return path + " belongs to another user (uid " + std::to_string(st.st_uid) + ")";
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return path + " may be written by others (mode " + mode_of(st.st_mode) + ")";
    if (!(st.st_mode & S_IXUSR))
        return path + " is not executable (mode " + mode_of(st.st_mode) + ")";
    return std::nullopt;
}

} // namespace nd_desk
