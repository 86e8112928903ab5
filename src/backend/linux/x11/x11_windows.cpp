#include "backend/linux/x11/x11_windows.h"

#include "backend/linux/x11/x11_confirm_dialog.h"
#include "backend/linux/x11/x11_consent_dialog.h"
#include "backend/linux/x11/x11_properties.h"
#include "backend/linux/x11/x11_reply.h"
#include "backend/linux/x11/x11_window_place.h"

#include <xcb/res.h>
#include <xcb/shape.h>

#include <algorithm>
#include <fstream>
#include <unistd.h>

namespace nd_linux {

namespace {

using PropertyCookie = xcb_get_property_cookie_t;
using PropertyReply = xcb_get_property_reply_t;

// Everything asked about one window, sent before any reply is read.
struct WindowCookies {
    xcb_window_t window = XCB_WINDOW_NONE;
    PlaceCookies place{};
    PropertyCookie type{}, net_name{}, name{}, wm_class{}, net_pid{}, state{}, transient_for{}, extents{};
    xcb_res_query_client_ids_cookie_t client_ids{};
    bool asked_client_ids = false;
};

std::int64_t pid_from_client_ids(const xcb_res_query_client_ids_reply_t* reply)
{
    for (auto it = xcb_res_query_client_ids_ids_iterator(reply); it.rem; xcb_res_client_id_value_next(&it)) {
        if (!(it.data->spec.mask & XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID))
            continue;
        if (xcb_res_client_id_value_value_length(it.data) >= 1)
            return *xcb_res_client_id_value_value(it.data);
    }
    return 0;
}

// The window's client's pid: the server's word (XRes) where it has one, else what the client says
// of itself (_NET_WM_PID); 0 when neither.
std::int64_t client_pid(const XReply<xcb_res_query_client_ids_reply_t>& client_ids, const PropertyReply* net_pid)
{
    if (client_ids)
        if (auto pid = pid_from_client_ids(client_ids.value.get()))
            return pid;
    auto pids = property_u32(net_pid);
    return pids.empty() ? 0 : pids[0];
}

} // namespace

std::string process_name(std::int64_t pid)
{
    if (pid <= 0)
        return {};
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    if (!comm || !std::getline(comm, name))
        return {};
    return sanitize_utf8(name.substr(0, 64));
}

std::string executable_name(std::int64_t pid)
{
    if (pid <= 0)
        return {};
    char target[4096];
    const auto path = "/proc/" + std::to_string(pid) + "/exe";
    const auto n = ::readlink(path.c_str(), target, sizeof target - 1);
    if (n <= 0)
        return process_name(pid); // another user's process, or a kernel thread
    std::string_view full(target, static_cast<std::size_t>(n));
    constexpr std::string_view deleted = " (deleted)"; // the file was replaced since it started
    if (full.size() > deleted.size() && full.substr(full.size() - deleted.size()) == deleted)
        full.remove_suffix(deleted.size());
    const auto slash = full.rfind('/');
    return sanitize_utf8(full.substr(slash == std::string_view::npos ? 0 : slash + 1).substr(0, 255));
}

X11WindowSource::X11WindowSource(X11Display& display) : m_display(display) {}

nd_core::Result<X11WindowSource::RootState> X11WindowSource::read_root()
{
    auto* c = m_display.connection();
    const auto root = m_display.root();
    ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
    auto stacking = batch.add(xcb_get_property(c, 0, root, m_display.atom("_NET_CLIENT_LIST_STACKING"), XCB_ATOM_WINDOW, 0, MAX_WINDOW_LIST_UNITS));
    auto clients = batch.add(xcb_get_property(c, 0, root, m_display.atom("_NET_CLIENT_LIST"), XCB_ATOM_WINDOW, 0, MAX_WINDOW_LIST_UNITS));
    auto active = batch.add(xcb_get_property(c, 0, root, m_display.atom("_NET_ACTIVE_WINDOW"), XCB_ATOM_WINDOW, 0, 1));

    RootState state;
    auto stacking_reply = TRY(batch.take<PropertyReply>(stacking));
    auto clients_reply = TRY(batch.take<PropertyReply>(clients));
    auto active_reply = TRY(batch.take<PropertyReply>(active));
    if (auto ids = property_u32(active_reply.value.get()); !ids.empty())
        state.active = ids[0];

    // The stacking list is bottom to top; the plain client list is in mapping order, the best
    // guess there is when the window manager keeps no stacking list.
    const PropertyReply* list = stacking_reply && stacking_reply->type == XCB_ATOM_WINDOW ? stacking_reply.value.get()
        : clients_reply && clients_reply->type == XCB_ATOM_WINDOW                          ? clients_reply.value.get()
                                                                                           : nullptr;
    if (list) {
        auto ids = property_u32(list);
        state.bottom_to_top.assign(ids.begin(), ids.end());
        return state;
    }

    // No EWMH window manager: the root's children, which QueryTree returns bottom to top; the
    // per-window filter drops override-redirect, input-only and unmapped ones.
    state.bottom_to_top = TRY(root_children(m_display));
    return state;
}

nd_core::Result<std::vector<nd_core::WindowInfo>> X11WindowSource::list_windows()
{
    return collect(nullptr);
}

nd_core::Result<std::vector<nd_core::WindowInfo>> X11WindowSource::list_panels()
{
    std::vector<nd_core::WindowInfo> panels;
    TRY_VOID(collect(&panels));
    return panels;
}

nd_core::Result<std::vector<nd_core::WindowInfo>> X11WindowSource::list_unmanaged()
{
    if (m_display.broken())
        return m_display.dead_error();
    TRY_VOID(m_display.intern_atoms({"_NET_WM_PID", "_GTK_FRAME_EXTENTS"}));
    const auto children = TRY(root_children(m_display));
    auto* c = m_display.connection();
    const bool ask_res = m_display.extensions().xres;
    const bool ask_shape = m_display.extensions().shape;
    struct Asked {
        xcb_window_t window;
        PlaceCookies place;
        PropertyCookie wm_class, net_pid;
        xcb_res_query_client_ids_cookie_t client_ids{};
        xcb_shape_get_rectangles_cookie_t input{};
    };
    ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
    std::vector<Asked> sent;
    sent.reserve(children.size());
    for (auto it = children.rbegin(); it != children.rend(); ++it) { // topmost first
        Asked k{*it, ask_place(batch, m_display, *it), {}, {}};
        k.wm_class = batch.add(xcb_get_property(c, 0, *it, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 0, 256));
        k.net_pid = batch.add(xcb_get_property(c, 0, *it, m_display.atom("_NET_WM_PID"), XCB_ATOM_CARDINAL, 0, 1));
        if (ask_res) {
            xcb_res_client_id_spec_t spec{*it, XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID};
            k.client_ids = batch.add(xcb_res_query_client_ids(c, 1, &spec));
        }
        if (ask_shape)
            k.input = batch.add(xcb_shape_get_rectangles(c, *it, XCB_SHAPE_SK_INPUT));
        sent.push_back(k);
    }
    std::vector<nd_core::WindowInfo> out;
    for (const auto& k : sent) {
        auto place = TRY(take_place(batch, k.place));
        auto wm_class = TRY(batch.take<PropertyReply>(k.wm_class));
        auto net_pid = TRY(batch.take<PropertyReply>(k.net_pid));
        XReply<xcb_res_query_client_ids_reply_t> client_ids;
        if (ask_res)
            client_ids = TRY(batch.take<xcb_res_query_client_ids_reply_t>(k.client_ids));
        XReply<xcb_shape_get_rectangles_reply_t> input;
        if (ask_shape)
            input = TRY(batch.take<xcb_shape_get_rectangles_reply_t>(k.input));
        // Toolkits keep 1x1 windows mapped off the screen for their own use: nothing shows there.
        if (!place || !place->viewable || !place->override_redirect || !place->input_output || place->frame.w <= 1 ||
            place->frame.h <= 1)
            continue;
        // A surface with an empty input shape takes no click and is no app's to point at: a
        // compositor's overlay window (the whole screen, as composited), our own indicator.
        if (input && xcb_shape_get_rectangles_rectangles_length(input.value.get()) == 0)
            continue;
        nd_core::WindowInfo info;
        info.window_id = k.window;
        info.frame = place->frame;
        info.pid = client_pid(client_ids, net_pid.value.get());
        auto cls = property_wm_class(wm_class.value.get());
        info.app = !cls.class_name.empty() ? cls.class_name : cls.instance;
        if (info.app.empty() && m_display.is_local())
            info.app = process_name(info.pid);
        if (m_display.is_local()) {
            info.executable = executable_name(info.pid);
            info.process = process_name(info.pid);
        }
        out.push_back(std::move(info));
    }
    return out;
}

nd_core::Result<std::vector<nd_core::WindowInfo>> X11WindowSource::collect(std::vector<nd_core::WindowInfo>* panels)
{
    if (m_display.broken())
        return m_display.dead_error();
    // Cached after the first list; a server that does not answer them fails the list here.
    TRY_VOID(m_display.intern_atoms({"_NET_CLIENT_LIST_STACKING", "_NET_CLIENT_LIST", "_NET_ACTIVE_WINDOW", "_NET_WM_NAME",
        "_NET_WM_PID", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_DOCK", "_NET_WM_WINDOW_TYPE_DESKTOP", "UTF8_STRING",
        "_NET_WM_WINDOW_TYPE_DIALOG", "_NET_WM_STATE", "_NET_WM_STATE_MODAL", "_NET_WM_STATE_HIDDEN", "_NET_FRAME_EXTENTS",
        "_GTK_FRAME_EXTENTS"}));
    auto root_state = TRY(read_root());

    auto* c = m_display.connection();
    const auto root = m_display.root();
    const bool ask_res = m_display.extensions().xres;
    const xcb_atom_t utf8 = m_display.atom("UTF8_STRING");
    const xcb_atom_t dock = m_display.atom("_NET_WM_WINDOW_TYPE_DOCK");
    const xcb_atom_t desktop = m_display.atom("_NET_WM_WINDOW_TYPE_DESKTOP");
    const xcb_atom_t dialog = m_display.atom("_NET_WM_WINDOW_TYPE_DIALOG");
    const xcb_atom_t modal = m_display.atom("_NET_WM_STATE_MODAL");
    const xcb_atom_t hidden = m_display.atom("_NET_WM_STATE_HIDDEN");

    ReplyBatch batch(m_display, deadline_after(X11_BATCH_TIMEOUT));
    std::vector<WindowCookies> sent;
    sent.reserve(root_state.bottom_to_top.size());
    // Topmost first: walk the bottom-to-top list backwards.
    for (auto it = root_state.bottom_to_top.rbegin(); it != root_state.bottom_to_top.rend(); ++it) {
        xcb_window_t w = *it;
        WindowCookies k;
        k.window = w;
        k.place = ask_place(batch, m_display, w);
        k.type = batch.add(xcb_get_property(c, 0, w, m_display.atom("_NET_WM_WINDOW_TYPE"), XCB_ATOM_ATOM, 0, 32));
        k.net_name = batch.add(xcb_get_property(c, 0, w, m_display.atom("_NET_WM_NAME"), utf8, 0, MAX_TEXT_PROPERTY_UNITS));
        k.name = batch.add(xcb_get_property(c, 0, w, XCB_ATOM_WM_NAME, XCB_GET_PROPERTY_TYPE_ANY, 0, MAX_TEXT_PROPERTY_UNITS));
        k.wm_class = batch.add(xcb_get_property(c, 0, w, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 0, 256));
        k.net_pid = batch.add(xcb_get_property(c, 0, w, m_display.atom("_NET_WM_PID"), XCB_ATOM_CARDINAL, 0, 1));
        k.state = batch.add(xcb_get_property(c, 0, w, m_display.atom("_NET_WM_STATE"), XCB_ATOM_ATOM, 0, 32));
        k.transient_for = batch.add(xcb_get_property(c, 0, w, XCB_ATOM_WM_TRANSIENT_FOR, XCB_ATOM_WINDOW, 0, 1));
        k.extents = batch.add(xcb_get_property(c, 0, w, m_display.atom("_NET_FRAME_EXTENTS"), XCB_ATOM_CARDINAL, 0, 4));
        if (ask_res) {
            xcb_res_client_id_spec_t spec{w, XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID};
            k.client_ids = batch.add(xcb_res_query_client_ids(c, 1, &spec));
            k.asked_client_ids = true;
        }
        sent.push_back(k);
    }

    std::vector<nd_core::WindowInfo> out;
    // Pids that own a panel or desktop window: their other windows are the shell's (shell: true).
    std::vector<std::int64_t> shell_pids;
    for (const auto& k : sent) {
        // Every reply is taken, even of a window that turns out not to be listed, so none is left
        // waiting inside xcb.
        auto place = TRY(take_place(batch, k.place));
        auto type = TRY(batch.take<PropertyReply>(k.type));
        auto net_name = TRY(batch.take<PropertyReply>(k.net_name));
        auto name = TRY(batch.take<PropertyReply>(k.name));
        auto wm_class = TRY(batch.take<PropertyReply>(k.wm_class));
        auto net_pid = TRY(batch.take<PropertyReply>(k.net_pid));
        auto state = TRY(batch.take<PropertyReply>(k.state));
        auto transient_for = TRY(batch.take<PropertyReply>(k.transient_for));
        auto extents = TRY(batch.take<PropertyReply>(k.extents));
        XReply<xcb_res_query_client_ids_reply_t> client_ids;
        if (k.asked_client_ids)
            client_ids = TRY(batch.take<xcb_res_query_client_ids_reply_t>(k.client_ids));

        // A window destroyed since the list was read answers BadWindow: it is simply gone.
        if (!place || !place->viewable || place->override_redirect || !place->input_output)
            continue;
        nd_core::WindowInfo info;
        info.window_id = k.window;
        info.pid = client_pid(client_ids, net_pid.value.get());
        auto types = property_u32(type.value.get());
        if (std::any_of(types.begin(), types.end(), [&](std::uint32_t t) { return t == dock || t == desktop; })) {
            if (info.pid > 0)
                shell_pids.push_back(info.pid);
            if (panels && std::find(types.begin(), types.end(), dock) != types.end()) {
                info.title = property_text(net_name.value.get(), utf8);
                auto cls = property_wm_class(wm_class.value.get());
                info.app = !cls.class_name.empty() ? cls.class_name : cls.instance;
                info.frame = place->frame;
                panels->push_back(std::move(info));
            }
            continue;
        }
        info.title = property_text(net_name.value.get(), utf8);
        if (info.title.empty())
            info.title = property_text(name.value.get(), utf8);
        info.dialog = std::find(types.begin(), types.end(), dialog) != types.end();
        auto states = property_u32(state.value.get());
        info.modal = std::find(states.begin(), states.end(), modal) != states.end();
        info.hidden = std::find(states.begin(), states.end(), hidden) != states.end();
        if (auto owner = property_u32(transient_for.value.get()); !owner.empty() && owner[0] != root)
            info.transient_for = owner[0];
        auto cls = property_wm_class(wm_class.value.get());
        // A driver's consent dialog and a confirm dialog are never a target (§6); the indicator is override-redirect and
        // never listed in the first place.
        if (cls.class_name == X11ConsentDialog::WM_CLASS_NAME || cls.class_name == X11ConfirmDialog::WM_CLASS_NAME)
            continue;
        info.app = !cls.class_name.empty() ? cls.class_name : cls.instance;
        if (info.app.empty() && m_display.is_local())
            info.app = process_name(info.pid);
        if (m_display.is_local()) {
            info.executable = executable_name(info.pid);
            info.process = process_name(info.pid);
        }
        info.frame = place->frame;
        info.active = k.window == root_state.active;
        if (auto e = property_extents(extents.value.get()))
            info.decor = *e;
        if (place->client_decor)
            info.client_decor = *place->client_decor;
        out.push_back(std::move(info));
    }
    for (auto& info : out)
        info.shell = std::find(shell_pids.begin(), shell_pids.end(), info.pid) != shell_pids.end();
    return out;
}

} // namespace nd_linux
