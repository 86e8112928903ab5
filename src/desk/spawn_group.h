#pragma once

// What every child the desk starts shares (desk_launch's apps, script runs, plugins): posix_spawn
// attributes for a process group of its own, an empty signal mask and default handlers (the
// daemon's threads block signals its children must not inherit).

#include <spawn.h>

#include <string>
#include <vector>

namespace nd_desk {

class GroupSpawnAttr {
public:
    GroupSpawnAttr();
    ~GroupSpawnAttr();
    GroupSpawnAttr(const GroupSpawnAttr&) = delete;
    GroupSpawnAttr& operator=(const GroupSpawnAttr&) = delete;
    const posix_spawnattr_t* get() const { return &m_attr; }

private:
    posix_spawnattr_t m_attr;
};

// Closes every descriptor from 3 up in the child, after the actions added before it (the stdio
// dup2s): a child holds only what it was handed, whatever a library opened without O_CLOEXEC.
void close_inherited(posix_spawn_file_actions_t* files);

// The strings' C pointers and a null after them: posix_spawn's argv and envp (the strings must
// outlive the array).
std::vector<char*> c_array(const std::vector<std::string>& strings);

// The daemon's environment for a child ("NAME=value"), without the `hidden` variables (the model
// keys) and the desk's own SHUTTLE_* ones, then `extra` ("NAME=value"), each in place of an
// inherited variable of its name.
std::vector<std::string> child_environment(const std::vector<std::string>& hidden, const std::vector<std::string>& extra);

} // namespace nd_desk
