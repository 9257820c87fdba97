#pragma once
// `rlab sweep [--seeds N] [--from S] [--steps M] [--out DIR] [--keep-going]`: random scenarios
// over seeds S..S+N-1 with the invariant checker (core/check) after every scheduler step; stops
// at the first violation and prints the seed, the violation and a lab script that replays it
// (also written to DIR/sweep-seed-S.lab).
// `rlab check SCRIPT|-`: runs a lab script (keep-going) with the checker attached, then the
// settled-state invariants; how a failing seed's script is replayed.
// No Go counterpart. The wall clock (seconds per seed) lives here, never in core/.

namespace cli {

// RunSweep handles argv after "sweep". Exit status: 0 every seed held every invariant,
// 1 a violation, 2 bad usage.
int RunSweep(int argc, char** argv);
// RunCheck handles argv after "check". Exit status: 0 no violation, 1 a violation, 2 bad usage
// or an unreadable script.
int RunCheck(int argc, char** argv);

}  // namespace cli
