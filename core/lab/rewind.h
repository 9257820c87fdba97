#pragma once
// Rewind: jump a session back to any earlier step, from parked checkpoints plus deterministic
// replay. A Simulation cannot be copied (its components' closures hold `this`), so a checkpoint is
// a whole lab::Lab that was replayed, from zero, to a position of the session and then parked.
// Rewinding takes the nearest parked checkpoint at or before the target, replays the rest, and
// hands that Lab over; the consumed checkpoint is rebuilt later by Work (idle time).
// No Go counterpart (FoundationDB and TigerBeetle replay a seed the same way; nothing forks).
//
// Steps. A session's steps are counted over its command log: a command that moves time by running
// scheduler events (`run`, `step`, `wait`) is as many steps as events it ran (a `run` that ran
// none is no step of its own: its clock move is folded into the step before); any other command
// is one step. Step s is the state after the longest prefix of the log worth at most s steps,
// plus s minus that prefix's steps events of the next command — so every scheduler event of a
// `run 5m` is a position one can return to.
// Simplified: a waiting `delete` is one step however many events it waited through; `-f FILE`
// paths are replayed relative to the working directory (the log keeps no base directory).
// Single-threaded; replay is the only source of new Labs, so building a checkpoint at step p costs
// p steps of replay. Work takes a step budget (not a time) so the core stays clock-free, and a
// rewind replays at most the budget of one command (budget.h) before it stops and parks what it
// replayed as a checkpoint.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/lab/lab.h"

namespace lab {

// Splittable is true for the commands whose events can be replayed one by one (run, step, wait).
bool Splittable(const LoggedCommand& cmd);
// CommandSteps is how many steps one logged command is worth (see the header comment).
int64_t CommandSteps(const LoggedCommand& cmd);
// TotalSteps is the step count of a whole log (the position of its end).
int64_t TotalSteps(const std::vector<LoggedCommand>& log);

// LogPosition is a point in a log: the first `command` commands ran in full, then `events`
// scheduler events of the next one (0 < events < its event count, or 0).
struct LogPosition {
  size_t command = 0;
  uint64_t events = 0;
  bool operator<=(const LogPosition& o) const {
    return command < o.command || (command == o.command && events <= o.events);
  }
};
// Locate maps step s (clamped to [0, TotalSteps]) to its position in log.
LogPosition Locate(const std::vector<LoggedCommand>& log, int64_t step);

// RewindOptions bounds the checkpoints.
struct RewindOptions {
  // interval is the distance in steps between checkpoints, so a rewind replays at most this many
  // steps from a parked checkpoint. Defaults to 250: in WebAssembly a step of replay costs ~40 µs
  // on an idle core (docs/performance.md), so 250 steps keep a rewind well under issue 7's 50 ms.
  int64_t interval = 250;
  // max_parked bounds the count: at most this many parked Labs (plus the one being built). The
  // newest max_parked multiples of interval are kept, so the last (max_parked - 1) × interval
  // steps are always within `interval` of a checkpoint. Defaults to 41 (10,000 steps).
  size_t max_parked = 41;
  // byte_budget bounds memory (0: no bound): the parked checkpoints' measured bytes (see
  // heap_in_use). Past it the oldest are dropped and not rebuilt, so the window shrinks before
  // the spacing grows: a session's newest steps are the ones learners go back to.
  uint64_t byte_budget = 0;
  // heap_in_use reports the allocator's bytes in use (the embedder's probe: mallinfo in the page;
  // the core reads no platform state). A checkpoint's size is what its replays added. Null: no
  // measurement, so byte_budget does not apply. Only which checkpoints exist depends on it, never
  // a simulation's state.
  std::function<uint64_t()> heap_in_use;
};

// RewindResult is what one rewind did (for the UI's status line and for tests).
struct RewindResult {
  std::unique_ptr<Lab> lab;       // the session at the target step (null: see error)
  int64_t from_step = 0;          // the checkpoint it started from (0: a fresh Lab)
  int64_t replayed_steps = 0;     // steps replayed after that
  // ok is false when the replay diverged from the log (a bug) or stopped at the budget; error
  // says which.
  bool ok = true;
  // stopped_at_budget: the replay needed more steps than one command may run (budget.h). lab is
  // null (the session stays as it was) and the replay so far is parked as a checkpoint, so the
  // same rewind again continues from it.
  bool stopped_at_budget = false;
  std::string error;
};

// Rewinder keeps the parked checkpoints of one session. options.simulation must be the options
// the session's Lab was made with (same seed). Not copyable.
class Rewinder {
 public:
  Rewinder(SimulationOptions simulation, RewindOptions options = {});
  Rewinder(const Rewinder&) = delete;
  Rewinder& operator=(const Rewinder&) = delete;

