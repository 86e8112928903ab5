#include "driver/docs_gen.h"

#include "core/errors.h"
#include "core/version.h"
#include "driver/arg_schema.h"
#include "driver/tool_registry.h"

namespace nd_driver {

namespace {

std::string_view class_name(ToolClass c)
{
    switch (c) {
    case ToolClass::read: return "read";
    case ToolClass::act: return "act";
    case ToolClass::session: return "session";
    case ToolClass::info: return "info";
    }
    return "read";
}

std::string cell(std::string_view text)
{
    std::string out;
    for (char c : text)
        out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
    return out;
}

} // namespace

std::string errors_markdown()
{
    std::string out = "# Error codes\n\n"
                      "Generated from `src/core/errors.def` by `nish-docgen`; do not edit by hand.\n\n"
                      "Every failed tool call is an MCP result with `isError: true` whose structuredContent is\n"
                      "`{\"ok\": false, \"error\": {code, message, disposition: {retry}, suggestion, ...}}` and whose "
                      "text is\n`<code>: <message> [retry: <disposition>] <suggestion>` (contract §2).\n\n"
                      "| code | retry | suggestion |\n|---|---|---|\n";
    for (const auto& row : nd_core::error_table())
        out += "| `" + std::string(row.name) + "` | " + std::string(nd_core::retry_name(row.retry)) + " | "
            + cell(row.suggestion) + " |\n";
    return out;
}

std::string tools_markdown()
{
    std::string out = "# Tools\n\nGenerated from the tool registry (`src/driver/tools/`) by `nish-docgen`; do not "
                      "edit by hand. Contract "
        + std::string(nd_core::CONTRACT_VERSION)
        + ".\n\nClasses: *read* tools work while a takeover is paused; *act* tools are refused then and accept "
          "`observe`; *session* and *info* tools need no session.\n\n"
          "| tool | class | arguments |\n|---|---|---|\n";
    for (const auto& def : all_tools()) {
        std::string args;
        for (const auto& a : def.args)
            args += (args.empty() ? "" : ", ") + std::string(a.name) + (a.required ? "" : "?");
        out += "| `" + std::string(def.name) + "` | " + std::string(class_name(def.cls)) + " | " + cell(args) + " |\n";
    }
    for (const auto& def : all_tools()) {
        out += "\n## " + std::string(def.name) + "\n\n" + std::string(def.description) + "\n\n";
        if (def.args.empty()) {
            out += "No arguments.\n";
            continue;
        }
        out += "| argument | type | required | description |\n|---|---|---|---|\n";
        auto schema = input_schema(def);
        for (const auto& a : def.args) {
            const auto& p = schema["properties"][std::string(a.name)];
            std::string type = p["type"].get<std::string>();
            if (p.contains("enum")) {
                std::string values;
                for (const auto& v : p["enum"])
                    values += (values.empty() ? "" : " \\| ") + v.get<std::string>();
                type += " (" + values + ")";
            }
            out += "| `" + std::string(a.name) + "` | " + type + " | " + (a.required ? "yes" : "no") + " | "
                + cell(a.description) + " |\n";
        }
    }
    return out;
}

} // namespace nd_driver
