#include "desk/mcp/mcp_front.h"

#include <iostream>

namespace nd_desk {

int run_mcp_front(const std::vector<std::string>&)
{
    std::cerr << "shuttle mcp: under construction\n";
    return 1;
}

} // namespace nd_desk
