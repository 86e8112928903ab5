// libFuzzer target for the plugin and service files of tools.d (docs/plugins.md, docs/services.md,
// docs/fuzzing.md): the input, cut at NUL bytes into up to 8 files, is read as the daemon reads the
// directory, each file checked against the ones before it. Every file ends up loaded or refused with
// a reason, never a crash; the set's listing and log lines are built from whatever it holds.

#include "desk/plugins/plugin_set.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using nd_fuzz::require;
    nd_desk::PluginSet set;
    set.dir = "tools.d";
    std::string_view rest = nd_fuzz::text_of(data, size);
    std::size_t files = 0;
    for (; files < 8 && (files == 0 || !rest.empty()); ++files) {
        const auto end = rest.find('\0');
        const std::string text(rest.substr(0, end));
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        nd_desk::add_plugin_file(set, "tools.d/" + std::to_string(files) + ".json", text);
    }
    require(set.loaded.size() + set.services.size() + set.refused.size() == files);
    for (const auto& refused : set.refused)
        require(!refused.reason.empty());
    for (const auto& service : set.services)
        for (const auto& tool : service.tools)
            require(tool.input_schema.is_object());
    (void)set.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)set.log_lines();
    return 0;
}
