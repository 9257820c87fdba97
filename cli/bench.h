#pragma once
// `rlab bench SCENARIO [N] [--seed N]`: runs one scale scenario (bench/scale_scenarios.h) and
// prints one JSON line of figures. The wall clock and the memory probe live here, in the CLI,
// never in core/; the same source is compiled natively and to WebAssembly for Node, so both
// platforms are measured with the same code.
// No Go counterpart.

namespace cli {

// RunBench handles argv after the word "bench". Exit status: 0 the scenario finished (every
// object ready, or the replay matched), 1 it did not, 2 bad usage.
int RunBench(int argc, char** argv);

}  // namespace cli
