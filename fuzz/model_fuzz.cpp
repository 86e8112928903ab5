// libFuzzer target for the model answers (docs/model-tools.md, docs/fuzzing.md): what an endpoint
// sends back is outside input. The input is read as a chat completion body, and its content (or the
// raw input) as a grounding reply and as the answers to a yes/no and a choice question; a decide
// call's questions and a ground call's area are read from it as JSON too. Each gives a value or an
// error with a message, never a crash; a point read is inside 0..1000 and maps into its area.

#include "desk/models/decide.h"
#include "desk/models/ground.h"
#include "desk/models/model_client.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using nd_fuzz::require;
    const std::string input(nd_fuzz::text_of(data, size));
    auto answer = nd_desk::read_chat_answer("fuzz-model", input);
    if (!answer)
        require(!answer.error().message.empty());
    nd_desk::ChatAnswer chat = answer ? *answer : nd_desk::ChatAnswer{};
    if (!answer)
        chat.content = input;

    if (auto point = nd_desk::read_point(chat.content)) {
        require(point->x >= 0 && point->x <= 1000 && point->y >= 0 && point->y <= 1000);
        const nd_desk::GroundArea area{10, 20, 1920, 1080};
        const auto [x, y] = nd_desk::desk_point(*point, area);
        require(x >= 10 && x < 10 + 1920 && y >= 20 && y < 20 + 1080);
    }

    nd_desk::DecideQuestion yes_no{.key = "done", .yes_no = true, .instructions = "Is it done?"};
    nd_desk::DecideQuestion choice{.key = "pick", .yes_no = false, .instructions = "Which?", .choices = {"red", "green", "blue"}};
    if (auto decisions = nd_desk::read_decisions({yes_no, choice}, chat))
        require(decisions->is_object());

    const auto json = nlohmann::json::parse(input, nullptr, false);
    if (!json.is_discarded()) {
        if (auto questions = nd_desk::read_questions(json))
            require(questions->size() <= nd_desk::MAX_QUESTIONS);
        if (auto area = nd_desk::read_area(json)) {
            require(area->width > 0 && area->height > 0);
            (void)nd_desk::desk_point({1000, 1000}, *area); // no overflow at the far corner
        }
        (void)nd_desk::state_parts(json);
    }
    return 0;
}
