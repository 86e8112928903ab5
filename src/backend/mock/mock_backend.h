#pragma once

// The mock backend: a deterministic scripted desktop loaded from fixture files (docs/mock.md).
// Shipped code, used by the contract tests and by `nish-driver --backend mock`. It owns the
// desktop state and the small parts the engine borrows; the public hooks below let a test play the
// person and the apps (hang an app, close a window, change a subtree, move the pointer, press a
// key). Every part and hook is thread-safe: one mutex guards the whole desktop.

#include "backend/mock/desktop_state.h"
#include "core/backend/backend.h"
#include "core/result.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nd_mock {

struct FixtureSet;
class MockActuator;
class MockCapture;
class MockClipboard;
class MockInput;
class MockOverlay;
class MockOwnSurfaces;
class MockTreeReader;
class MockFinder;
class MockWatcher;
class MockWindowSource;

class MockBackend final : public nd_core::Backend {
public:
    // Loads every *.json of `fixture_dir` in name order. A bad fixture gives an Error naming the
    // file and the problem (invalid_arguments; internal_error when the directory is unreadable).
    static nd_core::Result<std::unique_ptr<MockBackend>> load(const std::string& fixture_dir);
    // A desktop of its own made from fixtures loaded before (load_fixture_dir), copied: many
    // fresh desktops from one load (the fuzz targets make one per input).
    static std::unique_ptr<MockBackend> from(const FixtureSet&);
    // $NISH_MOCK_FIXTURES when set, else the source tree's fixtures/mock.
    static std::string default_fixture_dir();

    ~MockBackend() override;

    std::string name() const override { return "mock"; }
    std::string session_type() const override { return "mock"; }
    nd_core::WindowSource* windows() override;
    nd_core::TreeReader* trees() override;
    nd_core::ElementFinder* finder() override;
    nd_core::Actuator* actuator() override;
    nd_core::SyntheticInput* input() override;
    nd_core::InputWatcher* watcher() override;
    nd_core::Capture* capture() override;
    nd_core::Clipboard* clipboard() override;
    nd_core::Overlay* overlay() override;
    nd_core::OwnSurfaces* own_surfaces() override;
    nd_core::RegistryReport registry() override;

    // Test hooks. Those returning bool return false when no window has the id.
    bool set_hung(std::int64_t window_id, bool hung); // reads and acts then fail with app_not_responding
    // The app answers reads after `time`; longer than the engine's read deadline gives timed_out.
    bool set_answer_time(std::int64_t window_id, std::chrono::milliseconds time);
    bool close_window(std::int64_t window_id);
    bool raise(std::int64_t window_id); // as if the person clicked the window: topmost and active
    // Adds an app's windows from a fixture document (same syntax as a file), on top of the stack.
    nd_core::Result<void> add_app(const nlohmann::json& fixture_document);
    // Changes an element as the app would (mutation.h lists the patch fields).
    nd_core::Result<void> mutate(std::int64_t window_id, const std::string& key, const nlohmann::json& patch);
    // The secret a secure field holds (what the person typed), for tests that check it never leaks.
    std::optional<std::string> secret(std::int64_t window_id, const std::string& key) const;

    void inject_person_input(nd_core::PersonInput);
    void set_person_pointer(nd_core::Point); // pointer_position() returns it from now on

    std::vector<SyntheticEvent> synthetic_log() const;
    std::vector<SemanticEvent> semantic_log() const;
    std::size_t chars_typed() const; // type_char events since clear_logs, beyond what the log keeps
    void clear_logs();

    std::string clipboard_text() const;
    void set_clipboard_text(std::string); // as if another app copied

    bool indicator_shown() const; // shown and not destroyed
    bool indicator_paused() const;
    void fail_indicator(bool fail); // show_indicator fails while set
    void destroy_indicator();       // another client destroyed it: indicator_alive() is false
    // The person clicks the paused indicator's Continue (false when no paused indicator is shown).
    bool click_continue();

    // nish-driver's own surfaces (docs/mock.md): a rectangle above every window that input must not
    // reach, and the keyboard focus on one. focus_own_surface is false when no surface has the kind.
    void place_own_surface(std::string kind, nd_core::Frame);
    bool focus_own_surface(std::string_view kind);
    void clear_own_surfaces();
    void fail_own_surfaces(bool fail); // at() and focused() fail with timed_out while set

    std::vector<std::string> fixture_files() const;

private:
    MockBackend();
    static std::unique_ptr<MockBackend> adopt(FixtureSet); // the one step load and from share

    std::unique_ptr<DesktopState> m_state;
    std::unique_ptr<MockWindowSource> m_windows;
    std::unique_ptr<MockTreeReader> m_trees;
    std::unique_ptr<MockFinder> m_finder;
    std::unique_ptr<MockCapture> m_capture;
    std::unique_ptr<MockActuator> m_actuator;
    std::unique_ptr<MockInput> m_input;
    std::unique_ptr<MockWatcher> m_watcher;
    std::unique_ptr<MockClipboard> m_clipboard;
    std::unique_ptr<MockOverlay> m_overlay;
    std::unique_ptr<MockOwnSurfaces> m_own_surfaces;
};

} // namespace nd_mock
