#include "backend/linux/x11/x11_consent_layout.h"

#include "core/encode/utf8.h"

#include <algorithm>

namespace nd_linux {

namespace {

constexpr int MARGIN = 24;
constexpr int HEADER_HEIGHT = 28;
constexpr int LINE_HEIGHT = 22;
constexpr int APP_INDENT = 44;
constexpr int TICK_ROW_HEIGHT = 32;
constexpr int TICK_BOX = 18;
constexpr int BUTTON_WIDTH = 110, BUTTON_HEIGHT = 34, BUTTON_GAP = 12;

// Characters that must not reach the screen from an app name: they move, hide or reorder text, so
// a name could pass itself off as another line of the dialog.
bool hidden_or_reordering(char32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) // C0, DEL, C1
        || cp == 0x061c || cp == 0x200e || cp == 0x200f // bidi marks
        || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) // bidi embeddings, isolates
        || (cp >= 0x2028 && cp <= 0x2029) // line and paragraph separators
        || cp == 0xfeff;
}

} // namespace

ConsentControl ConsentLayout::hit(int x, int y) const
{
    if (allow.contains(x, y))
        return ConsentControl::allow;
    if (deny.contains(x, y))
        return ConsentControl::deny;
    if (takeover && takeover->contains(x, y))
        return ConsentControl::takeover;
    if (clipboard && clipboard->contains(x, y))
        return ConsentControl::clipboard;
    return ConsentControl::none;
}

std::string clean_app_name(std::string_view name)
{
    auto out = clean_text(name, ConsentLayout::MAX_APP_CHARS);
    return out.empty() ? "(unnamed app)" : out;
}

std::string clean_text(std::string_view name, std::size_t max_chars)
{
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < name.size();) {
        char32_t cp = 0;
        auto n = nd_core::utf8_sequence_length(name, i, &cp);
        if (n == 0) {
            ++i; // an invalid byte is dropped, like a control character
            continue;
        }
        if (!hidden_or_reordering(cp)) {
            if (chars == max_chars) {
                out += "\u2026";
                break;
            }
            out.append(name.substr(i, n));
            ++chars;
        }
        i += n;
    }
    // Leading and trailing spaces would only make the name look indented or empty.
    auto first = out.find_first_not_of(' ');
    auto last = out.find_last_not_of(' ');
    return first == std::string::npos ? std::string{} : out.substr(first, last - first + 1);
}

std::string lease_text(std::int64_t lease_s)
{
    if (lease_s <= 0)
        return "for this session";
    const std::int64_t minutes = (lease_s + 59) / 60;
    return "for " + std::to_string(minutes) + (minutes == 1 ? " minute" : " minutes");
}

ConsentLayout layout_consent(const nd_core::ConsentRequest& req)
{
    ConsentLayout out;
    const int text_width = out.width - 2 * MARGIN;
    int y = 20;
    out.texts.push_back({{MARGIN, y, text_width, HEADER_HEIGHT}, std::string(CONSENT_HEADER), true});
    y += HEADER_HEIGHT;

    const std::size_t shown = std::min(req.apps.size(), ConsentLayout::MAX_APPS);
    for (std::size_t i = 0; i < shown; ++i) {
        out.texts.push_back({{APP_INDENT, y, out.width - APP_INDENT - MARGIN, LINE_HEIGHT},
            "\u2022 " + clean_app_name(req.apps[i]), false});
        y += LINE_HEIGHT;
    }
    if (req.apps.size() > shown) {
        out.texts.push_back({{APP_INDENT, y, out.width - APP_INDENT - MARGIN, LINE_HEIGHT},
            "and " + std::to_string(req.apps.size() - shown) + " more", false});
        y += LINE_HEIGHT;
    }
    y += 8;
    out.texts.push_back({{MARGIN, y, text_width, LINE_HEIGHT}, lease_text(req.lease_s), false});
    y += LINE_HEIGHT + 10;

    auto tick_row = [&](std::optional<ConsentRect>& row, std::optional<ConsentRect>& box) {
        row = ConsentRect{MARGIN, y, text_width, TICK_ROW_HEIGHT};
        box = ConsentRect{MARGIN, y + (TICK_ROW_HEIGHT - TICK_BOX) / 2, TICK_BOX, TICK_BOX};
        y += TICK_ROW_HEIGHT + 4;
    };
    if (req.takeover)
        tick_row(out.takeover, out.takeover_box);
    if (req.clipboard_read)
        tick_row(out.clipboard, out.clipboard_box);

    y += 14;
    out.allow = {out.width - MARGIN - BUTTON_WIDTH, y, BUTTON_WIDTH, BUTTON_HEIGHT};
    out.deny = {out.allow.x - BUTTON_GAP - BUTTON_WIDTH, y, BUTTON_WIDTH, BUTTON_HEIGHT};
    out.notice = {MARGIN, y, out.deny.x - BUTTON_GAP - MARGIN, BUTTON_HEIGHT};
    out.height = y + BUTTON_HEIGHT + 20;
    return out;
}

ConsentLayout layout_confirm(const nd_core::ConfirmRequest& req, std::int64_t timeout_s)
{
    ConsentLayout out;
    const int text_width = out.width - 2 * MARGIN;
    int y = 20;
    out.texts.push_back({{MARGIN, y, text_width, HEADER_HEIGHT}, std::string(CONFIRM_HEADER), true});
    y += HEADER_HEIGHT;
    auto line = [&](std::string text) {
        out.texts.push_back({{APP_INDENT, y, out.width - APP_INDENT - MARGIN, LINE_HEIGHT}, std::move(text), false});
        y += LINE_HEIGHT;
    };
    std::string_view verb = req.verb;
    if (verb.starts_with("desk_"))
        verb.remove_prefix(5);
    line("Action: " + clean_app_name(verb));
    if (!req.app.empty())
        line("App: " + clean_app_name(req.app));
    if (!req.window.empty())
        line("Window: " + clean_text(req.window, ConsentLayout::MAX_APP_CHARS));
    if (!req.target.empty())
        line("On: " + clean_text(req.target, ConsentLayout::MAX_APP_CHARS));
    if (req.text_chars) {
        std::string text = "Text: " + std::to_string(*req.text_chars) + (*req.text_chars == 1 ? " character" : " characters");
        // The first characters only where the field is known not to be a password field.
        if (req.secure)
            text += " (a password field: not shown)";
        else if (auto start = clean_text(req.text_start, nd_core::CONFIRM_TEXT_START); !start.empty())
            text += ", starting \u201c" + start + (*req.text_chars > static_cast<std::int64_t>(nd_core::CONFIRM_TEXT_START) ? "\u2026" : "") + "\u201d";
        line(std::move(text));
    }
    y += 8;
    out.texts.push_back({{MARGIN, y, text_width, LINE_HEIGHT},
        "No answer within " + std::to_string(timeout_s) + " s counts as Deny.", false});
    y += LINE_HEIGHT + 24;
    out.allow = {out.width - MARGIN - BUTTON_WIDTH, y, BUTTON_WIDTH, BUTTON_HEIGHT};
    out.deny = {out.allow.x - BUTTON_GAP - BUTTON_WIDTH, y, BUTTON_WIDTH, BUTTON_HEIGHT};
    out.notice = {MARGIN, y, out.deny.x - BUTTON_GAP - MARGIN, BUTTON_HEIGHT};
    out.height = y + BUTTON_HEIGHT + 20;
    return out;
}

} // namespace nd_linux
