// libFuzzer target for config.toml (docs/config.md, docs/fuzzing.md): any text is parsed as the
// daemon parses its file. It gives a config or an invalid_arguments error naming config.toml, never
// a crash; a config's answers (the allowlist, the key variables) work on whatever it holds.

#include "desk/config.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using nd_fuzz::require;
    auto config = nd_desk::parse_config(nd_fuzz::text_of(data, size), "config.toml");
    if (!config) {
        require(config.error().code == nd_core::ErrorCode::invalid_arguments);
        require(config.error().message.starts_with("config.toml"));
        return 0;
    }
    (void)config->allows("gedit");
    (void)config->allows("");
    for (const auto& name : config->model_key_variables())
        require(!name.empty());
    (void)nd_desk::config_dir(*config);
    return 0;
}
