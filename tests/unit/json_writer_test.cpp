// The streaming JSON writer: RFC 8259 escaping, invalid UTF-8 replaced by U+FFFD so the output is
// always valid JSON, commas and nesting, and numbers at their extremes.

#include "core/encode/json_writer.h"

#include "tree_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>

using nd_core::JsonWriter;

namespace {

std::string json_quoted(std::string_view s)
{
    std::string out;
    nd_core::append_json_string(out, s);
    return out;
}

const std::string FFFD = "\xEF\xBF\xBD";

} // namespace

TEST(JsonString, PlainTextIsCopiedUnchanged)
{
    EXPECT_EQ(json_quoted(""), "\"\"");
    EXPECT_EQ(json_quoted("hello world"), "\"hello world\"");
    EXPECT_EQ(json_quoted("a/b <c> & 'd'"), "\"a/b <c> & 'd'\"");
}

TEST(JsonString, EscapesQuoteBackslashAndTheShortForms)
{
    EXPECT_EQ(json_quoted("say \"hi\""), R"("say \"hi\"")");
    EXPECT_EQ(json_quoted("C:\\path"), R"("C:\\path")");
    EXPECT_EQ(json_quoted("a\nb\rc\td\be\ff"), R"("a\nb\rc\td\be\ff")");
}

TEST(JsonString, OtherControlCharactersUseUnicodeEscapes)
{
    EXPECT_EQ(json_quoted(std::string_view("\0", 1)), R"("\u0000")");
    EXPECT_EQ(json_quoted("\x01"), R"("\u0001")");
    EXPECT_EQ(json_quoted("\x1f"), R"("\u001f")");
    EXPECT_EQ(json_quoted("x\x1by"), R"("x\u001by")");
    // DEL is not a control character for JSON: it may stand as it is.
    EXPECT_EQ(json_quoted("\x7f"), "\"\x7f\"");
}

TEST(JsonString, ValidUtf8PassesThrough)
{
    EXPECT_EQ(json_quoted("caf\xC3\xA9"), "\"caf\xC3\xA9\"");                   // é, 2 bytes
    EXPECT_EQ(json_quoted("\xE2\x82\xAC 5"), "\"\xE2\x82\xAC 5\"");              // €, 3 bytes
    EXPECT_EQ(json_quoted("\xF0\x9F\x98\x80"), "\"\xF0\x9F\x98\x80\"");          // U+1F600, 4 bytes
    EXPECT_EQ(json_quoted("\xF4\x8F\xBF\xBF"), "\"\xF4\x8F\xBF\xBF\"");          // U+10FFFF, the last one
}

TEST(JsonString, InvalidUtf8BecomesReplacementCharacters)
{
    // A lone continuation byte and a lead byte with nothing after it.
    EXPECT_EQ(json_quoted("a\x80z"), "\"a" + FFFD + "z\"");
    EXPECT_EQ(json_quoted("ab\xC3"), "\"ab" + FFFD + "\"");
    // A lead byte followed by ASCII: the ASCII survives.
    EXPECT_EQ(json_quoted("\xC3("), "\"" + FFFD + "(\"");
    // A truncated 3-byte sequence at the end: each byte is replaced on its own.
    EXPECT_EQ(json_quoted("\xE2\x82"), "\"" + FFFD + FFFD + "\"");
    // Overlong encodings of '/' and NUL.
    EXPECT_EQ(json_quoted("\xC0\xAF"), "\"" + FFFD + FFFD + "\"");
    EXPECT_EQ(json_quoted("\xE0\x80\x80"), "\"" + FFFD + FFFD + FFFD + "\"");
    // A UTF-16 surrogate and a code point past U+10FFFF.
    EXPECT_EQ(json_quoted("\xED\xA0\x80"), "\"" + FFFD + FFFD + FFFD + "\"");
    EXPECT_EQ(json_quoted("\xF4\x90\x80\x80"), "\"" + FFFD + FFFD + FFFD + FFFD + "\"");
    // Bytes that never start a sequence.
    EXPECT_EQ(json_quoted("\xFF\xFE"), "\"" + FFFD + FFFD + "\"");
}

TEST(JsonString, AnyBytesGiveJsonThatParsesBackToTheValidInput)
{
    std::mt19937 rng(12345);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<int> length(0, 40);
    for (int round = 0; round < 3000; ++round) {
        std::string in;
        const int n = length(rng);
        for (int i = 0; i < n; ++i)
            in.push_back(static_cast<char>(byte(rng)));
        const std::string json = json_quoted(in);
        ASSERT_TRUE(nd_test::valid_utf8(json)) << "round " << round;
        nlohmann::json parsed;
        ASSERT_NO_THROW(parsed = nlohmann::json::parse(json)) << "round " << round;
        ASSERT_TRUE(parsed.is_string());
        if (nd_test::valid_utf8(in)) {
            EXPECT_EQ(parsed.get<std::string>(), in) << "round " << round;
        }
    }
}

