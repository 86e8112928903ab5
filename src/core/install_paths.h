#pragma once

// Where the programs find the files they ship with (docs/install.md): the script runtime and the
// mock desktop's fixtures. Run from a build tree they use the build's and the source's copies; once
// installed (cmake --install, the Debian package) they use the data directory beside their
// binary's directory: <prefix>/bin/shuttle finds <prefix>/share/nish/.

#include <string>
#include <string_view>

namespace nd_core {

// The directory of the running program's executable; empty when it cannot be told.
std::string program_directory();

// <program directory>/<bindir to datadir>/nish/<sub>, the installed data of this build's layout
// (GNUInstallDirs: ../share/nish from bin/); empty when the program directory is unknown, so that
// it never names a directory of the root instead.
std::string installed_data_dir(std::string_view sub = {});

// The first of `candidates` that names an existing directory; empty when none does.
std::string first_existing_dir(std::initializer_list<std::string_view> candidates);

} // namespace nd_core
