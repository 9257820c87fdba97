#!/usr/bin/env python3
"""Checks that includes point down the layer table, and that core/ uses no wall clock, threads or
unseeded randomness.

1. Every `#include "core/<layer>/..."` in core/** and web/** must be allowed by ALLOWED below (a
   layer may always include itself). The including file's layer is its first folder under core/
   (core/world/gc -> world; core/operators/kuberay -> kuberay, core/operators/inference ->
   inference); files in web/** are layer `web`; files directly under core/ (umbrella headers such
   as core/ctrl.h) count as `umbrella`. core/ never includes web/.
2. core/** must not use the banned APIs in BANNED (comments and string literals are ignored).
3. core/api/internal/ (the object representation: flat objects, interned keys and their tables,
   the JSON destructor, the YAML decoders) is included only from core/api/ itself. Everything
   else reads and writes fields through core/api's public headers (fields.h, object.h, ...).
   Checked in core/, web/, cli/, bench/, fuzz/ and tests/. Allowed besides core/api/
   (API_INTERNAL_ALLOWED): the unit tests of core/api (tests/api/), which test the representation
   itself, and fuzz/manifest.cc, which compares core/api's two internal YAML decoders.

Usage: scripts/check_layers.py [REPO_ROOT]   (exit 0 clean, 1 violations)
"""
import os
import re
import sys

CONTROLLER_RUNTIME = [
    "base", "sim", "api", "apiserver", "workqueue", "client", "informer", "cache", "event",
    "reconcile", "predicate", "handler", "source", "controller", "manager", "builder",
]

ALLOWED = {
    "base": [],
    "sim": ["base"],
    "api": ["base"],
    "apiserver": ["api", "sim", "base"],
    "workqueue": ["sim", "base"],
    "client": ["apiserver", "api", "base", "sim"],
    "informer": ["client", "api", "sim", "base"],
    "cache": ["informer", "client", "api", "sim", "base"],
    "event": ["api", "base"],
    "reconcile": ["api", "base"],
    "predicate": ["event", "api", "base"],
    "handler": ["event", "reconcile", "workqueue", "api", "base"],
    "source": ["cache", "informer", "handler", "predicate", "event", "workqueue", "reconcile", "api", "sim",
               "base", "client"],
    "controller": ["source", "reconcile", "workqueue", "client", "sim", "api", "base", "event",
                   "handler", "predicate", "cache", "informer"],
    "manager": ["cache", "client", "sim", "api", "base", "informer"],
    "builder": ["controller", "manager", "source", "handler", "predicate", "reconcile", "event",
                "cache", "client", "workqueue", "informer", "api", "sim", "base"],
    "world": ["client", "apiserver", "api", "sim", "base", "informer", "workqueue", "cache", "event", "handler",
              "predicate", "reconcile", "source", "controller", "manager", "builder"],
    # The operators: everything except world and lab.
    "kuberay": CONTROLLER_RUNTIME + ["inference", "umbrella"],
    "inference": CONTROLLER_RUNTIME + ["kuberay", "umbrella"],
    # Umbrella headers directly under core/ re-export the controller-runtime layers.
    "umbrella": CONTROLLER_RUNTIME,
    # kubectl's commands and printers: a client of the API server, below the composition root.
    "kubectl": ["client", "apiserver", "api", "sim", "base"],
    "lab": CONTROLLER_RUNTIME + ["kubectl", "world", "kuberay", "inference", "umbrella"],
    # The invariant checker observes the whole system from outside, above the composition root.
    "check": ["lab"] + CONTROLLER_RUNTIME + ["world", "kuberay", "inference", "umbrella"],
    # The race explorer runs lab scripts under steered schedules, above the composition root.
    "explore": ["lab", "check"] + CONTROLLER_RUNTIME + ["world", "kuberay", "inference", "umbrella"],
    # The embedded JavaScript engine: on base and sim only; only core/learner includes it.
    "js": ["sim", "base"],
    # Learners' controllers in JavaScript: the lab's operators (through its module seam) on the
    # engine. Nothing in core/ includes it; the CLI and the tests do.
    "learner": ["lab", "js"] + CONTROLLER_RUNTIME + ["umbrella"],
    # The page reads the simulation through lab; its engine build (web/src/engine_link.cc) also
    # registers learner's module-operator loader.
    "web": ["lab", "api", "base", "sim", "learner"],
}

