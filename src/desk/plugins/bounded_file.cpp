#include "desk/plugins/bounded_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace nd_desk {

nd_core::Result<std::string> read_bounded_file(const std::string& path, std::size_t cap)
{
    auto fail = [](std::string why) { return nd_core::make_error(nd_core::ErrorCode::invalid_arguments, std::move(why)); };
    auto too_large = [&](std::size_t size) { return fail("is " + std::to_string(size) + " bytes, more than " + std::to_string(cap)); };
    // stat first: opening a FIFO or a device to read it could block or never end.
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        return fail(std::string("cannot be read: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail("is not a regular file");
    if (static_cast<std::size_t>(st.st_size) > cap)
        return too_large(static_cast<std::size_t>(st.st_size));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(std::string("cannot be read: ") + std::strerror(errno));
    std::string text(cap + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    // It may have grown since the stat.
    if (text.size() > cap)
        return too_large(text.size());
    return text;
}

} // namespace nd_desk
