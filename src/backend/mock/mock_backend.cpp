#include "backend/mock/mock_backend.h"

#include "backend/mock/fixture_loader.h"
#include "backend/mock/mock_finder.h"
#include "backend/mock/mock_actuator.h"
#include "backend/mock/mock_input.h"
#include "backend/mock/mock_own_surfaces.h"
#include "backend/mock/mock_services.h"
#include "backend/mock/mock_tree_reader.h"
#include "backend/mock/mutation.h"
#include "core/install_paths.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

namespace nd_mock {

MockBackend::MockBackend()
    : m_state(std::make_unique<DesktopState>())
    , m_windows(std::make_unique<MockWindowSource>(*m_state))
    , m_trees(std::make_unique<MockTreeReader>(*m_state))
    , m_finder(std::make_unique<MockFinder>(*m_state))
    , m_capture(std::make_unique<MockCapture>(*m_state))
    , m_actuator(std::make_unique<MockActuator>(*m_state))
    , m_input(std::make_unique<MockInput>(*m_state))
    , m_watcher(std::make_unique<MockWatcher>(*m_state))
    , m_clipboard(std::make_unique<MockClipboard>(*m_state))
    , m_overlay(std::make_unique<MockOverlay>(*m_state))
    , m_own_surfaces(std::make_unique<MockOwnSurfaces>(*m_state))
{
}

MockBackend::~MockBackend() = default;

nd_core::Result<std::unique_ptr<MockBackend>> MockBackend::load(const std::string& fixture_dir)
{
    return adopt(TRY(load_fixture_dir(fixture_dir)));
}

std::unique_ptr<MockBackend> MockBackend::from(const FixtureSet& set)
{
    FixtureSet copy;
    copy.windows.reserve(set.windows.size());
    for (const auto& window : set.windows)
        copy.windows.push_back(copy_window(window));
    copy.files = set.files;
    return adopt(std::move(copy));
}

std::unique_ptr<MockBackend> MockBackend::adopt(FixtureSet set)
{
    std::unique_ptr<MockBackend> backend(new MockBackend());
    backend->m_state->windows = std::move(set.windows);
    backend->m_state->fixture_files = std::move(set.files);
    return backend;
}

std::string MockBackend::default_fixture_dir()
{
    if (const char* env = std::getenv("NISH_MOCK_FIXTURES"); env && *env)
        return env;
    // An installed driver uses its installed fixtures; one in a build tree the source's.
    const auto dir = nd_core::first_existing_dir({nd_core::installed_data_dir("fixtures/mock")});
    return dir.empty() ? std::string(NISH_SOURCE_DIR "/fixtures/mock") : dir;
}

nd_core::WindowSource* MockBackend::windows() { return m_windows.get(); }
nd_core::TreeReader* MockBackend::trees() { return m_trees.get(); }
nd_core::ElementFinder* MockBackend::finder() { return m_finder.get(); }
nd_core::Actuator* MockBackend::actuator() { return m_actuator.get(); }
nd_core::SyntheticInput* MockBackend::input() { return m_input.get(); }
nd_core::InputWatcher* MockBackend::watcher() { return m_watcher.get(); }
nd_core::Capture* MockBackend::capture() { return m_capture.get(); }
nd_core::Clipboard* MockBackend::clipboard() { return m_clipboard.get(); }
nd_core::Overlay* MockBackend::overlay() { return m_overlay.get(); }
nd_core::OwnSurfaces* MockBackend::own_surfaces() { return m_own_surfaces.get(); }

bool MockBackend::set_hung(std::int64_t window_id, bool hung)
{
    std::lock_guard lock(m_state->mutex);
    MockWindow* window = m_state->find_window(window_id);
    if (!window)
        return false;
    window->hung = hung;
    return true;
}

bool MockBackend::set_answer_time(std::int64_t window_id, std::chrono::milliseconds time)
{
    std::lock_guard lock(m_state->mutex);
    MockWindow* window = m_state->find_window(window_id);
    if (!window)
        return false;
    window->answer_time = time;
    return true;
}

bool MockBackend::close_window(std::int64_t window_id)
{
    std::lock_guard lock(m_state->mutex);
    auto& windows = m_state->windows;
    auto it = std::find_if(windows.begin(), windows.end(),
                           [&](const MockWindow& w) { return w.info.window_id == window_id; });
    if (it == windows.end())
        return false;
    windows.erase(it);
    return true;
}

bool MockBackend::raise(std::int64_t window_id)
{
    std::lock_guard lock(m_state->mutex);
    return raise_in_stack(*m_state, window_id);
}

nd_core::Result<void> MockBackend::add_app(const nlohmann::json& fixture_document)
{
    std::lock_guard lock(m_state->mutex);
    // Check ids against the desktop, then put the new windows on top, as a new app's windows open.
    std::vector<MockWindow>& existing = m_state->windows;
    auto before = existing.size();
    TRY_VOID(load_fixture_document(fixture_document, "add_app", existing));
    std::rotate(existing.begin(), existing.begin() + static_cast<std::ptrdiff_t>(before), existing.end());
    return {};
}

nd_core::Result<void> MockBackend::mutate(std::int64_t window_id, const std::string& key,
                                          const nlohmann::json& patch)
{
    std::lock_guard lock(m_state->mutex);
    MockWindow* window = m_state->find_window(window_id);
    if (!window)
        return nd_core::make_error(nd_core::ErrorCode::window_target_not_found,
                                   "window " + std::to_string(window_id) + " is not on the mock desktop");
    Node* node = find_node(*window->root, key);
    if (!node)
        return nd_core::make_error(nd_core::ErrorCode::element_not_found,
                                   "element " + key.substr(0, 64) + " is not in window " + std::to_string(window_id));
    return apply_patch(*window, *node, patch);
}

std::optional<std::string> MockBackend::secret(std::int64_t window_id, const std::string& key) const
{
    std::lock_guard lock(m_state->mutex);
    MockWindow* window = m_state->find_window(window_id);
    Node* node = window ? find_node(*window->root, key) : nullptr;
    if (!node || !node->secure())
        return std::nullopt;
    return node->secret;
}

void MockBackend::inject_person_input(nd_core::PersonInput input)
{
    std::lock_guard lock(m_state->mutex);
    m_state->person_input.push_back(input);
}

void MockBackend::set_person_pointer(nd_core::Point p)
{
    std::lock_guard lock(m_state->mutex);
    m_state->pointer = p;
}

std::vector<SyntheticEvent> MockBackend::synthetic_log() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->synthetic_log;
}

