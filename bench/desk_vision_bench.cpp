// The vision verbs' figures (docs/benchmarks.md, "Vision verbs"): a `shuttle daemon --backend linux`
// process of its own on the desktop it is run on (scripts/bench-vision: a virtual 1280x800 one with
// gtk3-widget-factory in front), one wire connection, and in the same run the baseline of the
// reference computer-use demos, which see the screen through programs:
//
//   computer_state {max_edge: 1024}   the windows, the front window's tree read and indexed, the screen
//                                     captured, password fields blacked out, scaled, encoded as JPEG
//                                     (target: p50 <= 60 ms, and >= 10x faster than the baseline);
//   the baseline                      `import -window root F.png`, `convert F.png -resize 1024x640! F.png`,
//                                     `xdotool getmouselocation`, a process each, each step timed (and,
//                                     for scale, one `import -window root -resize 1024x640! png:-` and
//                                     xdotool);
//   look {max_edge: 1024}             the screenshot alone, without the tree;
//   computer_act wait 0               a settle and a new screenshot: minus look, what the settle adds
//                                     (target on a still screen: at most 50 ms);
//   computer_act click                on an element [index] (a check box; one click is read back to
//                                     see it toggle) and at x, y where a click changes nothing (the
//                                     root below the window), each with its settle and new screenshot;
//                                     then the element click followed by a computer_state;
//   the picture                       one computer_state's image tokens and bytes; JPEG against PNG of
//                                     the same frame of page 1, at full size from the wire (computer_state
//                                     {max_edge: 0} and desk_shot) and at 1024 in this process (one
//                                     capture scaled by resize_area, encoded both ways), with the
//                                     capture, the scaling and both encoders timed.
//
// First on the app's page 1 as it opens, where two spinners and a pulsing progress bar move (so a
// settle first learns them as volatile), then on its page 2, a still screen (its radio button clicked
// by index): computer_state, look, the settle and the click at x, y again, and desk_still's own time
// with computer_act's hold (SETTLE_HOLD_MS). Rounds alternate the figures and the baseline so drift
// hits all; p50 and p90 of each, then a table of figure, p50, p90, target and verdict or ratio.
//
//   desk_vision_bench [--shuttle PATH] [--app-pid PID] [--calls N] [--baseline N]
// --app-pid: wait until computer_state lists the elements of that process's window (up to 30 s).
// Exits 1 when a call failed; a missed target is printed, not an exit status.

#include "backend/backend_select.h"
#include "bench/bench_daemon.h"
#include "core/encode/base64.h"
#include "core/encode/jpeg.h"
#include "core/encode/png.h"
#include "core/encode/resample.h"
#include "desk/vision/vision_act.h"

#include <cstdio>
#include <cstdlib>

namespace w = nd_desk::wire;
using Clock = std::chrono::steady_clock;
using nlohmann::json;
using nd_bench::percentile;

namespace {

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct Answer {
    bool ok = false;
    double ms = 0;
    json result;       // the text, parsed
    std::string image; // the decoded image bytes
    std::string mime;
    std::size_t text_bytes = 0;
    std::size_t image_b64_bytes = 0;
    std::string error;
};

Answer call(w::Client& client, const std::string& tool, const json& args)
{
    Answer a;
    const auto t = nd_bench::timed_call(client, tool, args);
    a.ms = t.ms;
    a.error = t.failure();
    if (!a.error.empty())
        return a;
    const auto& r = t.result;
    a.text_bytes = r.response.text.size();
    a.result = json::parse(r.response.text, nullptr, false);
    if (r.response.image_b64) {
        a.image_b64_bytes = r.response.image_b64->size();
        nd_core::base64_decode(*r.response.image_b64, a.image);
    }
    a.mime = r.response.image_mime.value_or("image/png");
    a.ok = !a.result.is_discarded();
    if (!a.ok)
        a.error = "the answer's text is no JSON";
    return a;
}

// Runs `args` (the program found on PATH), stdout to /dev/null: its wall time in ms, or -1.
double run_program(std::vector<std::string> args)
{
    std::vector<char*> argv;
    for (auto& s : args)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
    const auto t0 = Clock::now();
    pid_t pid = -1;
    const int spawned = ::posix_spawnp(&pid, argv[0], &files, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    if (spawned != 0)
        return -1;
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ms_since(t0) : -1;
}

struct Series {
    std::vector<double> ms;
    long errors = 0;
    std::string first_error;
    double p50() const { return percentile(ms, 0.5); }
    double p90() const { return percentile(ms, 0.9); }
    void add(const Answer& a)
    {
        if (a.ok)
            ms.push_back(a.ms);
        else if (errors++ == 0)
            first_error = a.error.substr(0, 300);
    }
    void add(double program_ms)
    {
        if (program_ms >= 0)
            ms.push_back(program_ms);
        else if (errors++ == 0)
            first_error = "the program failed";
    }
};

bool is_jpeg(const std::string& b)
{
    return b.size() > 3 && static_cast<unsigned char>(b[0]) == 0xFF && static_cast<unsigned char>(b[1]) == 0xD8;
}
bool is_png(const std::string& b) { return b.size() > 8 && b.compare(1, 3, "PNG") == 0; }

std::string png_per_jpeg(std::size_t png, std::size_t jpeg)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "PNG / JPEG %.2f", static_cast<double>(png) / static_cast<double>(jpeg));
    return buf;
}

