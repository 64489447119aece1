#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# Validate gupstat's JSON output against its schema in docs/schemas/
# (draft 2020-12, with Debian's python3-jsonschema: run it with Debian's
# /usr/bin/python3, which has it, not a python3 of some other PATH).
# Every error is one line, FILE[:LINE]: what, at which member; the last
# line says how many documents were valid. Exit 0 when all were, 1 when
# one was not, 2 when it could not check (no jsonschema, a bad schema,
# a file that is not JSON is counted as invalid, not 2).
#   tests/lib/check-schema.py SCHEMA FILE...            one document a file
#   tests/lib/check-schema.py --ndjson SCHEMA FILE...   one a line (- is stdin)
import json
import sys

try:
    import jsonschema
except ImportError:
    print("check-schema: no jsonschema module in %s (Debian: python3-jsonschema; make deps)"
          % sys.executable, file=sys.stderr)
    sys.exit(2)


def documents(path, ndjson):
    """(where, text) for each document in path."""
    f = sys.stdin if path == "-" else open(path, encoding="utf-8")
    with f:
        if not ndjson:
            yield path, f.read()
            return
        for n, line in enumerate(f, 1):
            if line.strip():
                yield "%s:%d" % (path, n), line


def where(err):
    return "/" + "/".join(str(p) for p in err.absolute_path)


def main(argv):
    ndjson = bool(argv) and argv[0] == "--ndjson"
    if ndjson:
        argv = argv[1:]
    if len(argv) < 2:
        print("usage: check-schema.py [--ndjson] SCHEMA FILE...", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print("check-schema: %s: %s" % (argv[0], str(e).splitlines()[0]), file=sys.stderr)
        return 2
    validator = cls(schema)
    good = total = 0
    for path in argv[1:]:
        try:
            for at, text in documents(path, ndjson):
                total += 1
                try:
                    doc = json.loads(text)
                except ValueError as e:
                    print("%s: not JSON: %s" % (at, e))
                    continue
                errs = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
                for e in errs:
                    print("%s: %s (at %s)" % (at, e.message, where(e)))
                good += not errs
        except (OSError, UnicodeDecodeError) as e:
            total += 1
            print("%s: %s" % (path, e))
    print("%d of %d documents valid against %s" % (good, total, argv[0]))
    return 0 if total and good == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
