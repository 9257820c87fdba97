#pragma once
// `rlab js-sweep`: the embedded JavaScript engine's differential sweep. Runs a fixed program
// over Math, Number formatting, JSON, sort and strings, then runaway loops, allocations and
// recursions under small budgets, and prints one line per result. scripts/determinism.sh runs it
// natively and under Node and requires the two outputs to be the same byte for byte.
// No Go counterpart (core/js/README.md).

namespace cli {

// RunJsSweep handles argv after "js-sweep". Exit status: 0 the sweep ran, 2 bad usage.
int RunJsSweep(int argc, char** argv);

}  // namespace cli
