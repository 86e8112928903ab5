#include "backend/linux/atspi/atspi_locator.h"

#include "backend/linux/atspi/atspi_batch.h"
#include "backend/linux/atspi/atspi_names.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace nd_linux {

using nd_core::ErrorCode;
using nd_core::make_error;

namespace {

double overlap_ratio(const nd_core::Frame& a, const nd_core::Frame& b)
{
    if (!a.has_area() || !b.has_area())
        return 0.0;
    double x0 = std::max(a.x, b.x), y0 = std::max(a.y, b.y);
    double x1 = std::min<double>(a.x + a.w, b.x + b.w), y1 = std::min<double>(a.y + a.h, b.y + b.h);
    if (x1 <= x0 || y1 <= y0)
        return 0.0;
    double inter = (x1 - x0) * (y1 - y0);
    double uni = double(a.w) * a.h + double(b.w) * b.h - inter;
    return inter / uni;
}

ArgWriter string_arg(std::string value)
{
    return [value = std::move(value)](sd_bus_message* m) { return sd_bus_message_append(m, "s", value.c_str()); };
}

// Whether `pid` names a process that has not exited: one that exited and waits for its parent to
// reap it (state Z or X in /proc/PID/stat) has left the bus for good.
bool process_lives(std::int64_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
        return false;
    const auto close = line.rfind(')'); // the command name may hold spaces and parentheses
    if (close == std::string::npos || close + 2 >= line.size())
        return false;
    const char state = line[close + 2];
    if (state == 'Z' || state == 'X')
        return false;
    // A process killed a moment ago has left the bus (its sockets close as it exits) before it
    // is a zombie: the kernel marks it exiting (PF_EXITING in the flags, the seventh field after
    // the name) from the start of its exit.
    std::istringstream fields(line.substr(close + 2));
    std::string field;
    unsigned long flags = 0;
    for (int k = 0; k < 7 && fields >> field; ++k)
        if (k == 6)
            flags = std::strtoul(field.c_str(), nullptr, 10);
    constexpr unsigned long PF_EXITING = 0x4;
    return (flags & PF_EXITING) == 0;
}

} // namespace

int choose_top_level(const std::vector<TopLevel>& candidates, const nd_core::WindowInfo& window)
{
    int best = -1;
    double best_score = 0.0;
    int showing = 0, lone = -1;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const TopLevel& c = candidates[i];
        bool is_showing = c.states.has(ATSPI_STATE_SHOWING);
        if (is_showing) {
            ++showing;
            lone = static_cast<int>(i);
        }
        bool name_match = !window.title.empty() && c.name == window.title;
        double overlap = c.has_frame ? overlap_ratio(c.frame, window.frame) : 0.0;
        if (!name_match && overlap < 0.3)
            continue;
        double score = (name_match ? 2.0 : 0.0) + overlap + (is_showing ? 0.5 : 0.0);
        if (score > best_score) {
            best_score = score;
            best = static_cast<int>(i);
        }
    }
    if (best >= 0)
        return best;
    // The pid already matched: an app with one visible window is that window.
    return showing == 1 ? lone : -1;
}

nd_core::Result<std::vector<ObjectRef>> apps_of_pid(AtspiBus& bus, std::int64_t pid, Deadline deadline)
{
    auto reply = TRY(bus.call({REGISTRY_NAME, ROOT_PATH, IFACE_ACCESSIBLE, "GetChildren"}, {}, deadline));
    std::vector<ObjectRef> apps;
    if (read_refs(reply.get(), apps) < 0)
        return make_error(ErrorCode::backend_unavailable, "the AT-SPI registry sent a malformed list of apps");

    AtspiBatch batch(bus, deadline);
    for (const auto& app : apps) {
        if (app.null() || bus.cached_pid(app.bus) >= 0)
            continue;
        batch.add({DBUS_NAME, DBUS_PATH, DBUS_IFACE, "GetConnectionUnixProcessID"}, string_arg(app.bus),
                  [&bus, name = app.bus](const Reply& r) {
                      std::uint32_t p = 0;
                      if (r.ok() && sd_bus_message_read(r.message, "u", &p) > 0)
                          bus.remember_pid(name, p);
                  });
    }
    TRY_VOID(batch.run());
    std::vector<ObjectRef> out;
    for (auto& app : apps)
        if (!app.null() && bus.cached_pid(app.bus) == pid)
            out.push_back(std::move(app));
    return out;
}

