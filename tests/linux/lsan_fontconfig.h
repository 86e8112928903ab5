#pragma once

// For a test executable that shows the consent dialog in its own process: fontconfig (under pango)
// keeps its caches for the life of the process and frees them only in FcFini, which nothing calls;
// LeakSanitizer (scripts/test --asan) would report them as leaks of the test. Only that library's
// allocations are suppressed. Include it in one file of the executable.

extern "C" const char* __lsan_default_suppressions() { return "leak:libfontconfig.so\n"; }
