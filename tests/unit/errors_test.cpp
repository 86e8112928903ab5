// The one error table (errors.def): unique names, a disposition and one fixed sentence of
// suggestion per code, the text form of a failed call (§2.1), and the escaping of a candidate's
// untrusted app name.

#include "core/errors.h"

#include "tree_fixture.h"

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>

using namespace nd_core;

namespace {

// The suggestion §4.3 fixes word for word; it is two sentences, so it is the one exception to the
// one-sentence rule of §2.1.
constexpr std::string_view USER_TOOK_OVER_SUGGESTION =
    "The person took control. Wait for them to click Continue, then start again.";

bool snake_case(std::string_view s)
{
    if (s.empty() || s.front() == '_' || s.back() == '_')
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || c == '_'))
            return false;
    return true;
}

// Sentence breaks inside the text: a full stop, question or exclamation mark followed by a space.
int inner_sentence_breaks(std::string_view s)
{
    int breaks = 0;
    for (std::size_t i = 0; i + 1 < s.size(); ++i)
        if ((s[i] == '.' || s[i] == '?' || s[i] == '!') && s[i + 1] == ' ')
            ++breaks;
    return breaks;
}

} // namespace

TEST(ErrorTable, IsNotEmptyAndInEnumOrder)
{
    auto table = error_table();
    ASSERT_GT(table.size(), 20u);
    for (std::size_t i = 0; i < table.size(); ++i) {
        EXPECT_EQ(static_cast<std::size_t>(table[i].code), i) << table[i].name;
        EXPECT_EQ(&error_info(table[i].code), &table[i]) << table[i].name;
        EXPECT_EQ(error_name(table[i].code), table[i].name);
    }
}

TEST(ErrorTable, NamesAreUniqueSnakeCase)
{
    std::set<std::string_view> seen;
    for (const auto& row : error_table()) {
        EXPECT_TRUE(snake_case(row.name)) << row.name;
        EXPECT_TRUE(seen.insert(row.name).second) << "duplicate code " << row.name;
    }
}

TEST(ErrorTable, NamesRoundTrip)
{
    for (const auto& row : error_table()) {
        auto code = error_code_from_name(row.name);
        ASSERT_TRUE(code.has_value()) << row.name;
        EXPECT_EQ(*code, row.code);
    }
    EXPECT_FALSE(error_code_from_name("").has_value());
    EXPECT_FALSE(error_code_from_name("no_such_code").has_value());
    EXPECT_FALSE(error_code_from_name("Ambiguous_Target").has_value());
    EXPECT_FALSE(error_code_from_name("ambiguous_target ").has_value());
}

TEST(ErrorTable, EveryCodeHasADisposition)
{
    const std::set<std::string_view> dispositions = {"safe", "unsafe", "after_refresh", "never"};
    for (const auto& row : error_table())
        EXPECT_TRUE(dispositions.count(retry_name(row.retry))) << row.name;
    EXPECT_EQ(retry_name(Retry::safe), "safe");
    EXPECT_EQ(retry_name(Retry::unsafe), "unsafe");
    EXPECT_EQ(retry_name(Retry::after_refresh), "after_refresh");
    EXPECT_EQ(retry_name(Retry::never), "never");
}

TEST(ErrorTable, TheCodesTheContractNamesAreThere)
{
    for (auto name : {"ambiguous_target", "ambiguous_window_target", "window_target_not_found", "invalid_arguments",
             "capability_not_consented", "requires_takeover", "unsupported", "user_took_over",
             "stale_element_token", "consent_expired", "unknown_method"})
        EXPECT_TRUE(error_code_from_name(name).has_value()) << name;
}

TEST(ErrorTable, DispositionsAndSuggestionsTheContractFixes)
{
    // §2.1's example envelope.
    EXPECT_EQ(error_info(ErrorCode::ambiguous_target).retry, Retry::never);
    EXPECT_EQ(error_info(ErrorCode::ambiguous_target).suggestion,
        "Pick one of the candidates and call again with its pid and window_id.");
    // §3 and §4.3.
    EXPECT_EQ(error_info(ErrorCode::stale_element_token).retry, Retry::after_refresh);
    EXPECT_EQ(error_info(ErrorCode::user_took_over).retry, Retry::never);
    EXPECT_EQ(error_info(ErrorCode::user_took_over).suggestion, USER_TOOK_OVER_SUGGESTION);
}

TEST(ErrorTable, EverySuggestionIsOneSentenceEndingInAPeriod)
{
    for (const auto& row : error_table()) {
        const auto s = row.suggestion;
        ASSERT_FALSE(s.empty()) << row.name;
        EXPECT_TRUE(std::isupper(static_cast<unsigned char>(s.front()))) << row.name << ": " << s;
        EXPECT_EQ(s.back(), '.') << row.name << ": " << s;
        EXPECT_EQ(s.find('\n'), std::string_view::npos) << row.name;
        EXPECT_EQ(s.find("  "), std::string_view::npos) << row.name;
        EXPECT_LE(s.size(), 200u) << row.name;
        if (row.code != ErrorCode::user_took_over) {
            EXPECT_EQ(inner_sentence_breaks(s), 0) << row.name << " has more than one sentence: " << s;
        }
    }
}

