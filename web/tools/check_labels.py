#!/usr/bin/env python3
"""Finds page labels written in English only: a string literal handed straight to a Dear ImGui
widget (Button, Text, MenuItem, SetTooltip, ...) or to a draw list's AddText in web/src/*.cc,
not wrapped in Tr("English", "中文"), whose Latin words are not all in the glossary of terms the
Chinese page keeps in English (tests/browser/zh_glossary.json). The browser test's text probe
checks what one frame draws; this covers the strings no test frame happens to draw.

Usage: check_labels.py WEB_SRC_DIR GLOSSARY.json   (exit 1 and a list when any is found)
A literal that is data (a command word, a key name) carries `// data` at the end of its line.
"""
import json
import os
import re
import sys

CALLS = re.compile(
    r"(?:ImGui::(?:Button|SmallButton|Text|TextDisabled|TextColored|TextWrapped|TextUnformatted|"
    r"SetTooltip|MenuItem|BeginMenu|Checkbox|RadioButton|Selectable|CollapsingHeader|BeginCombo|"
    r"InputTextWithHint|SliderFloat|SliderInt|BeginTabItem|LabelText|BulletText)|AddText)\s*\(")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def first_literal(text, start):
    """The first string literal of the call starting at `start`, unless a Tr(/L( comes first."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return None
        elif c == '"':
            m = LITERAL.match(text, i)
            return m.group(1) if m else None
        elif text.startswith("Tr(", i) or text.startswith("L(", i):
            return None
        i += 1
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, glossary_path = sys.argv[1:]
    with open(glossary_path, encoding="utf-8") as f:
        terms = sorted(json.load(f)["terms"], key=len, reverse=True)
    glossary = re.compile(r"(?<![A-Za-z])(" + "|".join(re.escape(t) for t in terms) + r")(?![A-Za-z])")
    found = []
    for name in sorted(os.listdir(src)):
        if not name.endswith(".cc"):
            continue
        with open(os.path.join(src, name), encoding="utf-8") as f:
            text = f.read()
        for m in CALLS.finditer(text):
            literal = first_literal(text, m.end() - 1)
            if literal is None:
                continue
            line_no = text.count("\n", 0, m.start()) + 1
            line_end = text.find("\n", m.end())
            if text[m.start():line_end].rstrip().endswith("// data"):
                continue
            visible = literal.split("##")[0]
            visible = re.sub(r"%[-0-9.]*(?:ll|l|z)?[sdufgxc]", "", visible)
            visible = re.sub(r"\\[nt]|\\x[0-9A-Fa-f]{2}", " ", visible)
            if re.search(r"[\u3400-\u9fff]", visible):
                continue
            if re.search(r"[A-Za-z]{2,}", glossary.sub("", visible)):
                found.append("%s:%d: %s" % (name, line_no, literal))
    for f in found:
        print(f)
    if found:
        print("check_labels.py: %d label(s) in English only; wrap them in Tr(\"…\", \"…\")" % len(found))
        sys.exit(1)


if __name__ == "__main__":
    main()
