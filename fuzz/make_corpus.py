#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from the repository's own inputs.

Usage: fuzz/make_corpus.py REPO_ROOT OUT_DIR
Creates OUT_DIR/<target>/ for manifest, patch, selector, script, console and module (existing files kept, so a
corpus grows across runs; seeds are named by content hash so re-running adds no duplicates):
  script:   every lab script (examples/*.lab, tests/scripts/*.lab, lessons/**/*.lab) whole
  console:  the same scripts, plus `apply -f - <<EOF` of every manifest seed
  manifest: every heredoc body in those scripts, ../shared/kuberay-samples/*.yaml, each also as JSON
  patch:    every `-p '...'` argument, paired with a few targets (first line target, then patch)
  selector: every -l / --selector / --field-selector argument
  module:   every learner module (examples/operators/*.js) whole, and each `operator load NAME -`
            heredoc in the scripts
plus the hand-written seeds under fuzz/seeds/<target>/.
"""
import glob
import hashlib
import json
import os
import re
import shlex
import sys


def lab_scripts(root):
    pats = ["examples/*.lab", "tests/scripts/*.lab", "lessons/**/*.lab"]
    out = []
    for p in pats:
        out += sorted(glob.glob(os.path.join(root, p), recursive=True))
    return out


def heredocs(text):
    """Bodies of <<WORD / <<'WORD' / <<-WORD heredocs (good enough for seeds)."""
    bodies = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.search(r"<<-?\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?", lines[i])
        i += 1
        if not m:
            continue
        body = []
        while i < len(lines) and lines[i].strip() != m.group(1):
            body.append(lines[i])
            i += 1
        i += 1
        bodies.append("\n".join(body) + "\n")
    return bodies


def words(line):
    try:
        return shlex.split(line, comments=True)
    except ValueError:
        return []


def flag_values(text, flags):
    vals = []
    for line in text.split("\n"):
        w = words(line)
        for i, word in enumerate(w):
            for f in flags:
                if word == f and i + 1 < len(w):
                    vals.append(w[i + 1])
                elif word.startswith(f + "="):
                    vals.append(word[len(f) + 1:])
    return vals


def write(out_dir, target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(out_dir, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    path = os.path.join(d, name)
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)


def main():
    root, out_dir = sys.argv[1], sys.argv[2]
    manifests, patches, selectors = [], [], []
    for path in lab_scripts(root):
        text = open(path, encoding="utf-8", errors="replace").read()
        write(out_dir, "script", text)
        write(out_dir, "console", text)
        manifests += heredocs(text)
        patches += flag_values(text, ["-p", "--patch"])
        selectors += flag_values(text, ["-l", "--selector", "--field-selector"])
    for path in sorted(glob.glob(os.path.join(root, "..", "shared", "kuberay-samples", "*.yaml"))):
        manifests.append(open(path, encoding="utf-8", errors="replace").read())

    targets = ["{}"]
    for m in manifests:
        write(out_dir, "manifest", m)
        try:
            import yaml  # optional: JSON twins of the YAML seeds
            docs = [d for d in yaml.safe_load_all(m) if d is not None]
            for d in docs:
                write(out_dir, "manifest", json.dumps(d, default=str))
                if len(targets) < 4 and isinstance(d, dict):
                    targets.append(json.dumps(d, separators=(",", ":"), default=str))
        except Exception:  # seeds only; malformed YAML is itself a fine seed
            pass
    for p in patches:
        for t in targets:
            write(out_dir, "patch", t + "\n" + p)
    for s in selectors:
        write(out_dir, "selector", s)

    seeds = os.path.join(root, "fuzz", "seeds")
    for path in sorted(glob.glob(os.path.join(root, "examples", "operators", "*.js"))):
        write(out_dir, "module", open(path, "rb").read())
    for path in lab_scripts(root):
        text = open(path, encoding="utf-8", errors="replace").read()
        if "operator load" in text or "operator reload" in text:
            for body in heredocs(text):
                if "export" in body:
                    write(out_dir, "module", body)
    for target in ["manifest", "patch", "selector", "script", "console", "module"]:
        os.makedirs(os.path.join(out_dir, target), exist_ok=True)
        for path in sorted(glob.glob(os.path.join(seeds, target, "*"))):
            write(out_dir, target, open(path, "rb").read())
    # The console runs whole scripts too: every script seed, and each manifest applied.
    for path in sorted(glob.glob(os.path.join(seeds, "script", "*"))):
        write(out_dir, "console", open(path, "rb").read())
    for m in manifests[:4]:  # each console input builds a cluster: keep the seed run short
        write(out_dir, "console", "apply -f - <<'EOF'\n" + m + ("" if m.endswith("\n") else "\n") +
              "EOF\nget all -o yaml\n")


if __name__ == "__main__":
    main()
