// Takeover figures on the virtual test desktop, for scripts/bench-takeover (which starts the desktop
// and gtk3-widget-factory and passes its pid):
//
// - hand-back: the person (a second master device, "person", whose XTEST keyboard this program
//   drives, as tests/linux/person_input.h does) presses Shift during a move_cursor glide and during a
//   long foreground type_text. Two latencies from the press: to the last event the driver's devices
//   (the core XTEST slaves) produced, seen as XI2 raw events on a connection of this program's own,
//   and to the tool call's return. The session is resumed by the host between trials.
// - indicator removal: from each of the six triggers (end_session, kill switch, revocation, lease
//   expiry, closed connection, start_session headless) to the server answering BadWindow for every
//   window of the indicator; and the kill switch 30 ms after the first key of a two-character
//   foreground type_text, while the call is in its settle reads.
//
// Prints one JSON object per figure: {"name", "trials", "p50_ms", "p99_ms", "max_ms"}.
// usage: linux_takeover_bench PID [TRIALS_HANDBACK [TRIALS_INDICATOR]]

#include "linux_bench_driver.h"

#include "backend/linux/x11/x11_display.h"
#include "backend/linux/x11/x11_overlay.h"
#include "driver/control/control_commands.h"

#include <nlohmann/json.hpp>

#include <xcb/xinput.h>
#include <xcb/xtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <poll.h>
#include <random>
#include <set>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
using namespace std::chrono_literals;

double ms_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

void report(const std::string& name, std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v.empty() ? 0.0 : v[std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())) - 1))]; };
    json out = {{"name", name}, {"trials", v.size()}, {"p50_ms", at(0.50)}, {"p99_ms", at(0.99)},
        {"max_ms", v.empty() ? 0.0 : v.back()}};
    std::cout << out.dump() << std::endl;
}

// Device ids by name (XI2).
std::set<std::uint16_t> devices_named(nd_linux::X11Display& d, const std::set<std::string>& names)
{
    std::set<std::uint16_t> out;
    auto* c = d.connection();
    auto* reply = xcb_input_xi_query_device_reply(c, xcb_input_xi_query_device(c, XCB_INPUT_DEVICE_ALL), nullptr);
    if (!reply)
        return out;
    for (auto it = xcb_input_xi_query_device_infos_iterator(reply); it.rem; xcb_input_xi_device_info_next(&it)) {
        std::string name(xcb_input_xi_device_info_name(it.data), static_cast<std::size_t>(xcb_input_xi_device_info_name_length(it.data)));
        if (names.contains(name))
            out.insert(it.data->deviceid);
    }
    std::free(reply);
    return out;
}

// Watches XI2 raw events on a connection of its own and keeps the server time (ms) of the last one
// from the driver's devices and of the last key press from the person's keyboard. Server times do
// not include delivery to this program, which the app's own work on two cores can delay.
class DriverEventClock {
public:
    explicit DriverEventClock(std::unique_ptr<nd_linux::X11Display> d) : m_display(std::move(d))
    {
        m_sources = devices_named(*m_display, {"Virtual core XTEST pointer", "Virtual core XTEST keyboard"});
        struct {
            xcb_input_event_mask_t head;
            std::uint32_t bits;
        } mask{{XCB_INPUT_DEVICE_ALL_MASTER, 1},
            XCB_INPUT_XI_EVENT_MASK_RAW_KEY_PRESS | XCB_INPUT_XI_EVENT_MASK_RAW_KEY_RELEASE
                | XCB_INPUT_XI_EVENT_MASK_RAW_BUTTON_PRESS | XCB_INPUT_XI_EVENT_MASK_RAW_BUTTON_RELEASE
                | XCB_INPUT_XI_EVENT_MASK_RAW_MOTION};
        xcb_input_xi_select_events(m_display->connection(), m_display->root(), 1, &mask.head);
        xcb_flush(m_display->connection());
        m_thread = std::thread([this] { run(); });
    }
    ~DriverEventClock()
    {
        m_stop = true;
        m_thread.join();
    }
    bool ok() const { return m_sources.size() == 2; }
    void set_person(std::uint16_t keyboard) { m_person = keyboard; }
    std::uint32_t last_driver() const { return m_last_driver.load(); }
    std::uint32_t last_person_press() const { return m_last_person.load(); }
    std::uint32_t person_presses() const { return m_person_presses.load(); }

private:
    void run()
    {
        auto* c = m_display->connection();
        pollfd p{xcb_get_file_descriptor(c), POLLIN, 0};
        while (!m_stop) {
            ::poll(&p, 1, 20);
            while (auto* e = xcb_poll_for_event(c)) {
                if ((e->response_type & 0x7f) == XCB_GE_GENERIC) {
                    // Raw key, button and motion events share this layout up to sourceid.
                    const auto* raw = reinterpret_cast<const xcb_input_raw_key_press_event_t*>(e);
                    if (m_sources.contains(raw->sourceid))
                        m_last_driver = raw->time;
                    else if (raw->sourceid == m_person && raw->event_type == XCB_INPUT_RAW_KEY_PRESS) {
                        m_last_person = raw->time;
                        ++m_person_presses;
                    }
                }
                std::free(e);
            }
        }
    }