BANNED = [
    (r"\b(?:system_clock|steady_clock|high_resolution_clock)\b", "wall clock (std::chrono::*_clock)"),
    (r"\brandom_device\b", "std::random_device"),
    (r"\bstd::\w+_distribution\b", "std::*_distribution"),
    (r"\bstd::(?:random_)?shuffle\b", "std::shuffle"),
    (r"\bstd::j?thread\b|\bstd::this_thread\b", "std::thread"),
    (r"\bstd::async\b", "std::async"),
    (r"(?<![\w.>:])time\s*\(\s*(?:NULL|nullptr|0)\s*\)", "time(NULL)"),
    (r"(?:\bstd::|(?<![\w.>:]))s?rand\s*\(", "rand()"),
]
BANNED = [(re.compile(p), name) for p, name in BANNED]

API_INTERNAL = "core/api/internal/"
# Paths (prefixes, relative to the repository) that may include core/api/internal/ headers.
API_INTERNAL_ALLOWED = ("core/api/", "tests/api/", "fuzz/manifest.cc")
API_INTERNAL_TOPS = ("core", "web", "cli", "bench", "fuzz", "tests")

SOURCE_EXT = (".h", ".hh", ".hpp", ".cc", ".cpp", ".cxx", ".inc", ".ipp")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def strip(text, keep_strings):
    """Blanks comments (and, unless keep_strings, string/char literals), keeping line breaks."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        two = text[i:i + 2]
        if two == "//":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif two == "/*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text[i + 1:i + 2] == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            lit = text[i:j]
            out.append(lit if keep_strings else re.sub(r"[^\n]", " ", lit))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            lit = text[i:j]
            out.append(lit if keep_strings else c + " " * max(0, len(lit) - 2) + (c if len(lit) > 1 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def layer_of_core_path(parts):
    """parts: path components after 'core/'. Returns the layer name."""
    if len(parts) == 1:
        return "umbrella"
    if parts[0] == "operators" and len(parts) >= 3:
        return parts[1]
    return parts[0]


def source_files(root, top):
    base = os.path.join(root, top)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith(SOURCE_EXT):
                yield os.path.join(dirpath, f)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    problems = []
    n_files = n_includes = 0
    for top in ("core", "web"):
        for path in source_files(root, top):
            rel = os.path.relpath(path, root)
            parts = rel.split(os.sep)
            me = "web" if top == "web" else layer_of_core_path(parts[1:])
            n_files += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                raw = f.read()
            if me not in ALLOWED:
                problems.append(f"{rel}: unknown layer '{me}' (add it to scripts/check_layers.py)")
                continue
            no_comments = strip(raw, keep_strings=True).split("\n")
            for lineno, line in enumerate(no_comments, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                target = m.group(2)
                tparts = target.split("/")
                if tparts[0] == "web" and top == "core":
                    problems.append(f"{rel}:{lineno}: core/ must never include web/ ({target})")
                    continue
                if tparts[0] != "core" or len(tparts) < 2:
                    continue
                n_includes += 1
                dep = layer_of_core_path(tparts[1:])
                if dep == me:
                    continue
                if dep not in ALLOWED:
                    problems.append(f"{rel}:{lineno}: includes {target} from unknown layer '{dep}'")
                elif dep not in ALLOWED[me]:
                    problems.append(f"{rel}:{lineno}: layer '{me}' may not include '{dep}' ({target})")
            if top != "core":
                continue
            code = strip(raw, keep_strings=False).split("\n")
            raw_lines = raw.split("\n")
            for lineno, line in enumerate(code, 1):
                for rx, name in BANNED:
                    if rx.search(line):
                        problems.append(f"{rel}:{lineno}: banned in core/: {name}: "
                                        f"{raw_lines[lineno - 1].strip()}")
    for top in API_INTERNAL_TOPS:
        for path in source_files(root, top):
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if rel.startswith(API_INTERNAL_ALLOWED):
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                no_comments = strip(f.read(), keep_strings=True).split("\n")
            for lineno, line in enumerate(no_comments, 1):
                m = INCLUDE_RE.match(line)
                if m and m.group(2).startswith(API_INTERNAL):
                    problems.append(f"{rel}:{lineno}: {m.group(2)} is private to core/api/ "
                                    f"(use core/api/fields.h and the other public headers)")
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} problem(s) in {n_files} files")
        return 1
    print(f"check_layers: OK ({n_files} files, {n_includes} core includes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