TEST(JsonWriter, CommasAndNesting)
{
    std::string out;
    JsonWriter w(out);
    w.begin_object();
    w.field("a", 1);
    w.key("b").begin_array().number(std::int64_t{1}).number(std::int64_t{2});
    w.begin_object().key("c").null().end_object();
    w.begin_array().end_array();
    w.end_array();
    w.key("d").begin_object().end_object();
    w.field("e", true);
    w.field("f", "text");
    w.end_object();
    EXPECT_EQ(out, R"({"a":1,"b":[1,2,{"c":null},[]],"d":{},"e":true,"f":"text"})");
    EXPECT_TRUE(nlohmann::json::accept(out));
}

TEST(JsonWriter, TopLevelArrayOfScalars)
{
    std::string out;
    JsonWriter w(out);
    w.begin_array().boolean(false).null().string("x").number(2.5).end_array();
    EXPECT_EQ(out, R"([false,null,"x",2.5])");
}

TEST(JsonWriter, EmptyContainers)
{
    std::string a, b;
    JsonWriter(a).begin_object().end_object();
    JsonWriter(b).begin_array().end_array();
    EXPECT_EQ(a, "{}");
    EXPECT_EQ(b, "[]");
}

TEST(JsonWriter, KeysAreEscapedToo)
{
    std::string out;
    JsonWriter w(out);
    w.begin_object().field("k\"\n\x80", "v").end_object();
    EXPECT_EQ(out, "{\"k\\\"\\n" + FFFD + "\":\"v\"}");
}

TEST(JsonWriter, FieldShorthandsPickTheRightType)
{
    std::string out;
    JsonWriter w(out);
    const char* c_string = "c";
    w.begin_object()
        .field("s", std::string_view("sv"))
        .field("c", c_string)
        .field("i", 7)
        .field("l", std::int64_t{-8})
        .field("b", false)
        .end_object();
    EXPECT_EQ(out, R"({"s":"sv","c":"c","i":7,"l":-8,"b":false})");
}

TEST(JsonWriter, RawValuesTakePartInCommas)
{
    std::string out;
    JsonWriter w(out);
    w.begin_object().key("x").raw(R"({"y":[1]})").key("z").raw("3").end_object();
    EXPECT_EQ(out, R"({"x":{"y":[1]},"z":3})");
    std::string arr;
    JsonWriter(arr).begin_array().raw("1").raw("\"two\"").number(std::int64_t{3}).end_array();
    EXPECT_EQ(arr, R"([1,"two",3])");
}

TEST(JsonWriter, Int64Extremes)
{
    std::string out;
    JsonWriter w(out);
    w.begin_array()
        .number(std::numeric_limits<std::int64_t>::min())
        .number(std::numeric_limits<std::int64_t>::max())
        .number(std::int64_t{0})
        .number(std::int64_t{-1})
        .end_array();
    EXPECT_EQ(out, "[-9223372036854775808,9223372036854775807,0,-1]");
    auto parsed = nlohmann::json::parse(out);
    EXPECT_EQ(parsed[0].get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(parsed[1].get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
}

TEST(JsonWriter, DoublesRoundTrip)
{
    const double values[] = {0.5, -1.25, 0.1, 1e300, -1e-300, 123456789.125, std::numeric_limits<double>::max(),
        std::numeric_limits<double>::denorm_min()};
    for (double v : values) {
        std::string out;
        JsonWriter(out).number(v);
        auto parsed = nlohmann::json::parse(out);
        EXPECT_EQ(parsed.get<double>(), v) << out;
    }
}

TEST(JsonWriter, NonFiniteDoublesBecomeNull)
{
    std::string out;
    JsonWriter w(out);
    w.begin_array()
        .number(std::numeric_limits<double>::quiet_NaN())
        .number(std::numeric_limits<double>::infinity())
        .number(-std::numeric_limits<double>::infinity())
        .number(1.0)
        .end_array();
    EXPECT_EQ(out, "[null,null,null,1]");
    EXPECT_TRUE(nlohmann::json::accept(out));
}

TEST(JsonWriter, AppendsToWhatIsAlreadyThere)
{
    std::string out = "prefix:";
    JsonWriter(out).begin_object().field("a", 1).end_object();
    EXPECT_EQ(out, R"(prefix:{"a":1})");
}