    std::unique_ptr<nd_linux::X11Display> m_display;
    std::set<std::uint16_t> m_sources;
    std::atomic<std::uint16_t> m_person{0};
    std::atomic<std::uint32_t> m_last_driver{0}, m_last_person{0}, m_person_presses{0};
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

struct Bench : LinuxBenchDriver {
    json call(std::string_view tool, const json& args, bool* error = nullptr)
    {
        auto out = call_tool(tool, args);
        if (error)
            *error = out.is_error;
        return json::parse(out.structured);
    }
    nd_linux::X11Overlay* overlay() { return dynamic_cast<nd_linux::X11Overlay*>(backend->overlay()); }
    bool start_takeover()
    {
        bool error = false;
        auto s = call("start_session", {{"apps", {"gtk3-widget-factory"}}, {"input", "takeover"}}, &error);
        return !error && s["takeover"]["on"] == true;
    }
    // The first editable, enabled, showing text of the window, read whole; null when none.
    json editable_text(const json& window)
    {
        auto read = call("get_window_state", {{"window_id", window["window_id"]}, {"max_elements", 5000}, {"max_depth", 200}});
        for (const auto& row : read["elements"]) {
            const auto& st = row["states"];
            auto has = [&](const char* s) { return std::find(st.begin(), st.end(), s) != st.end(); };
            if (row["role"] == "text" && has("editable") && has("enabled") && has("showing"))
                return row;
        }
        return nullptr;
    }
    void resume()
    {
        std::lock_guard lock(engine->mutex());
        engine->resume(nd_core::ResumeBy::host);
    }
};

bool all_gone(nd_linux::X11Display& d, const std::vector<std::uint32_t>& ids)
{
    auto* c = d.connection();
    bool gone = true;
    for (auto id : ids) {
        xcb_generic_error_t* error = nullptr;
        auto* reply = xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, id), &error);
        gone = gone && !reply && error && error->error_code == XCB_WINDOW;
        std::free(reply);
        std::free(error);
    }
    return gone;
}