std::string kb(std::size_t bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(bytes) / 1024.0);
    return buf;
}

void row(const std::string& figure, const std::string& p50, const std::string& p90, const std::string& target,
    const std::string& note = "")
{
    std::printf("%-66s %11s %11s  %-22s %s\n", figure.c_str(), p50.c_str(), p90.c_str(), target.c_str(), note.c_str());
}

std::string ms(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f ms", v);
    return buf;
}

void series_row(const std::string& figure, const Series& s, const std::string& target = "", const std::string& note = "")
{
    std::string n = note;
    if (s.errors > 0)
        n += (n.empty() ? "" : "; ") + std::to_string(s.errors) + " errors (first: " + s.first_error + ")";
    row(figure + " (" + std::to_string(s.ms.size()) + ")", s.ms.empty() ? "-" : ms(s.p50()), s.ms.empty() ? "-" : ms(s.p90()),
        target, n);
}

struct InProcess {
    bool ok = false;
    std::string error;
    std::int32_t width = 0, height = 0, scaled_w = 0, scaled_h = 0;
    std::size_t jpeg_bytes = 0, png_bytes = 0, jpeg_full_bytes = 0, png_full_bytes = 0;
    Series capture, resize, jpeg, png;
};

// One frame of the screen captured in this process, scaled to 1024 and encoded both ways; each step
// timed `n` times on that frame (the capture on fresh ones).
InProcess in_process(int n)
{
    InProcess out;
    auto backend = nd_backend::open_backend({"linux", ""});
    if (!backend) {
        out.error = backend.error().message;
        return out;
    }
    auto* screen = (*backend)->screen();
    if (!screen) {
        out.error = "the backend has no screen";
        return out;
    }
    const auto size = screen->size();
    if (!size) {
        out.error = size.error().message;
        return out;
    }
    nd_core::Image frame;
    for (int i = 0; i < n; ++i) {
        const auto t0 = Clock::now();
        auto image = screen->capture(0, 0, size->width, size->height);
        const double took = ms_since(t0);
        if (!image) {
            out.error = image.error().message;
            return out;
        }
        out.capture.add(took);
        frame = std::move(image).value();
    }
    out.width = frame.width;
    out.height = frame.height;
    nd_core::fit_long_edge(frame.width, frame.height, 1024, out.scaled_w, out.scaled_h);
    nd_core::Image scaled;
    for (int i = 0; i < n; ++i) {
        const auto t0 = Clock::now();
        scaled = nd_core::resize_area(frame, out.scaled_w, out.scaled_h);
        out.resize.add(ms_since(t0));
    }
    for (int i = 0; i < n; ++i) {
        const auto t0 = Clock::now();
        out.jpeg_bytes = nd_core::encode_jpeg(scaled).size();
        out.jpeg.add(ms_since(t0));
        const auto t1 = Clock::now();
        out.png_bytes = nd_core::encode_png(scaled).size();
        out.png.add(ms_since(t1));
    }
    out.jpeg_full_bytes = nd_core::encode_jpeg(frame).size();
    out.png_full_bytes = nd_core::encode_png(frame).size();
    out.ok = out.jpeg_bytes > 0 && out.png_bytes > 0;
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    std::string shuttle = NISH_BIN_DIR "/shuttle";
    long app_pid = 0;
    int calls = 40, baseline_calls = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--shuttle")
            shuttle = argv[i + 1];
        else if (a == "--app-pid")
            app_pid = std::atol(argv[i + 1]);
        else if (a == "--calls")
            calls = std::max(4, std::atoi(argv[i + 1]));
        else if (a == "--baseline")
            baseline_calls = std::max(2, std::atoi(argv[i + 1]));
    }
    const int rounds = 4; // of each figure, alternating
    if (baseline_calls < 0)
        baseline_calls = calls * 3 / 4; // a baseline call takes a third of a second
    calls = std::max(rounds, calls / rounds * rounds);
    baseline_calls = std::max(rounds, baseline_calls / rounds * rounds);

    nd_bench::BenchDaemon daemon(shuttle, "linux", "");
    auto client = daemon.started() ? nd_bench::connect_retrying(daemon.socket()) : std::nullopt;
    if (!client) {
        std::fprintf(stderr, "the daemon did not come up (%s)\n", shuttle.c_str());
        return 1;
    }

    const json state_1024{{"max_edge", 1024}};
    // Until the front window is the app's and its elements are listed.
    Answer state;
    const auto ready_by = Clock::now() + std::chrono::seconds(30);
    for (;;) {
        state = call(*client, "desk_computer_state", state_1024);
        const bool listed = state.ok && state.result.contains("elements") && !state.result["elements"].empty();
        const bool ours = app_pid == 0
            || (state.ok && state.result.contains("elements_of") && state.result["elements_of"].value("pid", 0L) == app_pid);
        if (listed && ours)
            break;
        if (Clock::now() > ready_by) {
            std::fprintf(stderr, "computer_state listed no elements%s within 30 s: %s\n",
                app_pid ? (" of pid " + std::to_string(app_pid)).c_str() : "",
                state.ok ? state.result.dump().substr(0, 400).c_str() : state.error.c_str());
            return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    const auto shot = state.result["screenshot"];
    const int shot_w = shot.value("width", 0), shot_h = shot.value("height", 0);
    const auto screen = state.result["screen"];

    // The click targets: the first check box that is not disabled, and a point under every window (the
    // bare root).
    std::optional<std::int64_t> check_box;
    std::string check_box_name;
    for (const auto& e : state.result["elements"])
        if (e.size() >= 5 && e[1] == "check_box"
            && (e.size() < 6 || e[5].get<std::string>().find("disabled") == std::string::npos)) {
            check_box = e[0].get<std::int64_t>();
            check_box_name = e[2].get<std::string>();
            break;
        }
    int lowest = 0;
    for (const auto& wdw : state.result["windows"])
        if (!wdw.value("hidden", false) && wdw.contains("geometry"))
            lowest = std::max(lowest, wdw["geometry"][1].get<int>() + wdw["geometry"][3].get<int>());
    std::optional<std::pair<int, int>> bare_point;
    if (lowest + 8 < shot_h)
        bare_point = std::pair<int, int>{shot_w / 2, (lowest + shot_h) / 2};

    const std::string tmp_png = daemon.dir() + "/baseline.png";
    const std::string geometry = std::to_string(shot_w) + "x" + std::to_string(shot_h) + "!"; // as computer_state's
    Series s_import, s_convert, s_xdotool; // the baseline's three steps
    auto baseline_three = [&] {
        const double grab = run_program({"import", "-window", "root", tmp_png});
        const double resize = grab < 0 ? -1 : run_program({"convert", tmp_png, "-resize", geometry, tmp_png});
        const double pointer = resize < 0 ? -1 : run_program({"xdotool", "getmouselocation", "--shell"});
        if (pointer < 0)
            return -1.0;
        s_import.add(grab);
        s_convert.add(resize);
        s_xdotool.add(pointer);
        return grab + resize + pointer;
    };
    auto baseline_one = [&] {
        const auto t0 = Clock::now();
        if (run_program({"import", "-window", "root", "-resize", geometry, "png:-"}) < 0
            || run_program({"xdotool", "getmouselocation", "--shell"}) < 0)
            return -1.0;
        return ms_since(t0);
    };

    const json look_1024{{"max_edge", 1024}};
    const json wait_0{{"action", "wait"}, {"seconds", 0}, {"max_edge", 1024}};
    auto click_element = [](std::int64_t index) { return json{{"action", "click"}, {"element", index}, {"max_edge", 1024}}; };
    auto click_point = [](std::pair<int, int> p) {
        return json{{"action", "click"}, {"x", p.first}, {"y", p.second}, {"max_edge", 1024}};
    };
    long not_still = 0;
    auto act = [&](Series& s, const json& args) {
        auto a = call(*client, "desk_computer_act", args);
        s.add(a);
        if (a.ok && !a.result.value("still", false))
            ++not_still;
        return a;
    };
    Series scratch;
    for (int i = 0; i < 3; ++i) { // warm every path once more
        call(*client, "desk_computer_state", state_1024);
        call(*client, "desk_look", look_1024);
        act(scratch, wait_0);
    }
    baseline_three();
    baseline_one();
    s_import = s_convert = s_xdotool = Series{};

    // Page 1 as the app opens it (two spinners and a pulsing progress bar move on it): the state, the
    // screenshot alone and a settle, in rounds with the baseline.
    Series s_state, s_look, s_wait, s_three, s_one;
    std::size_t text_bytes = 0, jpeg_bytes = 0, b64_bytes = 0;
    std::int64_t tokens = 0;
    std::string mime;
    for (int round = 0; round < rounds; ++round) {
        for (int i = 0; i < calls / rounds; ++i) {
            auto a = call(*client, "desk_computer_state", state_1024);
            s_state.add(a);
            if (a.ok) {
                text_bytes = a.text_bytes;
                jpeg_bytes = a.image.size();
                b64_bytes = a.image_b64_bytes;
                tokens = a.result["screenshot"].value("tokens", std::int64_t{0});
                mime = a.mime;
            }
        }
        for (int i = 0; i < calls / rounds; ++i)
            s_look.add(call(*client, "desk_look", look_1024));
        for (int i = 0; i < calls / rounds; ++i)
            act(s_wait, wait_0);
        for (int i = 0; i < baseline_calls / rounds; ++i)
            s_three.add(baseline_three());
        for (int i = 0; i < baseline_calls / rounds; ++i)
            s_one.add(baseline_one());
    }
    const auto baseline_png = [&] {
        std::error_code ec;
        const auto n = std::filesystem::file_size(tmp_png, ec);
        return ec ? std::uintmax_t{0} : n;
    }();

    // Clicks on page 1, each with its settle and new screenshot: the check box by its index (it
    // toggles), then the bare point; then the check box followed by a computer_state.
    Series s_click_element, s_click_point, s_click_then_state, s_state_after_click;
    // Whether the check box's "checked" state flips with one click, read back by computer_state.
    auto checked = [&]() -> std::optional<bool> {
        auto a = call(*client, "desk_computer_state", state_1024);
        for (const auto& e : a.ok ? a.result["elements"] : json::array())
            if (e.size() >= 5 && e[0] == *check_box)
                return e.size() >= 6 && e[5].get<std::string>().find("checked") != std::string::npos;
        return std::nullopt;
    };
    std::string toggled = "not read back";
    if (check_box) {
        const auto before = checked();
        act(scratch, click_element(*check_box));
        const auto after = checked();
        if (before && after)
            toggled = *before != *after ? "toggles" : "did NOT toggle";
        for (int i = 0; i < calls; ++i)
            act(s_click_element, click_element(*check_box));
    }
    if (bare_point)
        for (int i = 0; i < calls; ++i)
            act(s_click_point, click_point(*bare_point));
    if (check_box)
        for (int i = 0; i < calls / 2; ++i) {
            auto a = act(scratch, click_element(*check_box));
            auto b = call(*client, "desk_computer_state", state_1024);
            s_state_after_click.add(b);
            if (a.ok && b.ok) {
                a.ms += b.ms;
                s_click_then_state.add(a);
            } else {
                s_click_then_state.add(a.ok ? b : a);
            }
        }
    const long not_still_page1 = not_still;

    // JPEG against PNG of page 1 at full size, from the wire; then one frame of it in this process.
    const auto full_jpeg = call(*client, "desk_computer_state", {{"max_edge", 0}});
    const auto full_png = call(*client, "desk_shot", json::object());
    const auto local = in_process(std::max(10, calls / 2));

    // A still screen: page 2 (nothing on it moves), chosen by its radio button's index.
    Series s_still_state, s_still_look, s_still_wait, s_still_click, s_still_settle;
    std::string still_page;
    {
        auto listed = call(*client, "desk_computer_state", state_1024); // the indexes, after the clicks
        for (const auto& e : listed.ok ? listed.result["elements"] : json::array())
            if (e.size() >= 5 && e[1] == "radio_button" && e[2] == "Page 2") {
                if (act(scratch, click_element(e[0].get<std::int64_t>())).ok)
                    still_page = "page 2";
                break;
            }
        std::this_thread::sleep_for(std::chrono::milliseconds(500)); // the page's transition, if any
    }
    if (!still_page.empty()) {
        for (int round = 0; round < rounds; ++round) {
            for (int i = 0; i < calls / rounds; ++i)
                s_still_state.add(call(*client, "desk_computer_state", state_1024));
            for (int i = 0; i < calls / rounds; ++i)
                s_still_look.add(call(*client, "desk_look", look_1024));
            for (int i = 0; i < calls / rounds; ++i)
                act(s_still_wait, wait_0);
            if (bare_point)
                for (int i = 0; i < calls / rounds; ++i)
                    act(s_still_click, click_point(*bare_point));
            // The settle's own time, as desk_still measures it with the same hold.
            for (int i = 0; i < calls / rounds; ++i) {
                auto a = call(*client, "desk_still",
                    {{"hold_ms", nd_desk::SETTLE_HOLD_MS}, {"timeout_ms", nd_desk::SETTLE_TIMEOUT_MS}});
                if (a.ok)
                    a.ms = a.result.value("ms", 0.0);
                s_still_settle.add(a);
            }
        }
    }

    client.reset();
    daemon.stop();

    std::printf("vision verbs on a %dx%d screen, %d calls each (baseline %d), the front window %s\n",
        screen.size() == 2 ? screen[0].get<int>() : 0, screen.size() == 2 ? screen[1].get<int>() : 0, calls, baseline_calls,
        state.result["elements_of"].value("title", std::string("?")).c_str());
    row("figure (calls)", "p50", "p90", "target", "");
    std::printf("page 1 as it opens (two spinners and a pulsing progress bar move):\n");
    const double ratio = s_state.p50() > 0 ? s_three.p50() / s_state.p50() : 0;
    series_row("computer_state {max_edge:1024}, " + std::to_string(state.result["elements"].size()) + " elements", s_state,
        "<= 60 ms p50", s_state.p50() <= 60 ? "met" : "NOT met");
    series_row("baseline: import -window root; convert -resize; xdotool", s_three, "", "");
    series_row("  import -window root F.png", s_import);
    series_row("  convert F.png -resize " + std::to_string(shot_w) + "x" + std::to_string(shot_h) + "! F.png", s_convert);
    series_row("  xdotool getmouselocation", s_xdotool);
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.1fx", ratio);
    row("  baseline p50 / computer_state p50", buf, "", ">= 10x", ratio >= 10 ? "met" : "NOT met");
    series_row("baseline, one process: import -window root -resize; xdotool", s_one, "", "");
    std::snprintf(buf, sizeof buf, "%.1fx", s_state.p50() > 0 ? s_one.p50() / s_state.p50() : 0);
    row("  its p50 / computer_state p50", buf, "", "", "");
    series_row("look {max_edge:1024} (no tree)", s_look);
    series_row("computer_act wait 0 (settle + screenshot)", s_wait);
    row("  what the settle adds here: wait 0 p50 - look p50", ms(s_wait.p50() - s_look.p50()), "", "report");
    if (check_box)
        series_row("computer_act click element [" + std::to_string(*check_box) + "] (" + check_box_name + ", " + toggled + ")",
            s_click_element, "report");
    if (bare_point)
        series_row("computer_act click x,y " + std::to_string(bare_point->first) + "," + std::to_string(bare_point->second) +
                       " (the root: nothing changes)",
            s_click_point, "report");
    if (check_box) {
        series_row("computer_act click element, then computer_state", s_click_then_state, "report");
        series_row("  of which the computer_state", s_state_after_click);
    }
    if (not_still_page1)
        row("  acts answered still: false (the settle's 2 s ran out)", std::to_string(not_still_page1), "", "0");
    if (!still_page.empty()) {
        std::printf("%s, a still screen:\n", still_page.c_str());
        series_row("computer_state {max_edge:1024}", s_still_state, "<= 60 ms p50",
            s_still_state.p50() <= 60 ? "met" : "NOT met");
        std::snprintf(buf, sizeof buf, "%.1fx", s_still_state.p50() > 0 ? s_three.p50() / s_still_state.p50() : 0);
        row("  baseline p50 (page 1) / its p50", buf, "", ">= 10x",
            s_three.p50() >= 10 * s_still_state.p50() ? "met" : "NOT met");
        series_row("look {max_edge:1024}", s_still_look);
        series_row("computer_act wait 0 (settle + screenshot)", s_still_wait);
        const double settle = s_still_wait.p50() - s_still_look.p50();
        row("  settle on a still screen: wait 0 p50 - look p50", ms(settle), "", "<= 50 ms", settle <= 50 ? "met" : "NOT met");
        series_row("  desk_still {hold_ms:" + std::to_string(nd_desk::SETTLE_HOLD_MS) + "}: its own ms", s_still_settle, "", "");
        if (bare_point)
            series_row("computer_act click x,y (the root) + settle + screenshot", s_still_click, "report");
        if (not_still > not_still_page1)
            row("  acts answered still: false (the settle's 2 s ran out)", std::to_string(not_still - not_still_page1), "", "0");
    } else {
        std::printf("(no still page: gtk3-widget-factory's Page 2 button was not found or not clicked)\n");
    }
    std::printf("the picture (page 1):\n");
    const std::string shot_size = std::to_string(shot_w) + "x" + std::to_string(shot_h);
    row("image tokens of one computer_state at 1024 (" + shot_size + ", w*h/750)", std::to_string(tokens), "", "report");
    row("  its text (the JSON), bytes / 4", std::to_string(text_bytes / 4), "", "");
    row("  its " + mime + " bytes / base64 on the wire", kb(jpeg_bytes), kb(b64_bytes), "report", "");
    if (local.ok) {
        row("the same frame at " + std::to_string(local.scaled_w) + "x" + std::to_string(local.scaled_h) +
                " in this process: JPEG / PNG",
            kb(local.jpeg_bytes), kb(local.png_bytes), "report", png_per_jpeg(local.png_bytes, local.jpeg_bytes));
        row("  and at " + std::to_string(local.width) + "x" + std::to_string(local.height) + ": JPEG / PNG",
            kb(local.jpeg_full_bytes), kb(local.png_full_bytes), "", png_per_jpeg(local.png_full_bytes, local.jpeg_full_bytes));
    } else {
        row("the same frame in this process", "-", "-", "", local.error);
    }
    if (full_jpeg.ok && full_png.ok && is_jpeg(full_jpeg.image) && is_png(full_png.image))
        row("full size from the wire: computer_state {max_edge:0} / desk_shot", kb(full_jpeg.image.size()),
            kb(full_png.image.size()), "", png_per_jpeg(full_png.image.size(), full_jpeg.image.size()));
    else
        row("full size from the wire", "-", "-", "", (full_jpeg.ok ? full_png.error : full_jpeg.error).substr(0, 200));
    if (baseline_png > 0)
        row("  the baseline's PNG at " + shot_size + " (convert)", kb(baseline_png), "", "", "");
    if (local.ok) {
        std::printf("where the time goes (in this process, page 1):\n");
        series_row("  capture of the whole screen", local.capture);
        series_row("  resize_area to " + std::to_string(local.scaled_w) + "x" + std::to_string(local.scaled_h), local.resize);
        series_row("  encode_jpeg at " + std::to_string(local.scaled_w), local.jpeg);
        series_row("  encode_png at " + std::to_string(local.scaled_w), local.png);
        row("  computer_state p50 - look p50 (windows, tree read, elements)", ms(s_state.p50() - s_look.p50()), "", "");
    }
    const long errors = s_state.errors + s_look.errors + s_wait.errors + s_three.errors + s_one.errors + s_click_element.errors +
                        s_click_point.errors + s_click_then_state.errors + s_still_state.errors + s_still_look.errors +
                        s_still_wait.errors + s_still_click.errors + s_still_settle.errors + scratch.errors;
    return errors == 0 ? 0 : 1;
}
