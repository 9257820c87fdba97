#!/usr/bin/env python3
"""Keeps the front door honest (ctest: readme_structure, readme_rlab_examples).

  readme_check.py structure ROOT
      README.md and README.zh.md have the same headings (level by level, in order) and the same
      fenced code blocks, byte for byte; every relative link and image they name exists.
  readme_check.py examples ROOT RLAB
      every ```console block of README.md whose first line is `$ build/native/bin/rlab …` (with
      an optional heredoc) is run from ROOT with RLAB in place of build/native/bin/rlab, and what
      it prints on stdout must equal the lines after the command (stderr: the seed and trace hash).

The embed snippet (the ```html block) is loaded in the page by tests/browser/e2e_readme.js.
"""
import os
import re
import subprocess
import sys

RLAB_PATH = 'build/native/bin/rlab'


def parse(path):
    """Returns (headings, code blocks, link targets) of a Markdown file."""
    headings, blocks, links = [], [], []
    fence, info, body = None, '', []
    with open(path, encoding='utf-8') as f:
        for line in f.read().split('\n'):
            m = re.match(r'^(```+|~~~+)(.*)$', line)
            if fence is None and m:
                fence, info, body = m.group(1), m.group(2).strip(), []
                continue
            if fence is not None:
                if line.strip() == fence:
                    blocks.append((info, '\n'.join(body)))
                    fence = None
                else:
                    body.append(line)
                continue
            h = re.match(r'^(#{1,6}) +(.*)$', line)
            if h:
                headings.append((len(h.group(1)), h.group(2)))
            links += re.findall(r'\]\(([^)\s]+)\)', line)
    if fence is not None:
        raise SystemExit(f'{path}: a code block is never closed')
    return headings, blocks, links


def structure(root):
    failures = []
    en = parse(os.path.join(root, 'README.md'))
    zh = parse(os.path.join(root, 'README.zh.md'))
    levels_en = [lvl for lvl, _ in en[0]]
    levels_zh = [lvl for lvl, _ in zh[0]]
    if levels_en != levels_zh:
        failures.append('headings differ by level/order:\n  en: %s\n  zh: %s' % (
            [f'{lvl}:{t}' for lvl, t in en[0]], [f'{lvl}:{t}' for lvl, t in zh[0]]))
    if len(en[0]) < 5:
        failures.append('README.md has only %d headings' % len(en[0]))
    if len(en[1]) != len(zh[1]):
        failures.append('README.md has %d code blocks, README.zh.md %d' % (len(en[1]), len(zh[1])))
    for i, (a, b) in enumerate(zip(en[1], zh[1])):
        if a != b:
            failures.append('code block %d differs:\n--- en (%s)\n%s\n--- zh (%s)\n%s' % (
                i + 1, a[0], a[1], b[0], b[1]))
    for name, (_, _, links) in (('README.md', en), ('README.zh.md', zh)):
        for target in links:
            if re.match(r'^[a-z]+:', target) or target.startswith('#'):
                continue
            file = target.split('#')[0]
            if not os.path.exists(os.path.join(root, file)):
                failures.append(f'{name}: link to a missing file: {target}')
    if not any(t.endswith('README.zh.md') for t in en[2]):
        failures.append('README.md does not link README.zh.md')
    if not any(t.endswith('README.md') and 'zh' not in t for t in zh[2]):
        failures.append('README.zh.md does not link README.md')
    return failures


def examples(root, rlab):
    """Each example: (command text for bash, expected output)."""
    _, blocks, _ = parse(os.path.join(root, 'README.md'))
    found = []
    for info, body in blocks:
        lines = body.split('\n')
        if info != 'console' or not lines[0].startswith('$ ' + RLAB_PATH):
            continue
        command = [lines[0][2:]]
        rest = lines[1:]
        here = re.search(r"<<-?'?(\w+)'?\s*$", command[0])
        if here:
            end = rest.index(here.group(1))
            command += rest[:end + 1]
            rest = rest[end + 1:]
        found.append(('\n'.join(command), '\n'.join(rest)))
    failures = []
    if len(found) < 3:
        failures.append(f'README.md has {len(found)} runnable rlab examples, want at least 3')
    for command, want in found:
        script = command.replace(RLAB_PATH, rlab, 1)
        p = subprocess.run(['bash', '-c', script], cwd=root, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120)
        got = p.stdout.decode('utf-8').rstrip('\n')
        if got != want.rstrip('\n'):
            failures.append('`%s` printed:\n%s\n--- README.md shows:\n%s' % (
                command.split('\n')[0], got, want))
        else:
            print('ok   ', command.split('\n')[0], f'({len(want.splitlines())} lines)')
    return failures


def main(argv):
    if len(argv) >= 2 and argv[0] == 'structure':
        failures = structure(argv[1])
    elif len(argv) >= 3 and argv[0] == 'examples':
        failures = examples(argv[1], os.path.abspath(argv[2]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for f in failures:
        print('FAIL ', f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
