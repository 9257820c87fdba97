#!/usr/bin/env python3
"""Packs lessons/ for the browser and lists the Chinese characters the page can show.

Usage: pack_lessons.py LESSONS_DIR OUT_DIR CHARS_OUT [SOURCE ...]

Writes OUT_DIR/catalog.json ({"lessons": [{"id", "track", "title": {"en", "zh"}, "goal": {"en", "zh"}}]},
in index.json's order)
and one OUT_DIR/<id>.json per lesson ({"id", "files": {name: text}}: lesson.json and every file
beside it), so the page fetches a lesson in one request and only when it is opened.
CHARS_OUT receives every non-ASCII character of the lessons and of the SOURCE files (the UI's
Chinese labels): the CJK font is cut to exactly these glyphs.
"""
import json
import os
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    lessons_dir, out_dir, chars_out = sys.argv[1:4]
    sources = sys.argv[4:]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(lessons_dir, "index.json"), encoding="utf-8") as f:
        ids = json.load(f)["lessons"]
    chars = set()
    catalog = []
    for lesson_id in ids:
        folder = os.path.join(lessons_dir, lesson_id)
        files = {}
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    files[name] = f.read()
        lesson = json.loads(files["lesson.json"])
        catalog.append({"id": lesson_id, "track": lesson.get("track", ""), "title": lesson["title"],
                        "goal": lesson.get("goal", {})})
        for text in files.values():
            chars.update(c for c in text if ord(c) > 0x7E)
        with open(os.path.join(out_dir, lesson_id + ".json"), "w", encoding="utf-8") as f:
            json.dump({"id": lesson_id, "files": files}, f, ensure_ascii=False, separators=(",", ":"))
    with open(os.path.join(out_dir, "catalog.json"), "w", encoding="utf-8") as f:
        json.dump({"lessons": catalog}, f, ensure_ascii=False, separators=(",", ":"))
    for path in sources:
        with open(path, encoding="utf-8") as f:
            chars.update(c for c in f.read() if ord(c) > 0x7E)
    with open(chars_out, "w", encoding="utf-8") as f:
        f.write("".join(sorted(chars)))


if __name__ == "__main__":
    main()
