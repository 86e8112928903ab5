#pragma once

// What the consent dialog shows and where, as plain values: the lines of text built from a request
// (app names are untrusted, so they are cleaned and bounded here) and the rectangles of its controls
// in window coordinates. No X or cairo here, so the layout is the same whether or not anything is
// drawn, and tests click exactly where the dialog hit-tests.

#include "core/backend/confirm.h"
#include "core/backend/consent.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd_linux {

struct ConsentRect {
    int x = 0, y = 0, width = 0, height = 0;
    bool contains(int px, int py) const { return px >= x && py >= y && px < x + width && py < y + height; }
    int center_x() const { return x + width / 2; }
    int center_y() const { return y + height / 2; }
};

enum class ConsentControl { none, allow, deny, takeover, clipboard };

struct ConsentText {
    ConsentRect rect;
    std::string text;
    bool bold = false;
};

struct ConsentLayout {
    static constexpr int WIDTH = 720; // the takeover line fits whole in Sans 11 bold
    static constexpr std::size_t MAX_APPS = 20;       // app lines shown; the rest become "and N more"
    static constexpr std::size_t MAX_APP_CHARS = 64;  // code points of one app name

    int width = WIDTH;
    int height = 0;
    std::vector<ConsentText> texts; // static lines: the header, the apps, the lease
    ConsentRect allow, deny;
    ConsentRect notice; // left of the buttons: why a click was not taken
    // Each tick line's whole row (box and label) toggles; the box is where the tick is drawn.
    std::optional<ConsentRect> takeover, clipboard;
    std::optional<ConsentRect> takeover_box, clipboard_box;

    // The control under a point of the window, if any.
    ConsentControl hit(int x, int y) const;
};

inline constexpr std::string_view CONSENT_HEADER = "An AI agent asks to read and act on:";
inline constexpr std::string_view CONSENT_TAKEOVER_LINE =
    "ALSO allow VISIBLE TAKEOVER (the agent moves your mouse and types)";
inline constexpr std::string_view CONSENT_CLIPBOARD_LINE = "ALSO allow reading your clipboard";
// Shown after a click that PersonRule did not take as the person's.
inline constexpr std::string_view CONSENT_REFUSED_NOTICE = "Not taken: only your own mouse counts. Click again.";

// An app name fit to show: valid UTF-8, without control characters (C0, DEL, C1) or the bidi
// controls that could make it read as something else, at most MAX_APP_CHARS code points (then "…").
// Empty names show as "(unnamed app)".
std::string clean_app_name(std::string_view name);
// The same cleaning for any untrusted text, bounded at `max_chars` code points (then "…"); empty
// stays empty.
std::string clean_text(std::string_view text, std::size_t max_chars);

// "for 5 minutes", rounded up to whole minutes; "for this session" when the lease is not set.
std::string lease_text(std::int64_t lease_s);

ConsentLayout layout_consent(const nd_core::ConsentRequest&);

// The confirm dialog (x11_confirm_dialog.h): what the call does and to what, one line each, then
// how long it waits; Allow and Deny, no tick lines.
inline constexpr std::string_view CONFIRM_HEADER = "An AI agent asks to do this. Allow it?";
ConsentLayout layout_confirm(const nd_core::ConfirmRequest&, std::int64_t timeout_s);

} // namespace nd_linux
