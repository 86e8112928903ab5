#include "backend/linux/x11/x11_keysyms.h"

#include <utility>

namespace nd_linux {

namespace {

// Keysym numbers from the X protocol's keysym encoding (X11 Protocol, Appendix A). Only the keys a
// model can reasonably ask for by name; letters, digits and function keys are computed below.
constexpr std::pair<std::string_view, Keysym> NAMED[] = {
    {"BackSpace", 0xff08}, {"Tab", 0xff09}, {"Linefeed", 0xff0a}, {"Clear", 0xff0b}, {"Return", 0xff0d},
    {"Pause", 0xff13}, {"Scroll_Lock", 0xff14}, {"Sys_Req", 0xff15}, {"Escape", 0xff1b}, {"Delete", 0xffff},
    {"Home", 0xff50}, {"Left", 0xff51}, {"Up", 0xff52}, {"Right", 0xff53}, {"Down", 0xff54},
    {"Prior", 0xff55}, {"Page_Up", 0xff55}, {"Next", 0xff56}, {"Page_Down", 0xff56}, {"End", 0xff57},
    {"Begin", 0xff58}, {"Select", 0xff60}, {"Print", 0xff61}, {"Execute", 0xff62}, {"Insert", 0xff63},
    {"Undo", 0xff65}, {"Redo", 0xff66}, {"Menu", 0xff67}, {"Find", 0xff68}, {"Cancel", 0xff69},
    {"Help", 0xff6a}, {"Break", 0xff6b}, {"Mode_switch", 0xff7e}, {"Num_Lock", 0xff7f},
    {"KP_Space", 0xff80}, {"KP_Tab", 0xff89}, {"KP_Enter", 0xff8d}, {"KP_Home", 0xff95}, {"KP_Left", 0xff96},
    {"KP_Up", 0xff97}, {"KP_Right", 0xff98}, {"KP_Down", 0xff99}, {"KP_Prior", 0xff9a}, {"KP_Page_Up", 0xff9a},
    {"KP_Next", 0xff9b}, {"KP_Page_Down", 0xff9b}, {"KP_End", 0xff9c}, {"KP_Begin", 0xff9d},
    {"KP_Insert", 0xff9e}, {"KP_Delete", 0xff9f}, {"KP_Multiply", 0xffaa}, {"KP_Add", 0xffab},
    {"KP_Separator", 0xffac}, {"KP_Subtract", 0xffad}, {"KP_Decimal", 0xffae}, {"KP_Divide", 0xffaf},
    {"KP_Equal", 0xffbd},
    {"Shift_L", 0xffe1}, {"Shift_R", 0xffe2}, {"Control_L", 0xffe3}, {"Control_R", 0xffe4},
    {"Caps_Lock", 0xffe5}, {"Shift_Lock", 0xffe6}, {"Meta_L", 0xffe7}, {"Meta_R", 0xffe8},
    {"Alt_L", 0xffe9}, {"Alt_R", 0xffea}, {"Super_L", 0xffeb}, {"Super_R", 0xffec},
    {"Hyper_L", 0xffed}, {"Hyper_R", 0xffee}, {"ISO_Level3_Shift", 0xfe03}, {"ISO_Left_Tab", 0xfe20},
    {"space", 0x20}, {"exclam", 0x21}, {"quotedbl", 0x22}, {"numbersign", 0x23}, {"dollar", 0x24},
    {"percent", 0x25}, {"ampersand", 0x26}, {"apostrophe", 0x27}, {"parenleft", 0x28}, {"parenright", 0x29},
    {"asterisk", 0x2a}, {"plus", 0x2b}, {"comma", 0x2c}, {"minus", 0x2d}, {"period", 0x2e}, {"slash", 0x2f},
    {"colon", 0x3a}, {"semicolon", 0x3b}, {"less", 0x3c}, {"equal", 0x3d}, {"greater", 0x3e},
    {"question", 0x3f}, {"at", 0x40}, {"bracketleft", 0x5b}, {"backslash", 0x5c}, {"bracketright", 0x5d},
    {"asciicircum", 0x5e}, {"underscore", 0x5f}, {"grave", 0x60}, {"braceleft", 0x7b}, {"bar", 0x7c},
    {"braceright", 0x7d}, {"asciitilde", 0x7e}, {"EuroSign", 0x20ac},
    {"XF86AudioLowerVolume", 0x1008ff11}, {"XF86AudioMute", 0x1008ff12}, {"XF86AudioRaiseVolume", 0x1008ff13},
    {"XF86AudioPlay", 0x1008ff14}, {"XF86AudioStop", 0x1008ff15}, {"XF86AudioPrev", 0x1008ff16},
    {"XF86AudioNext", 0x1008ff17}, {"XF86Back", 0x1008ff26}, {"XF86Forward", 0x1008ff27},
    {"XF86Reload", 0x1008ff73},
};

std::optional<std::uint32_t> parse_hex(std::string_view digits, std::size_t max_digits)
{
    if (digits.empty() || digits.size() > max_digits)
        return std::nullopt;
    std::uint32_t out = 0;
    for (char c : digits) {
        int v = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (v < 0)
            return std::nullopt;
        out = out * 16 + static_cast<std::uint32_t>(v);
    }
    return out;
}

// F1..F35 are 0xffbe..0xffe0; KP_0..KP_9 are 0xffb0..0xffb9.
std::optional<Keysym> numbered(std::string_view name, std::string_view prefix, Keysym first, int count, int base)
{
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix || name.size() > prefix.size() + 2)
        return std::nullopt;
    int n = 0;
    for (char c : name.substr(prefix.size())) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    if (name[prefix.size()] == '0' && name.size() > prefix.size() + 1)
        return std::nullopt; // "F01" is not a name
    n -= base;
    if (n < 0 || n >= count)
        return std::nullopt;
    return first + static_cast<Keysym>(n);
}

} // namespace

std::optional<Keysym> keysym_from_name(std::string_view name)
{
    if (name.size() == 1) {
        auto c = static_cast<unsigned char>(name[0]);
        if (c > 0x20 && c < 0x7f)
            return Keysym{c};
        return std::nullopt;
    }
    for (const auto& [n, keysym] : NAMED)
        if (n == name)
            return keysym;
    if (auto f = numbered(name, "F", 0xffbe, 35, 1))
        return f;
    if (auto kp = numbered(name, "KP_", 0xffb0, 10, 0))
        return kp;
    if (name.size() >= 2 && name[0] == 'U') {
        auto cp = parse_hex(name.substr(1), 6);
        if (cp && *cp >= 0x20 && *cp <= 0x10ffff) {
            auto keysym = keysym_for_char(*cp);
            if (keysym != KEYSYM_NONE)
                return keysym;
        }
        return std::nullopt;
    }
    if (name.size() > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
        auto raw = parse_hex(name.substr(2), 8);
        if (raw && *raw != KEYSYM_NONE)
            return raw;
    }
    return std::nullopt;
}

Keysym keysym_for_char(char32_t c)
{
    if (c == U'\n' || c == U'\r')
        return 0xff0d;
    if (c == U'\t')
        return 0xff09;
    if (c < 0x20 || (c >= 0x7f && c < 0xa0) || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
        return KEYSYM_NONE;
    if (c <= 0xff)
        return static_cast<Keysym>(c);
    return 0x1000000 + static_cast<Keysym>(c);
}

Keysym legacy_keysym_for_char(char32_t c)
{
    // Keyboard layouts still carry the euro under its pre-Unicode keysym.
    return c == U'\u20ac' ? Keysym{0x20ac} : KEYSYM_NONE;
}

} // namespace nd_linux