  // Rewind builds a Lab at `step` of `log` (the live session's command log), from the nearest
  // parked checkpoint at or before it, which is consumed. Checkpoints after `step` are dropped:
  // the caller's session continues from the returned Lab, whose own log is the new history (it
  // replays the same states at every step up to `step`, with partial commands as `step N`).
  RewindResult Rewind(const std::vector<LoggedCommand>& log, int64_t step);
  // Work destroys one retired Lab, or spends at most about `budget` steps of replay building the
  // newest missing checkpoint of `log`. Returns false when there is nothing left to do.
  bool Work(const std::vector<LoggedCommand>& log, int64_t budget);
  // Clear drops every checkpoint (the session was reset or switched to another history).
  void Clear();
  // Retire takes a Lab to destroy later, in Work: tearing a simulation down takes longer than
  // many replay steps, so a rewind never does it on the spot.
  void Retire(std::unique_ptr<Lab> lab);

  // parked_steps lists the parked checkpoints' steps, ascending.
  std::vector<int64_t> parked_steps() const;
  size_t max_parked() const { return options_.max_parked; }
  int64_t interval() const { return options_.interval; }
  // replayed is every step replayed so far (rewinds and checkpoint building).
  int64_t replayed() const { return replayed_; }
  // parked_bytes is the measured size of every parked checkpoint (0 without heap_in_use).
  uint64_t parked_bytes() const;
  // building is the step the checkpoint under construction is headed for (0: none).
  int64_t building() const { return builder_.has_value() ? builder_target_ : 0; }

 private:
  // Cursor is a Lab replayed to a point of the history: `step` steps, then `zeros` zero-step
  // commands (a `run` that ran no event). The point, unlike a LogPosition, names the same state in
  // the original log and in every log a replay wrote (which splits commands differently).
  struct Cursor {
    std::unique_ptr<Lab> lab;
    int64_t step = 0;
    int64_t zeros = 0;
    int64_t bytes = 0;  // measured by heap_in_use while it was built (0 without a probe)
  };
  Cursor Fresh() const;
  // Advance replays cursor toward target (a position of log) spending at most budget steps
  // (an atomic command may overrun it). Returns an error text when the replay diverged.
  std::optional<std::string> Advance(Cursor& c, const std::vector<LoggedCommand>& log,
                                     LogPosition target, int64_t budget);
  // Wanted lists the checkpoint steps to keep for a log of `total` steps, ascending.
  std::vector<int64_t> Wanted(int64_t total) const;
  void Park(Cursor c);
  // Measured runs fn and adds the heap it grew by to c.bytes (when there is a probe).
  template <typename Fn>
  auto Measured(Cursor& c, Fn fn);

  SimulationOptions simulation_;
  RewindOptions options_;
  std::vector<Cursor> parked_;     // ascending by step
  std::optional<Cursor> builder_;  // the checkpoint being built
  std::vector<std::unique_ptr<Lab>> retired_;  // destroyed one per Work call
  int64_t builder_target_ = 0;
  int64_t dropped_at_ = 0;         // the byte budget dropped this checkpoint: none at or below it
  int64_t replayed_ = 0;
  bool diverged_ = false;          // a replay diverged: stop building (a determinism bug)
};

}  // namespace lab
