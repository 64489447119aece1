#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# Every relative Markdown link in the files given resolves: the file or
# directory it names exists, and a #fragment into a .md file names one
# of its headings, slugged as GitHub slugs them (lower case, punctuation
# but '-' and '_' dropped, spaces to '-', a repeated heading -1, -2...).
# Links in code (`...`, indented blocks, fences) are not links. Prints
# one line per broken link, FILE: TARGET (why); exit 1 if any, else 0.
#   tests/lib/check-links.py FILE.md...
import os
import re
import sys


def body(path):
    """The file's lines outside fenced and indented code."""
    fence = False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
            continue
        if fence or line.startswith('    ') or line.startswith('\t'):
            continue
        yield line


def slugs(path):
    out, seen = set(), {}
    for line in body(path):
        m = re.match(r'#{1,6} +(.*?)[ #]*$', line)
        if not m:
            continue
        text = re.sub(r'\[([^]]*)\]\([^)]*\)', r'\1', m.group(1)).lower()
        slug = re.sub(r'[^\w\- ]', '', text).replace(' ', '-')
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else '%s-%d' % (slug, n))
    return out


def broken(path):
    text = re.sub(r'`[^`\n]*`', '', ''.join(body(path)))
    for m in re.finditer(r'\]\(([^)\s]+)\)', text):
        target = m.group(1)
        if re.match(r'[a-z][a-z0-9+.-]*:', target):
            continue
        name, _, frag = target.partition('#')
        where = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
        if not os.path.exists(where):
            yield '%s: %s (no such file)' % (path, target)
        elif frag and where.endswith('.md') and frag not in slugs(where):
            yield '%s: %s (no such heading)' % (path, target)


bad = [line for path in sys.argv[1:] for line in broken(path)]
for line in bad:
    print(line)
sys.exit(1 if bad else 0)
