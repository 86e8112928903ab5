#include "backend/linux/x11/x11_paint_watch.h"

#include <algorithm>

namespace nd_linux {

namespace {

// The parts of `frame` off a screen of `width` × `height`: up to four strips.
void off_screen(const nd_core::Frame& frame, std::int32_t width, std::int32_t height, std::vector<nd_core::Frame>& out)
{
    const nd_core::Frame screen{0, 0, width, height};
    if (screen.shared(frame) == frame)
        return;
    const std::int32_t left = frame.x, top = frame.y, right = frame.x + frame.w, bottom = frame.y + frame.h;
    if (left < 0)
        out.push_back({left, top, std::min(right, 0) - left, frame.h});
    if (right > width)
        out.push_back({std::max(left, width), top, right - std::max(left, width), frame.h});
    if (top < 0)
        out.push_back({left, top, frame.w, std::min(bottom, 0) - top});
    if (bottom > height)
        out.push_back({left, std::max(top, height), frame.w, bottom - std::max(top, height)});
}

} // namespace

std::unique_ptr<X11PaintWatch> X11PaintWatch::open(const std::string& display_name)
{
    auto x = X11Display::open(display_name);
    if (!x)
        return nullptr;
    auto* c = (*x)->connection();
    const auto* ext = xcb_get_extension_data(c, &xcb_damage_id);
    const auto* fixes = xcb_get_extension_data(c, &xcb_xfixes_id);
    if (!ext || !ext->present || !fixes || !fixes->present)
        return nullptr;
    // Neither answers anything else before its version is asked.
    const auto deadline = deadline_after(X11_BATCH_TIMEOUT);
    const auto fixes_cookie = xcb_xfixes_query_version(c, XCB_XFIXES_MAJOR_VERSION, XCB_XFIXES_MINOR_VERSION);
    const auto cookie = xcb_damage_query_version(c, XCB_DAMAGE_MAJOR_VERSION, XCB_DAMAGE_MINOR_VERSION);
    auto fixes_version = (*x)->wait<xcb_xfixes_query_version_reply_t>(fixes_cookie, deadline);
    auto version = (*x)->wait<xcb_damage_query_version_reply_t>(cookie, deadline);
    if (!fixes_version || !*fixes_version || (*fixes_version)->major_version < 2)
        return nullptr;
    if (!version || !*version || ((*version)->major_version < 1 ||
                                  ((*version)->major_version == 1 && (*version)->minor_version < 1)))
        return nullptr;
    return std::unique_ptr<X11PaintWatch>(new X11PaintWatch(std::move(x).value()));
}

X11PaintWatch::X11PaintWatch(std::unique_ptr<X11Display> x)
    : m_x(std::move(x))
{
}

X11PaintWatch::~X11PaintWatch()
{
    if (m_x->broken())
        return;
    for (const auto& [window, w] : m_watched) {
        xcb_damage_destroy(m_x->connection(), w.damage);
        xcb_xfixes_destroy_region(m_x->connection(), w.parts);
    }
    xcb_flush(m_x->connection());
}

void X11PaintWatch::stop(std::unordered_map<xcb_window_t, Watched>::iterator it)
{
    // A window destroyed took its damage object along: the server answers BadDamage, an error
    // event drain() drops.
    xcb_damage_destroy(m_x->connection(), it->second.damage);
    xcb_xfixes_destroy_region(m_x->connection(), it->second.parts);
    m_watched.erase(it);
}

void X11PaintWatch::forget(std::int64_t window_id)
{
    auto it = m_watched.find(static_cast<xcb_window_t>(window_id));
    if (it == m_watched.end())
        return;
    stop(it);
    xcb_flush(m_x->connection());
}

void X11PaintWatch::drain()
{
    // The reports only say that something was drawn; each ask fetches what.
    while (auto* event = xcb_poll_for_event(m_x->connection()))
        std::free(event);
}

void X11PaintWatch::keep_drawn(Watched& w, const xcb_rectangle_t* rects, int count, Clock::time_point now)
{
    for (int i = 0; i < count; ++i) {
        const nd_core::Frame part{rects[i].x, rects[i].y, rects[i].width, rects[i].height};
        auto same = std::find_if(w.drawn.begin(), w.drawn.end(), [&](const Drawn& d) { return d.part == part; });
        if (same != w.drawn.end())
            same->at = now;
        else
            w.drawn.push_back({part, now});
    }
    // Parts too old to be asked of: anything changed then, as far as an ask since then can tell.
    std::erase_if(w.drawn, [&](const Drawn& d) {
        if (d.at + MAX_PART_AGE >= now)
            return false;
        w.anything = std::max(w.anything, d.at);
        return true;
    });
    if (w.drawn.size() <= MAX_PARTS)
        return;
    nd_core::Frame all = w.drawn.front().part;
    for (const auto& d : w.drawn) {
        const auto x1 = std::max(all.x + all.w, d.part.x + d.part.w), y1 = std::max(all.y + all.h, d.part.y + d.part.h);
        all.x = std::min(all.x, d.part.x);
        all.y = std::min(all.y, d.part.y);
        all.w = x1 - all.x;
        all.h = y1 - all.y;
    }
    w.drawn.assign(1, Drawn{all, now});
}

bool X11PaintWatch::covered_parts(const Watched& w, ReplyBatch& batch, const std::vector<PlaceCookies>& cookies,
                                  std::vector<nd_core::Frame>& hidden, bool& inside)
{
    inside = false;
    for (std::size_t i = 0; i < cookies.size(); ++i) {
        auto place = take_place(batch, cookies[i]);
        if (!place)
            return false;
        if (!*place || !(*place)->viewable || !(*place)->input_output)
            continue;
        // A child of its own draws where the watch does not see; a window above it hides a part.
        if (i >= w.above)
            inside = true;
        else if (const auto part = (*place)->frame.shared(w.frame); part.has_area())
            hidden.push_back(part);
    }
    return true;
}

bool X11PaintWatch::look(xcb_window_t window, Watched& w, Deadline deadline)
{
    auto* c = m_x->connection();
    std::vector<xcb_window_t> stack, inside;
    // The windows above it and inside it as the last ask found them are asked in the same round
    // trip: they rarely change between two reads. So is what was drawn: the damage so far is moved
    // into the window's region and fetched.
    const auto guessed = w.others;
    const auto guessed_above = w.above;
    ReplyBatch batch(*m_x, deadline);
    const auto place_cookies = ask_place(batch, *m_x, window);
    const auto own = batch.add(xcb_query_tree(c, window));
    const auto all = batch.add(xcb_query_tree(c, m_x->root()));
    const auto subtracted = xcb_damage_subtract_checked(c, w.damage, XCB_NONE, w.parts);
    const auto fetch = batch.add(xcb_xfixes_fetch_region(c, w.parts));
    std::vector<PlaceCookies> guessed_cookies;
    for (auto other : guessed)
        guessed_cookies.push_back(ask_place(batch, *m_x, other));
    auto place = take_place(batch, place_cookies);
    auto own_tree = batch.take<xcb_query_tree_reply_t>(own);
    auto root_tree = batch.take<xcb_query_tree_reply_t>(all);
    auto drawn = batch.take<xcb_xfixes_fetch_region_reply_t>(fetch);
    // The fetch's reply came after the subtract's answer: its error, if any, is in without a wait.
    if (auto error = m_x->check(subtracted, deadline); error && *error != 0)
        w.lost = true;
    if (w.lost || !place || !*place || !own_tree || !*own_tree || !root_tree || !*root_tree || !drawn || !*drawn)
        return false;
    drain();
    const auto now = Clock::now();
    keep_drawn(w, xcb_xfixes_fetch_region_rectangles(drawn->value.get()),
               xcb_xfixes_fetch_region_rectangles_length(drawn->value.get()), now);
    const auto& p = **place;
    if (!p.viewable)
        return false;
    if (!(p.frame == w.frame)) {
        w.frame = p.frame;
        return false;
    }
    std::vector<nd_core::Frame> hidden;
    off_screen(p.frame, m_x->screen().width_in_pixels, m_x->screen().height_in_pixels, hidden);
    const auto* children = xcb_query_tree_children(own_tree->value.get());
    inside.assign(children, children + xcb_query_tree_children_length(own_tree->value.get()));
    const auto* tops = xcb_query_tree_children(root_tree->value.get());
    stack.assign(tops, tops + xcb_query_tree_children_length(root_tree->value.get()));
    auto at = std::find(stack.begin(), stack.end(), w.top);
    if (w.top == 0 || at == stack.end()) {
        const auto top = climb_to_top_level(*m_x, window, (*own_tree)->parent, deadline);
        if (!top || top->end != RootChild::End::found)
            return false;
        w.top = top->window;
        at = std::find(stack.begin(), stack.end(), w.top);
        if (at == stack.end())
            return false;
    }
    // The windows above its top level (bottom to top after it), then its own children.
    std::vector<xcb_window_t> above(at + 1, stack.end());
    std::vector<xcb_window_t> others = above;
    others.insert(others.end(), inside.begin(), inside.end());
    w.others = others;
    w.above = above.size();
    bool own_drawn = false;
    bool told = false;
    if (others == guessed && above.size() == guessed_above) {
        told = covered_parts(w, batch, guessed_cookies, hidden, own_drawn);
    } else {
        ReplyBatch again(*m_x, deadline);
        std::vector<PlaceCookies> cookies;
        cookies.reserve(others.size());
        for (auto other : others)
            cookies.push_back(ask_place(again, *m_x, other));
        told = covered_parts(w, again, cookies, hidden, own_drawn);
    }
    if (!told || own_drawn)
        return false;
    // A window above that came, went or moved covered or showed parts the watch could not see.
    if (hidden != w.hidden) {
        w.hidden = std::move(hidden);
        return false;
    }
    return true;
}

std::optional<PaintNews> X11PaintWatch::news(std::int64_t window_id, Clock::time_point since,
                                             Clock::time_point deadline)
{
    if (m_x->broken() || window_id <= 0 || window_id > 0xffffffffLL)
        return std::nullopt;
    const auto window = static_cast<xcb_window_t>(window_id);
    deadline = std::min(deadline, deadline_after(X11_BATCH_TIMEOUT));
    const auto now = Clock::now();
    auto* c = m_x->connection();
    auto it = m_watched.find(window);
    if (it == m_watched.end()) {
        if (m_watched.size() >= MAX_WATCHED)
            stop(std::min_element(m_watched.begin(), m_watched.end(),
                                  [](const auto& a, const auto& b) { return a.second.used < b.second.used; }));
        Watched w;
        w.damage = xcb_generate_id(c);
        w.parts = xcb_generate_id(c);
        w.anything = now;
        const auto made = xcb_damage_create_checked(c, w.damage, window, XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY);
        auto error = m_x->check(made, deadline);
        if (!error || *error != 0)
            return std::nullopt; // no such window, or no answer
        xcb_xfixes_create_region(c, w.parts, 0, nullptr);
        it = m_watched.emplace(window, w).first;
    }
    auto& w = it->second;
    w.used = now;
    if (!look(window, w, deadline)) {
        if (w.lost) { // its window was destroyed: a window that takes its id is watched anew
            stop(it);
            return std::nullopt;
        }
        w.anything = std::max(w.anything, Clock::now());
        w.drawn.clear();
    }
    PaintNews news;
    if (w.anything > since) {
        news.anything = true;
        return news;
    }
    for (const auto& d : w.drawn)
        if (d.at > since)
            news.parts.push_back({d.part.x + w.frame.x, d.part.y + w.frame.y, d.part.w, d.part.h});
    news.parts.insert(news.parts.end(), w.hidden.begin(), w.hidden.end());
    return news;
}

} // namespace nd_linux
