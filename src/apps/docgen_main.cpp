// nish-docgen: prints or writes the generated docs (docs/errors.md, docs/tools.md).

#include "driver/docs_gen.h"

#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    if (argc == 3 && std::string(argv[1]) == "--write") {
        const std::string dir = argv[2];
        std::ofstream(dir + "/errors.md") << nd_driver::errors_markdown();
        std::ofstream(dir + "/tools.md") << nd_driver::tools_markdown();
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
    std::cerr << "usage: nish-docgen --write DIR | errors | tools\n";
    return 2;
}