std::vector<SemanticEvent> MockBackend::semantic_log() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->semantic_log;
}

std::size_t MockBackend::chars_typed() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->chars_typed;
}

void MockBackend::clear_logs()
{
    std::lock_guard lock(m_state->mutex);
    m_state->synthetic_log.clear();
    m_state->semantic_log.clear();
    m_state->chars_typed = 0;
}

std::string MockBackend::clipboard_text() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->clipboard;
}

void MockBackend::set_clipboard_text(std::string text)
{
    std::lock_guard lock(m_state->mutex);
    m_state->clipboard = std::move(text);
    m_state->clipboard_ours = false;
}

bool MockBackend::indicator_shown() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->indicator_shown && !m_state->indicator_destroyed;
}

bool MockBackend::indicator_paused() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->indicator_paused;
}

void MockBackend::fail_indicator(bool fail)
{
    std::lock_guard lock(m_state->mutex);
    m_state->indicator_fails = fail;
}

bool MockBackend::click_continue() { return m_overlay->click_continue(); }

void MockBackend::destroy_indicator()
{
    std::lock_guard lock(m_state->mutex);
    m_state->indicator_destroyed = true;
}

void MockBackend::place_own_surface(std::string kind, nd_core::Frame frame)
{
    std::lock_guard lock(m_state->mutex);
    auto& surfaces = m_state->own_surfaces;
    surfaces.insert(surfaces.begin(), nd_core::OwnSurface{std::move(kind), frame});
    if (m_state->focused_surface)
        ++*m_state->focused_surface;
}

bool MockBackend::focus_own_surface(std::string_view kind)
{
    std::lock_guard lock(m_state->mutex);
    for (std::size_t i = 0; i < m_state->own_surfaces.size(); ++i)
        if (m_state->own_surfaces[i].kind == kind) {
            m_state->focused_surface = i;
            return true;
        }
    return false;
}

void MockBackend::clear_own_surfaces()
{
    std::lock_guard lock(m_state->mutex);
    m_state->own_surfaces.clear();
    m_state->focused_surface.reset();
}

void MockBackend::fail_own_surfaces(bool fail)
{
    std::lock_guard lock(m_state->mutex);
    m_state->own_surfaces_fail = fail;
}

std::vector<std::string> MockBackend::fixture_files() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->fixture_files;
}

} // namespace nd_mock
