#pragma once

// One backend shared by the driver daemon's connections (docs/daemon.md). Each connection has its
// own engine (its session, consent, tokens and lease) over a view of the one backend, and:
// - every tool call on the display runs alone: calls() serializes them across connections, as
//   the backend's buses are one per process;
// - the takeover indicator is one per display: the first view to show it holds it until it hides
//   it, another view's show_indicator is refused as another driver's would be (its session stays
//   headless), and the person's Continue reaches the holder's engine only;
// - the clipboard is released only by the view that wrote it last, so one host's session ending
//   does not wipe what another's wrote.

#include "core/backend/backend.h"

#include <functional>
#include <memory>
#include <mutex>

namespace nd_driver {

class SharedDisplay {
public:
    explicit SharedDisplay(nd_core::Backend&);
    ~SharedDisplay();
    SharedDisplay(const SharedDisplay&) = delete;
    SharedDisplay& operator=(const SharedDisplay&) = delete;

    // A connection's view; it must not outlive this.
    std::unique_ptr<nd_core::Backend> view();
    // Held around every call that reaches the backend.
    std::mutex& calls() { return m_calls; }
    nd_core::Backend& backend() { return m_backend; }

private:
    class View;
    class ViewOverlay;
    class ViewClipboard;

    void on_continue();

    nd_core::Backend& m_backend;
    std::mutex m_calls;
    std::mutex m_owners; // guards the two owners below (a leaf: nothing is taken under it)
    const void* m_indicator_owner = nullptr; // a ViewOverlay
    const void* m_clipboard_owner = nullptr; // a ViewClipboard
    std::mutex m_continue; // held while a Continue runs and while a view's handler changes
};

} // namespace nd_driver
