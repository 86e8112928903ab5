#include "backend/linux/person_mark/person_mark.h"

#include <cstdlib>

namespace nd_linux {

// Test executables only (never a shipped program): the device a test drives as the person.
std::string marked_person_device()
{
    const char* name = std::getenv("NISH_TEST_PERSON_DEVICE");
    return name ? std::string(name) : std::string();
}

} // namespace nd_linux
