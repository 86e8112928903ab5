#include "desk/spawn_group.h"

#include <csignal>

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

} // namespace nd_desk
