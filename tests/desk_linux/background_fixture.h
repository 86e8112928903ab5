#pragma once

// What the background-input tests share (docs/desk-background.md): the desk in one input mode, and
// what the person has on screen (the active window, the stacking order, the pointer), which no
// background act may change.

#include "desk_linux/desk_fixture.h"

namespace nd_test {

class DeskBackgroundFixture : public DeskLinuxFixture {
protected:
    using Mode = nd_desk::DeskConfig::InputMode;

    void with_mode(Mode mode)
    {
        nd_desk::DeskConfig config;
        config.input_mode = mode;
        use_config(std::move(config));
    }

    struct PersonView {
        std::int64_t active = 0;
        std::vector<std::int64_t> order;
        nd_core::Point pointer;
        bool operator==(const PersonView&) const = default;
    };
    PersonView person_view()
    {
        PersonView v;
        auto all = m_desk->all_windows();
        EXPECT_TRUE(all);
        for (const auto& w : all ? *all : std::vector<nd_core::WindowInfo>{}) {
            v.order.push_back(w.window_id);
            if (w.active)
                v.active = w.window_id;
        }
        auto lock = m_desk->lock_backend();
        auto at = m_backend->input()->pointer_position();
        EXPECT_TRUE(at);
        if (at)
            v.pointer = *at;
        return v;
    }

    // zenity's info window started and active in front: the person's window.
    nd_core::WindowInfo in_front()
    {
        auto front = start({"zenity", "--info", "--title", "In front", "--text", "the person's window"}, 3);
        EXPECT_TRUE(wait_until([&] { return person_view().active == front.window_id; }, 3s));
        return front;
    }
};

} // namespace nd_test