TEST(ErrorText, HasTheContractFormat)
{
    Error e(ErrorCode::stale_element_token, "token s3:17 is from an older structure of its window");
    EXPECT_EQ(e.text(),
        "stale_element_token: token s3:17 is from an older structure of its window [retry: after_refresh] "
        "Read the window again with get_window_state and use a token from that read.");
}

TEST(ErrorText, EveryCodeRendersCodeMessageDispositionAndSuggestion)
{
    for (const auto& row : error_table()) {
        Error e(row.code, "something about pid 42");
        const std::string expected = std::string(row.name) + ": something about pid 42 [retry: "
            + std::string(retry_name(row.retry)) + "] " + std::string(row.suggestion);
        EXPECT_EQ(e.text(), expected);
    }
}

TEST(ErrorText, RideAlongFieldsDoNotChangeTheText)
{
    Error e(ErrorCode::user_took_over, "the person's input stopped the call");
    e.effect = "stopped";
    e.typed_characters = 3;
    e.paused_reason = "key_pressed";
    e.candidates.push_back({1, 2, "App"});
    EXPECT_EQ(e.text(),
        "user_took_over: the person's input stopped the call [retry: never] " + std::string(USER_TOOK_OVER_SUGGESTION));
}

TEST(ErrorDefaults, DefaultErrorIsInternal)
{
    Error e;
    EXPECT_EQ(e.code, ErrorCode::internal_error);
    EXPECT_TRUE(e.candidates.empty());
    EXPECT_FALSE(e.candidates_truncated);
    EXPECT_FALSE(e.effect.has_value());
}

TEST(SanitizeAppName, PlainNamesAreUnchanged)
{
    EXPECT_EQ(sanitize_app_name(""), "");
    EXPECT_EQ(sanitize_app_name("Slack"), "Slack");
    EXPECT_EQ(sanitize_app_name("Notes \xE2\x80\x94 Ideas"), "Notes \xE2\x80\x94 Ideas");
}

TEST(SanitizeAppName, EscapesControlCharacters)
{
    EXPECT_EQ(sanitize_app_name("a\nb"), "a\\x0ab");
    EXPECT_EQ(sanitize_app_name("\x1b[31mred"), "\\x1b[31mred");
    EXPECT_EQ(sanitize_app_name(std::string_view("x\0y", 3)), "x\\x00y");
    EXPECT_EQ(sanitize_app_name("tab\there"), "tab\\x09here");
    EXPECT_EQ(sanitize_app_name("del\x7f"), "del\\x7f");
    for (const auto& out : {sanitize_app_name("a\r\nb\x01"), sanitize_app_name("\x1f\x7f")})
        for (char c : out)
            EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7F) << out;
}

TEST(SanitizeAppName, CutsToSixtyFourCharacters)
{
    EXPECT_EQ(sanitize_app_name(std::string(64, 'a')), std::string(64, 'a'));
    EXPECT_EQ(sanitize_app_name(std::string(100, 'a')), std::string(64, 'a'));
}

TEST(SanitizeAppName, CountsCharactersNotBytesAndNeverSplitsOne)
{
    std::string e_acute;
    for (int i = 0; i < 70; ++i)
        e_acute += "\xC3\xA9";
    auto cut = sanitize_app_name(e_acute);
    EXPECT_EQ(nd_test::utf8_length(cut), 64u);
    EXPECT_EQ(cut.size(), 128u);
    EXPECT_TRUE(nd_test::valid_utf8(cut));

    // 63 ASCII characters and then multi-byte ones: the 64th character is kept whole.
    for (std::string_view wide : {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"}) {
        auto in = std::string(63, 'a') + std::string(wide) + std::string(wide);
        auto out = sanitize_app_name(in);
        EXPECT_EQ(out, std::string(63, 'a') + std::string(wide));
        EXPECT_TRUE(nd_test::valid_utf8(out));
    }
}

TEST(SanitizeAppName, EscapesATruncatedSequenceAtTheEnd)
{
    // Cut short, the bytes are no character: each is shown as \xNN like any stray byte.
    EXPECT_EQ(sanitize_app_name("ab\xE2\x82"), "ab\\xe2\\x82");
    EXPECT_EQ(sanitize_app_name("ab\xF0"), "ab\\xf0");
}

TEST(SanitizeAppName, EscapesStrayBytes)
{
    EXPECT_EQ(sanitize_app_name("a\x80z"), "a\\x80z");
    EXPECT_EQ(sanitize_app_name("\xFF"), "\\xff");
}

TEST(SanitizeAppName, OutputIsAlwaysValidUtf8)
{
    // A lead byte followed by a byte that does not continue it is not a character: the escaped
    // name must not carry it through raw.
    for (std::string_view in : {"\xC3(", "a\xE2(b", "\xF0\x9F(x", "\xED\xA0\x80", "\xC0\xAF"}) {
        auto out = sanitize_app_name(in);
        EXPECT_TRUE(nd_test::valid_utf8(out)) << "input bytes: " << testing::PrintToString(std::string(in));
    }
}
