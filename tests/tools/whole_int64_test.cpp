// Integers beyond int64 (JSON allows up to 2^64 - 1) are out of range for every integer argument
// of both programs, never wrapped: nd_mcp::whole_int64 reads a number exactly or not at all, and
// check_arguments refuses what it cannot read, under both policies (found by the generated
// bad-input test: 2^64 - 1 as a window_id was read as -1, and 2^63 - 1 through a double wrapped).

#include "mcp/tool_decl.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace {

using nlohmann::json;

TEST(WholeInt64, ReadsExactlyOrNotAtAll)
{
    constexpr auto max = std::numeric_limits<std::int64_t>::max();
    constexpr auto min = std::numeric_limits<std::int64_t>::min();
    EXPECT_EQ(nd_mcp::whole_int64(json(max)), max);
    EXPECT_EQ(nd_mcp::whole_int64(json(min)), min);
    EXPECT_EQ(nd_mcp::whole_int64(json(static_cast<std::uint64_t>(max))), max);
    EXPECT_EQ(nd_mcp::whole_int64(json::parse("9223372036854775807")), max);
    EXPECT_EQ(nd_mcp::whole_int64(json::parse("9223372036854775808")), std::nullopt);
    EXPECT_EQ(nd_mcp::whole_int64(json::parse("18446744073709551615")), std::nullopt);
    EXPECT_EQ(nd_mcp::whole_int64(json(3.0)), 3);
    EXPECT_EQ(nd_mcp::whole_int64(json(3.5)), std::nullopt);
    EXPECT_EQ(nd_mcp::whole_int64(json(1.8e19)), std::nullopt);
    EXPECT_EQ(nd_mcp::whole_int64(json("7")), std::nullopt);
    EXPECT_EQ(nd_mcp::whole_int64(json(nullptr)), std::nullopt);
}

TEST(WholeInt64, CheckArgumentsRefusesAnIntegerBeyondInt64UnderBothPolicies)
{
    for (const auto policy : {nd_mcp::ArgPolicy::drop, nd_mcp::ArgPolicy::refuse}) {
        nd_mcp::ToolDecl decl;
        decl.name = "t";
        decl.policy = policy;
        decl.args = {{.name = "n", .type = nd_mcp::ArgType::integer, .description = "n", .required = true}};
        for (const char* text : {"18446744073709551615", "9223372036854775808"}) {
            auto r = nd_mcp::check_arguments(decl, json{{"n", json::parse(text)}});
            ASSERT_FALSE(r) << text;
            EXPECT_NE(r.error().message.find("must be between"), std::string::npos) << r.error().message;
        }
        auto ok = nd_mcp::check_arguments(decl, json{{"n", json::parse("9223372036854775807")}});
        ASSERT_TRUE(ok);
        EXPECT_EQ((*ok)["n"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
    }
}

} // namespace
