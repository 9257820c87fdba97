#pragma once
// SandboxSettings: how a simulated container behaves, read from the Pod's
// `sim.reconcile-lab.io/…` annotations (DESIGN.md "Sandbox annotations"), so a script says
// everything about its world.
// No Go counterpart (a real kubelet runs real images; these stand in for them).
// Simplified: one timeline per Pod; every container in it follows the same settings.
// Single-threaded; no time (durations are parsed, not waited).

#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/time.h"

namespace world {

// SandboxSettings is the parsed behaviour of one Pod's containers.
struct SandboxSettings {
  // pull_time: from sandbox creation to the image being pulled. Defaults to 2s.
  base::Duration pull_time = 2 * base::kSecond;
  // start_time: from pulled to the container running. Defaults to 1s.
  base::Duration start_time = 1 * base::kSecond;
  // ready_after: from running to Ready. Defaults to 2s.
  base::Duration ready_after = 2 * base::kSecond;
  // crash_after: the container exits this long after it starts. Defaults to never.
  std::optional<base::Duration> crash_after;
  // exit_code: the code it exits with. Defaults to 1.
  int exit_code = 1;
  // bad_image: some container's image tag is `bad` (ErrImagePull, ImagePullBackOff).
  bool bad_image = false;
};

// ParseSandboxAnnotations reads the annotations of `pod` over `defaults`. A value that does not
// parse (or is negative) keeps the default and adds a message to `warnings`, e.g.
// `sim.reconcile-lab.io/pull-time: "soon" is not a duration; using 2s`.
SandboxSettings ParseSandboxAnnotations(const api::Json& pod, const SandboxSettings& defaults,
                                        std::vector<std::string>* warnings);

// ImageTag returns the tag of an image reference ("nginx:1.27" -> "1.27", "nginx" -> "latest",
// "reg:5000/app@sha256:..." -> "").
std::string ImageTag(const std::string& image);

}  // namespace world
