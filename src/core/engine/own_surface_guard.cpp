#include "core/engine/own_surface_guard.h"

namespace nd_core {

namespace {

std::string point_text(Point p) { return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")"; }

// The backend's error, kept (its retry disposition is the backend's), saying nothing was sent.
Error unanswered(Error e, std::string_view question)
{
    e.message = "could not tell whether " + std::string(question) +
                " is one of nish-driver's windows only the person may answer, so nothing was sent: " + e.message;
    return e;
}

} // namespace

std::string surface_words(std::string_view kind)
{
    if (kind == "consent_dialog")
        return "consent dialog";
    if (kind == "takeover_indicator")
        return "takeover indicator";
    if (kind == "continue_button")
        return "Continue button";
    if (kind == "confirm_dialog")
        return "confirm dialog";
    return std::string(kind);
}

Result<std::optional<OwnSurface>> own_surface_at(Backend& backend, Point p)
{
    auto* surfaces = backend.own_surfaces();
    if (!surfaces)
        return std::optional<OwnSurface>{};
    return surfaces->at(p);
}

Result<void> refuse_own_surface_at(Backend& backend, Point p, std::string_view what)
{
    auto found = own_surface_at(backend, p);
    if (!found)
        return unanswered(std::move(found).error(), std::string(what) + " " + point_text(p));
    if (!*found)
        return Ok{};
    const auto& kind = (*found)->kind;
    Error e(ErrorCode::reserved_for_person,
        std::string(what) + " " + point_text(p) + " is on nish-driver's " + surface_words(kind) + " (" + kind +
            "): only the person may answer it, so nothing was sent");
    e.effect = "refused";
    return e;
}

Result<void> refuse_own_focus(Backend& backend)
{
    auto* surfaces = backend.own_surfaces();
    if (!surfaces)
        return Ok{};
    auto found = surfaces->focused();
    if (!found)
        return unanswered(std::move(found).error(), "the window with the keyboard focus");
    if (!*found)
        return Ok{};
    const auto& kind = (*found)->kind;
    Error e(ErrorCode::reserved_for_person,
        "the keyboard focus is on nish-driver's " + surface_words(kind) + " (" + kind +
            "): only the person may answer it, so no key was sent");
    e.effect = "refused";
    return e;
}

} // namespace nd_core