nd_core::Result<LocatedWindow> locate_window(AtspiBus& bus, const nd_core::WindowInfo& window,
                                             const std::unordered_set<std::string>& no_cache, Deadline deadline)
{
    if (window.pid <= 0)
        return make_error(ErrorCode::window_target_not_found, "the window has no pid to find its AT-SPI app by");
    auto apps = TRY(apps_of_pid(bus, window.pid, deadline));
    if (apps.empty() && process_lives(window.pid))
        return make_error(ErrorCode::app_not_accessible,
                          "pid " + std::to_string(window.pid) + " shows this window but has no app on the AT-SPI bus: it does not "
                          "take part in accessibility (a GTK 2 app without GTK_MODULES=gail:atk-bridge, an Electron app "
                          "without --force-renderer-accessibility, an X toolkit with none), or it has not joined yet" +
                          std::string(bus.generation() > 0 ? ", or it was on the AT-SPI bus that went away (apps "
                                                             "join the new one when they start again)"
                                                           : ""));
    if (apps.empty())
        return make_error(ErrorCode::window_target_not_found,
                          "no AT-SPI app belongs to pid " + std::to_string(window.pid) + ": the process is gone");
    // From here on the app's calls take its peer-to-peer connection where it offers one.
    for (const auto& app : apps)
        bus.use_peer(app.bus, window.pid, deadline);

    // Round 1: each app's top-levels, and its cache in the same round trip.
    struct AppState {
        std::vector<ObjectRef> tops;
        std::shared_ptr<ItemCache> cache;
        bool refused = false;
    };
    std::vector<AppState> states(apps.size());
    AtspiBatch round1(bus, deadline);
    for (std::size_t i = 0; i < apps.size(); ++i) {
        AppState& st = states[i];
        round1.add({apps[i].bus, apps[i].path, IFACE_ACCESSIBLE, "GetChildren"}, {}, [&st](const Reply& r) {
            if (r.ok())
                (void)read_refs(r.message, st.tops);
        });
        if (no_cache.count(apps[i].bus))
            continue;
        round1.add({apps[i].bus, CACHE_PATH, IFACE_CACHE, "GetItems"}, {}, [&st](const Reply& r) {
            if (r.ok()) {
                auto cache = std::make_shared<ItemCache>();
                if (cache->parse(r.message))
                    st.cache = std::move(cache);
                else
                    st.refused = true;
            } else if (dbus_error_is_unknown_method(r.error) ||
                       sd_bus_error_has_name(r.error, SD_BUS_ERROR_UNKNOWN_OBJECT)) {
                st.refused = true;
            }
        });
    }
    TRY_VOID(round1.run());

    // Round 2: what choosing needs of every top-level, all in flight at once.
    std::vector<TopLevel> candidates;
    std::vector<std::size_t> owner;
    for (std::size_t i = 0; i < apps.size(); ++i)
        for (const auto& top : states[i].tops)
            if (!top.null()) {
                candidates.push_back(TopLevel{top});
                owner.push_back(i);
            }
    AtspiBatch round2(bus, deadline);
    for (auto& c : candidates) {
        Method base{c.ref.bus, c.ref.path, IFACE_ACCESSIBLE, ""};
        round2.add({base.dest, base.path, IFACE_ACCESSIBLE, "GetRole"}, {}, [&c](const Reply& r) {
            if (r.ok())
                (void)sd_bus_message_read_basic(r.message, 'u', &c.role);
        });
        round2.add({base.dest, base.path, IFACE_ACCESSIBLE, "GetState"}, {}, [&c](const Reply& r) {
            if (r.ok())
                (void)read_states(r.message, c.states);
        });
        // Properties.Get, not GetAll: Qt5 crashes on GetAll of the Accessible interface.
        round2.add({base.dest, base.path, IFACE_PROPERTIES, "Get"},
                   get_property(IFACE_ACCESSIBLE, "Name"),
                   [&c](const Reply& r) {
                       if (r.ok())
                           (void)read_string_variant(r.message, c.name);
                   });
        round2.add({base.dest, base.path, IFACE_COMPONENT, "GetExtents"},
                   [](sd_bus_message* m) { return sd_bus_message_append(m, "u", COORD_SCREEN); },
                   [&c](const Reply& r) { c.has_frame = r.ok() && read_extents(r.message, c.frame) >= 0; });
    }
    TRY_VOID(round2.run());

    int chosen = choose_top_level(candidates, window);
    if (chosen < 0)
        return make_error(ErrorCode::window_target_not_found,
                          "no top-level AT-SPI object of pid " + std::to_string(window.pid) +
                              " matches the window's title or frame (" + std::to_string(candidates.size()) +
                              " top-levels)");
    LocatedWindow out;
    std::size_t app = owner[static_cast<std::size_t>(chosen)];
    out.app = apps[app];
    out.top = std::move(candidates[static_cast<std::size_t>(chosen)]);
    out.cache = states[app].cache;
    out.cache_refused = states[app].refused;
    return out;
}

} // namespace nd_linux
