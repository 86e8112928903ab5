#pragma once

// The daemon's service plugins, kept running (docs/services.md, "Supervision"). Each service runs
// as the daemon's child: its bin with its args, in the home directory, in a process group of its
// own, stdin on /dev/null and its output on the daemon's, with SHUTTLE_SERVICE_SOCKET (where it
// listens: services/<service>.sock beside the endpoint, in a 0700 directory, a file left there
// removed before each start) and SHUTTLE_SOCKET (the daemon's endpoint), and without the model key
// variables. When it exits, the rest of its process group is killed (apps the desk launched for it
// are the daemon's children in groups of their own, so they stay) and it starts again after 1 s,
// doubling the wait on each exit up to 30 s; a run of 30 s or more starts the count again at 1 s.
// stop() sends each service SIGTERM, waits up to 3 s for it, then kills its group.
//
// Linux: posix_spawn, a pidfd per service, one thread per service that waits in poll().

#include "desk/plugins/service_decl.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace nd_desk {

struct ServicePolicy {
    std::chrono::milliseconds first_wait{1000}; // before the first restart, and after a long run
    std::chrono::milliseconds max_wait{30000};  // the doubling stops here
    std::chrono::milliseconds long_run{30000};  // a run this long starts the count again
    std::chrono::milliseconds term_grace{3000}; // between SIGTERM and the group's SIGKILL at stop()
};

struct ServiceLaunch {
    std::string endpoint;            // the daemon's: SHUTTLE_SOCKET, and where services/ is
    std::string work_dir;            // the home directory
    std::vector<std::string> hidden; // variables a service never sees (the model keys)
};

struct ServiceStatus {
    std::string name;
    int pid = -1;            // the running process, -1 between runs
    unsigned starts = 0;     // processes started so far
    std::string last_exit;   // how the last run ended ("exit status 3 after 0.2 s"), or why it could not start
};

class ServiceSupervisor {
public:
    using Log = std::function<void(const std::string&)>;

    ServiceSupervisor(std::vector<Service> services, ServiceLaunch launch, ServicePolicy policy = {}, Log log = {});
    ~ServiceSupervisor();
    ServiceSupervisor(const ServiceSupervisor&) = delete;
    ServiceSupervisor& operator=(const ServiceSupervisor&) = delete;

    // Makes the services directory and starts every service, each on a thread of its own. A
    // directory that cannot be made safe starts none and is logged.
    void start();
    // Ends every service (SIGTERM, the grace, SIGKILL to the group) at once and joins the threads.
    void stop();

    std::vector<ServiceStatus> status() const;
    const std::vector<Service>& services() const { return m_services; }

private:
    void supervise(std::size_t index);
    // Sleeps `d` unless stop() comes first; false when it did.
    bool pause(std::chrono::milliseconds d) const;
    void note(std::size_t index, int pid, bool started, const std::string& exit);

    std::vector<Service> m_services;
    ServiceLaunch m_launch;
    ServicePolicy m_policy;
    Log m_log;
    int m_stop_fd = -1;
    std::atomic<bool> m_stopping{false};
    std::vector<std::thread> m_threads;
    mutable std::mutex m_mutex;
    std::vector<ServiceStatus> m_status;
};

} // namespace nd_desk
