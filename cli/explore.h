#pragma once
// `rlab explore SCRIPT [--bound K] [--max-runs N] [--seed N] [--lag D] [--page URL] [--out FILE]`:
// the race explorer (core/explore/explorer.h) over a scenario. Prints runs explored, choice
// points seen, the first violation, its replay script and share URL, and the wall time (the
// clock lives here, in the CLI, never in core/).
// No Go counterpart.

namespace cli {

// RunExplore handles argv after the word "explore". Exit status: 0 no invariant broken within
// the bound, 1 a violation was found (the replay script is printed, and written to --out), 2 bad
// usage, an unreadable script or a scenario the explorer cannot use.
int RunExplore(int argc, char** argv);

}  // namespace cli
