#pragma once
// The two kinds of error (STYLE.md, practice 8), defined in the public header <weft/errors.h> so a
// host catches the same types the library throws:
//  - InputError: something the user can cause (bad scene, unknown device, impossible value). Its
//    message is one sentence meant for the user; programs print it and exit non-zero.
//  - SolveError: a step the integrator could not take (an adaptive step that keeps diverging): the
//    scene is past what the method can do, not a bug. Its message says so in one sentence;
//    `weft run` treats it like a state turned non-finite (exit 3, the stats and recording so far).
//  - VK_CHECK / std::logic_error: programmer errors, reported with file and line.
#include "weft/errors.h"
