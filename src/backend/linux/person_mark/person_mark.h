#pragma once

// The test mark: which input device, if any, counts as the person's although the X server says it
// is an XTEST device. A virtual X server (Xvfb) has no input device but XTEST ones that anything
// can drive, so without the mark no test could make a click that the consent dialog and the
// Continue button accept.
//
// Two definitions exist, and every program links exactly one (CMake: nish_person_mark()):
// person_mark_off.cpp, in nish-driver, shuttle and every other shipped program, marks nothing and
// reads no environment; person_mark_env.cpp, in the test executables only, marks the device named
// by NISH_TEST_PERSON_DEVICE. A program that links neither does not link at all.

#include <string>

namespace nd_linux {

// The name of the marked device (an XInput device name, e.g. "person XTEST pointer"); empty when
// none is marked, which is always so in shipped programs.
std::string marked_person_device();

} // namespace nd_linux
