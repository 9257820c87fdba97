#pragma once
// Why: the chain of causes of one trace record, told in plain words — "Pod X became Ready
// (kubelet status write) → owner handler mapped it to RayCluster default/demo → added to the
// queue → reconcile #7 by worker 0 → updated the status of RayCluster default/demo → returned
// RequeueAfter 2s". The `why` command prints it; the page's "why" pane draws the same lines.
// No Go counterpart: it reads DESIGN.md's trace, whose every record names its `cause`.
//
// The chain is followed back to a root a learner recognises, and no further:
//   - a learner's command (cause 0);
//   - a kubelet seeing its node change (a kubelet.pod record: a container started, became Ready,
//     exited), which the kubelet then writes to the Pod's status;
//   - a timer: a RequeueAfter or a rate-limited retry coming due (queue.add_after,
//     queue.add_rate_limited), or an informer's resync.
// Following a timer further would walk every earlier reconcile of the key; the root line names
// the reconcile that set it, which `why` explains in turn.
// For a reconcile (its queue.get, reconcile.start or reconcile.end) the chain goes on with what
// the reconcile did: its API writes, then what it returned and when the key comes back.
// Deterministic and bounded: a chain is never longer than the trace (causes point backwards), and
// at most kMaxWhyChainLines + kMaxWhyEffectLines lines are printed (the rest are counted).
// Single-threaded; reads the trace only.

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/time.h"
#include "core/sim/trace.h"

namespace lab {

// WhyLanguage is the language of the text: the lab's `--lang en|zh`, the page's language button.
enum class WhyLanguage { kEnglish, kChinese };
// ParseWhyLanguage reads "en" or "zh".
base::StatusOr<WhyLanguage> ParseWhyLanguage(const std::string& text);

constexpr size_t kMaxWhyChainLines = 40;
constexpr size_t kMaxWhyEffectLines = 12;

// WhyLine is one link of the chain, in plain words.
struct WhyLine {
  enum class Role {
    kRoot,    // where the chain starts
    kLink,    // a cause on the way to the record asked about (or that record)
    kElided,  // "… N more links …": a long chain's middle, left out
    kEffect,  // what a reconcile did after it started: writes, result, the next add
  };
  Role role = Role::kLink;
  int64_t seq = 0;  // the record the line tells (the last of the records it merges); 0 if elided
  base::SimTime t = 0;
  std::string text;
};

// WhyRoot names what the chain starts from.
enum class WhyRoot { kLearner, kKubelet, kTimer, kOther };

struct WhyChain {
  int64_t seq = 0;        // the record asked about
  std::string heading;    // one line: what the record is and where its chain starts
  WhyRoot root = WhyRoot::kOther;
  std::vector<WhyLine> lines;  // root first
};

// ExplainWhy explains record seq. REQUIRES: 1 <= seq <= trace.last_seq().
WhyChain ExplainWhy(const sim::Trace& trace, int64_t seq, WhyLanguage lang);

// ExplainWhySeq checks seq first: a kubectl-style error when the trace has no such record.
base::StatusOr<WhyChain> ExplainWhySeq(const sim::Trace& trace, int64_t seq, WhyLanguage lang);

// FindReconciles returns the seqs of key's reconcile.start records (controller "" = any
// controller), oldest first.
std::vector<int64_t> FindReconciles(const sim::Trace& trace, const std::string& key,
                                    const std::string& controller);

// FormatWhy renders a chain as the `why` command prints it: the heading, then one indented line
// per link with its seq and virtual time.
std::string FormatWhy(const WhyChain& chain);

}  // namespace lab
