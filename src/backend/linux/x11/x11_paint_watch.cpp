#include "backend/linux/x11/x11_paint_watch.h"

#include <algorithm>

namespace nd_linux {

namespace {

bool overlap(const nd_core::Frame& a, const nd_core::Frame& b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

} // namespace

std::unique_ptr<X11PaintWatch> X11PaintWatch::open(const std::string& display_name)
{
    auto x = X11Display::open(display_name);
    if (!x)
        return nullptr;
    auto* c = (*x)->connection();
    const auto* ext = xcb_get_extension_data(c, &xcb_damage_id);
    if (!ext || !ext->present)
        return nullptr;
    // DAMAGE answers nothing else before its version is asked.
    const auto cookie = xcb_damage_query_version(c, XCB_DAMAGE_MAJOR_VERSION, XCB_DAMAGE_MINOR_VERSION);
    auto version = (*x)->wait<xcb_damage_query_version_reply_t>(cookie, deadline_after(X11_BATCH_TIMEOUT));
    if (!version || !*version || ((*version)->major_version < 1 ||
                                  ((*version)->major_version == 1 && (*version)->minor_version < 1)))
        return nullptr;
    return std::unique_ptr<X11PaintWatch>(new X11PaintWatch(std::move(x).value(), ext->first_event));
}

X11PaintWatch::X11PaintWatch(std::unique_ptr<X11Display> x, std::uint8_t first_event)
    : m_x(std::move(x))
    , m_first_event(first_event)
{
}

X11PaintWatch::~X11PaintWatch()
{
    if (m_x->broken())
        return;
    for (const auto& [window, w] : m_watched)
        xcb_damage_destroy(m_x->connection(), w.damage);
    xcb_flush(m_x->connection());
}

void X11PaintWatch::stop(std::unordered_map<xcb_window_t, Watched>::iterator it)
{
    // A window destroyed took its damage object along: the server answers BadDamage, an error
    // event drain() drops.
    xcb_damage_destroy(m_x->connection(), it->second.damage);
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
    auto* c = m_x->connection();
    const auto now = Clock::now();
    while (auto* event = xcb_poll_for_event(c)) {
        if ((event->response_type & 0x7f) == m_first_event + XCB_DAMAGE_NOTIFY) {
            const auto* notify = reinterpret_cast<const xcb_damage_notify_event_t*>(event);
            auto it = m_watched.find(notify->drawable);
            if (it != m_watched.end())
                it->second.last = now;
            xcb_damage_subtract(c, notify->damage, XCB_NONE, XCB_NONE);
        }
        std::free(event);
    }
    xcb_flush(c);
}

bool X11PaintWatch::others_overlap(const Watched& w, ReplyBatch& batch, const std::vector<PlaceCookies>& cookies,
                                   bool& overlapped)
{
    overlapped = false;
    for (std::size_t i = 0; i < cookies.size(); ++i) {
        auto place = take_place(batch, cookies[i]);
        if (!place)
            return false;
        if (!*place || !(*place)->viewable || !(*place)->input_output)
            continue;
        // A child of its own draws where the watch does not see; a window above it hides a part.
        if (i >= w.above || overlap((*place)->frame, w.frame))
            overlapped = true;
    }
    return true;
}

bool X11PaintWatch::shows_whole(xcb_window_t window, Watched& w, Deadline deadline)
{
    auto* c = m_x->connection();
    std::vector<xcb_window_t> stack, inside;
    // The windows above it and inside it as the last ask found them are asked in the same round
    // trip: they rarely change between two reads.
    const auto guessed = w.others;
    const auto guessed_above = w.above;
    ReplyBatch batch(*m_x, deadline);
    const auto place_cookies = ask_place(batch, *m_x, window);
    const auto own = batch.add(xcb_query_tree(c, window));
    const auto all = batch.add(xcb_query_tree(c, m_x->root()));
    std::vector<PlaceCookies> guessed_cookies;
    for (auto other : guessed)
        guessed_cookies.push_back(ask_place(batch, *m_x, other));
    auto place = take_place(batch, place_cookies);
    auto own_tree = batch.take<xcb_query_tree_reply_t>(own);
    auto root_tree = batch.take<xcb_query_tree_reply_t>(all);
    if (!place || !*place || !own_tree || !*own_tree || !root_tree || !*root_tree)
        return false;
    // Every report the server sent before these replies is in now.
    drain();
    const auto& p = **place;
    if (!p.viewable)
        return false;
    if (!(p.frame == w.frame)) {
        w.frame = p.frame;
        return false;
    }
    const auto& screen = m_x->screen();
    if (p.frame.x < 0 || p.frame.y < 0 || p.frame.x + p.frame.w > screen.width_in_pixels ||
        p.frame.y + p.frame.h > screen.height_in_pixels)
        return false;
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
    bool overlapped = false;
    if (others == guessed && above.size() == guessed_above)
        return others_overlap(w, batch, guessed_cookies, overlapped) && !overlapped;
    ReplyBatch again(*m_x, deadline);
    std::vector<PlaceCookies> cookies;
    cookies.reserve(others.size());
    for (auto other : others)
        cookies.push_back(ask_place(again, *m_x, other));
    return others_overlap(w, again, cookies, overlapped) && !overlapped;
}

std::optional<PaintWatch::Clock::time_point> X11PaintWatch::last_change(std::int64_t window_id,
                                                                       Clock::time_point deadline)
{
    if (m_x->broken() || window_id <= 0 || window_id > 0xffffffffLL)
        return std::nullopt;
    const auto window = static_cast<xcb_window_t>(window_id);
    deadline = std::min(deadline, deadline_after(X11_BATCH_TIMEOUT));
    const auto now = Clock::now();
    auto it = m_watched.find(window);
    if (it == m_watched.end()) {
        if (m_watched.size() >= MAX_WATCHED)
            stop(std::min_element(m_watched.begin(), m_watched.end(),
                                  [](const auto& a, const auto& b) { return a.second.used < b.second.used; }));
        Watched w;
        w.damage = xcb_generate_id(m_x->connection());
        w.last = now;
        const auto made = xcb_damage_create_checked(m_x->connection(), w.damage, window,
                                                    XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY);
        auto error = m_x->check(made, deadline);
        if (!error || *error != 0)
            return std::nullopt; // no such window, or no answer
        it = m_watched.emplace(window, w).first;
    }
    auto& w = it->second;
    w.used = now;
    if (!shows_whole(window, w, deadline))
        w.last = std::max(w.last, Clock::now());
    return w.last;
}

} // namespace nd_linux
