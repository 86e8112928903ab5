// Linked into the Linux tests (tests/CMakeLists.txt): the programs ignore SIGPIPE in their mains
// (nish_driver_main.cpp, shuttle_main.cpp), and a test process that stands in for them must too.
// libxcb writes to the X server with writev, so a test that stops its own X server under a live
// connection (X11OverlayServerLoss) died of SIGPIPE when the next write came before the read that
// sees the loss. The tiers that run anywhere keep the default, so a relay that must survive a
// process that does not ignore SIGPIPE (service_relay.cpp) is still tested as such.

#include <csignal>

namespace {

[[maybe_unused]] const bool sigpipe_ignored = [] { return std::signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();

} // namespace
