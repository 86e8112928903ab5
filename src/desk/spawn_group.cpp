#include "desk/spawn_group.h"

#include <csignal>
#include <string_view>

extern char** environ;

namespace nd_desk {

GroupSpawnAttr::GroupSpawnAttr()
{
    posix_spawnattr_init(&m_attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigmask(&m_attr, &none);
    posix_spawnattr_setsigdefault(&m_attr, &all);
    posix_spawnattr_setpgroup(&m_attr, 0);
    posix_spawnattr_setflags(&m_attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
}

GroupSpawnAttr::~GroupSpawnAttr() { posix_spawnattr_destroy(&m_attr); }

std::vector<char*> c_array(const std::vector<std::string>& strings)
{
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (const auto& s : strings)
        out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

void close_inherited(posix_spawn_file_actions_t* files) { posix_spawn_file_actions_addclosefrom_np(files, 3); }

std::vector<std::string> child_environment(const std::vector<std::string>& hidden, const std::vector<std::string>& extra)
{
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        std::string_view entry(*e);
        const auto name = entry.substr(0, entry.find('='));
        bool drop = name.starts_with("SHUTTLE_");
        for (const auto& h : hidden)
            drop = drop || name == h;
        // An extra variable takes the place of an inherited one of its name.
        for (const auto& x : extra)
            drop = drop || std::string_view(x).substr(0, x.find('=')) == name;
        if (!drop)
            env.emplace_back(entry);
    }
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
}

} // namespace nd_desk
