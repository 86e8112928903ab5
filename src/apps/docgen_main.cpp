// nish-docgen: prints or writes the generated docs (docs/errors.md, docs/tools.md, docs/act-actions.md,
// docs/desk-verbs.md, docs/model-tools.md), and writes the script runtime's generated files (runtime/verbs.generated.mjs,
// runtime/desk.d.ts) with --write-runtime, and the MCP registry's server.json with --write-server-json.

#include "desk/desk_docs.h"
#include "desk/runtime_gen.h"
#include "driver/docs_gen.h"
#include "driver/manifest.h"

#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    if (argc == 3 && std::string(argv[1]) == "--write") {
        const std::string dir = argv[2];
        std::ofstream(dir + "/errors.md") << nd_driver::errors_markdown();
        std::ofstream(dir + "/tools.md") << nd_driver::tools_markdown();
        std::ofstream(dir + "/act-actions.md") << nd_driver::act_actions_markdown();
        std::ofstream(dir + "/desk-verbs.md") << nd_desk::desk_verbs_markdown();
        std::ofstream(dir + "/model-tools.md") << nd_desk::model_tools_markdown();
        return 0;
    }
    if (argc == 3 && std::string(argv[1]) == "--write-runtime") {
        const std::string dir = argv[2];
        std::ofstream(dir + "/verbs.generated.mjs") << nd_desk::runtime_verbs_module();
        std::ofstream(dir + "/desk.d.ts") << nd_desk::runtime_types();
        return 0;
    }
    if (argc == 3 && std::string(argv[1]) == "--write-server-json") {
        std::ofstream(argv[2]) << nd_driver::registry_server_json().dump(2) << "\n";
        return 0;
    }
    if (argc == 2 && std::string(argv[1]) == "errors") {
        std::cout << nd_driver::errors_markdown();
        return 0;
    }
    if (argc == 2 && std::string(argv[1]) == "tools") {
        std::cout << nd_driver::tools_markdown();
        return 0;
    }
    if (argc == 2 && std::string(argv[1]) == "desk") {
        std::cout << nd_desk::desk_verbs_markdown();
        return 0;
    }
    std::cerr << "usage: nish-docgen --write DIR | --write-runtime DIR | --write-server-json FILE | errors | tools | desk\n";
    return 2;
}
