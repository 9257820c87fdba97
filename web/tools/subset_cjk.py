#!/usr/bin/env python3
"""Cuts Noto Sans CJK SC (Debian's fonts-noto-cjk) to the characters in CHARS_FILE.

Usage: subset_cjk.py FONT.ttc CHARS_FILE OUT.otf

The page fetches OUT.otf only when it shows Chinese and merges it into the UI font, so the
English page never pays for it. Index 2 of the collection is the Simplified Chinese face.
"""
import subprocess
import sys

SC_FACE = 2


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    font, chars, out = sys.argv[1:]
    # Charstrings without subroutines are what stb_truetype (Dear ImGui's rasteriser) reads best.
    subprocess.run(["pyftsubset", font, "--font-number=%d" % SC_FACE, "--text-file=" + chars,
                    "--output-file=" + out, "--no-hinting", "--desubroutinize",
                    "--layout-features=", "--name-IDs=1,2,3,4,6"],
                   check=True, stderr=subprocess.PIPE)


if __name__ == "__main__":
    main()