void person_press(nd_linux::X11Display& d, std::uint16_t device, std::uint8_t keycode)
{
    const auto* xi = xcb_get_extension_data(d.connection(), &xcb_input_id);
    auto* c = d.connection();
    const auto dev = static_cast<std::uint8_t>(device);
    xcb_test_fake_input(c, static_cast<std::uint8_t>(xi->first_event + 1), keycode, XCB_CURRENT_TIME, d.root(), 0, 0, dev);
    xcb_test_fake_input(c, static_cast<std::uint8_t>(xi->first_event + 2), keycode, XCB_CURRENT_TIME, d.root(), 0, 0, dev);
    xcb_flush(c);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: linux_takeover_bench PID [TRIALS_HANDBACK [TRIALS_INDICATOR]]\n";
        return 2;
    }
    const std::int64_t pid = std::atoll(argv[1]);
    const int handback_trials = argc > 2 ? std::atoi(argv[2]) : 30;
    const int indicator_trials = argc > 3 ? std::atoi(argv[3]) : 20;

    Bench b;
    if (!b.open())
        return 1;
    if (!b.backend->input() || !b.backend->watcher() || !b.overlay()) {
        std::cerr << "this X server lacks XTEST, XInput 2.1 or SHAPE\n";
        return 1;
    }
    auto person_display = nd_linux::X11Display::open();
    auto watch_display = nd_linux::X11Display::open();
    if (!person_display.ok() || !watch_display.ok()) {
        std::cerr << "no display\n";
        return 1;
    }
    auto& pd = **person_display;
    if (std::system("xinput create-master person") != 0) {
        std::cerr << "xinput create-master failed\n";
        return 1;
    }
    std::uint16_t person_keyboard = 0;
    if (auto ids = devices_named(pd, {"person XTEST keyboard"}); !ids.empty())
        person_keyboard = *ids.begin();
    DriverEventClock driver_events(std::move(watch_display).value());
    driver_events.set_person(person_keyboard);

    json window;
    for (int i = 0; i < 300 && window.is_null(); ++i) {
        b.call("start_session", {{"apps", {"gtk3-widget-factory"}}});
        const auto list = b.call("list_windows", json::object());
        for (const auto& w : list["windows"])
            if (w["pid"] == pid || w["title"] == "gtk3-widget-factory") // setsid may fork
                window = w;
        if (window.is_null())
            std::this_thread::sleep_for(100ms);
    }
    int status = 0;
    const char* problem = window.is_null()  ? "no gtk3-widget-factory window"
        : person_keyboard == 0               ? "no person XTEST keyboard"
        : !driver_events.ok()                ? "no core XTEST devices"
        : !b.start_takeover()                ? "takeover not granted"
                                             : nullptr;
    if (problem) {
        std::cerr << "setup failed: " << problem << "\n";
        if (window.is_null())
            std::cerr << b.call("list_windows", json::object()).dump() << "\n";
        status = 1;
    }
    const std::uint8_t SHIFT_L = 50; // harmless in the app
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> wait_ms(50, 250);

    // One hand-back trial: `act` runs on a thread; the person presses during it.
    auto handback = [&](const std::function<bool()>& act, std::vector<double>& to_event, std::vector<double>& to_return) {
        bool stopped = false;
        Clock::time_point returned;
        const auto began = Clock::now();
        const auto driver_before = driver_events.last_driver();
        const auto presses_before = driver_events.person_presses();
        std::thread t([&] {
            stopped = act();
            returned = Clock::now();
        });
        // The press comes once the driver is sending (after the call's own reads and checks).
        while (driver_events.last_driver() == driver_before && Clock::now() - began < 3s)
            std::this_thread::sleep_for(1ms);
        std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms(rng)));
        const auto pressed = Clock::now();
        person_press(pd, person_keyboard, SHIFT_L);
        t.join();
        std::this_thread::sleep_for(100ms); // stragglers (releases) reach the event clock
        if (stopped && driver_events.person_presses() > presses_before) {
            const auto last = driver_events.last_driver(), press = driver_events.last_person_press();
            to_event.push_back(last > press ? static_cast<double>(last - press) : 0.0);
            to_return.push_back(ms_between(pressed, returned));
        }
        b.resume();
        return stopped;
    };

    // The kill switch as the host sends it: the control pipe's own handling of the line (it hides
    // the indicator before it waits for a call in progress to let go of the engine).
    nd_driver::ControlCommands control(*b.engine);
    auto kill_switch_line = [&] { (void)control.handle(R"({"id":1,"method":"kill_switch"})"); };

    // Indicator removal, trigger by trigger; first, while the app is idle (the typing below leaves it
    // busy laying out a long entry for a while, which slows the server's replies).
    const std::vector<std::pair<std::string, std::function<void()>>> triggers = {
        {"end_session", [&] { b.call("end_session", json::object()); }},
        {"kill_switch", [&] { kill_switch_line(); }},
        {"revoke", [&] {
             const auto id = b.engine->session()->id;
             b.engine->interrupt(id);
             std::lock_guard lock(b.engine->mutex());
             (void)b.engine->revoke(id);
             b.engine->clear_interrupt();
         }},
        {"lease_expiry", [&] {
             b.engine->advance_clock(std::chrono::seconds(nd_core::DEFAULT_LEASE_S + 1));
             b.call("get_session_state", json::object());
         }},
        {"connection_closed", [&] {
             std::lock_guard lock(b.engine->mutex());
             b.engine->connection_closed();
         }},
        {"start_session_headless", [&] { b.call("start_session", {{"apps", {"gtk3-widget-factory"}}, {"input", "headless"}}); }},
    };
    for (const auto& [name, trigger] : triggers) {
        if (status != 0)
            break;
        std::vector<double> v;
        for (int i = 0; i < indicator_trials; ++i) {
            if (!b.start_takeover()) {
                std::cerr << name << ": takeover not granted\n";
                status = 1;
                break;
            }
            const auto ids = b.overlay()->window_ids();
            const auto t0 = Clock::now();
            trigger();
            while (!(b.overlay()->window_ids().empty() && all_gone(pd, ids)) && Clock::now() - t0 < 1s)
                std::this_thread::sleep_for(50us);
            v.push_back(ms_between(t0, Clock::now()));
        }
        report("indicator_" + name, v);
    }

    if (status == 0 && !b.start_takeover())
        status = 1;
    if (status == 0) {
        std::vector<double> glide_event, glide_return, type_event, type_return;
        b.call("bring_to_front", {{"window_id", window["window_id"]}});
        int failures = 0;
        for (int i = 0; i < handback_trials && failures < 5; ++i) {
            const int x = i % 2 ? 20 : 400;
            if (!handback([&] {
                    bool error = false;
                    auto r = b.call("move_cursor", {{"window_id", window["window_id"]}, {"x", x}, {"y", 200},
                                                    {"duration_ms", 2000}, {"delivery_mode", "foreground"}}, &error);
                    return error && r["error"]["code"] == "user_took_over";
                }, glide_event, glide_return))
                ++failures, --i;
        }
        for (int i = 0; i < handback_trials && failures < 30; ++i) {
            const json entry = b.editable_text(window);
            if (entry.is_null()) {
                std::cerr << "no editable text in the window\n";
                break;
            }
            if (!handback([&] {
                    bool error = false;
                    auto r = b.call("type_text", {{"element_token", entry["element_token"]}, {"delivery_mode", "foreground"},
                                                  {"text", std::string(3000, 'z')}}, &error);
                    return error && r["error"]["code"] == "user_took_over";
                }, type_event, type_return))
                ++failures, --i;
        }
        report("handback_glide_last_event", glide_event);
        report("handback_glide_return", glide_return);
        report("handback_type_last_event", type_event);
        report("handback_type_return", type_return);

        // The kill switch while a short foreground type_text is in its settle reads (the keys are
        // sent; the call still holds the engine, and interrupt() stops calls only at input checks).
        std::vector<double> settle_kill;
        for (int i = 0; i < indicator_trials && status == 0; ++i) {
            if (!b.start_takeover()) {
                status = 1;
                break;
            }
            const json entry = b.editable_text(window);
            const auto ids = b.overlay()->window_ids();
            const auto before = driver_events.last_driver();
            std::thread t([&] {
                b.call("type_text", {{"element_token", entry["element_token"]}, {"delivery_mode", "foreground"}, {"text", "zz"}});
            });
            const auto began = Clock::now();
            while (driver_events.last_driver() == before && Clock::now() - began < 3s)
                std::this_thread::sleep_for(1ms);
            std::this_thread::sleep_for(30ms);
            const auto t0 = Clock::now();
            // The host's line is handled on the control pipe's own thread; the indicator is watched
            // from here, since the handler then waits for the call to let go of the engine.
            std::thread host(kill_switch_line);
            while (!(b.overlay()->window_ids().empty() && all_gone(pd, ids)) && Clock::now() - t0 < 3s)
                std::this_thread::sleep_for(50us);
            settle_kill.push_back(ms_between(t0, Clock::now()));
            host.join();
            t.join();
        }
        report("indicator_kill_switch_during_settle", settle_kill);
    }

    b.call("end_session", json::object());
    if (std::system("xinput remove-master 'person pointer'") != 0)
        std::cerr << "xinput remove-master failed\n";
    return status;
}
