#!/usr/bin/env python3
"""fit-update.py FIT.json CONSTANTS.def DOC.md... — writes the values of
`clusterfit validate refit --intervals --format json` into the CF_CONSTANT
rows of constants.def and the value cells of the docs' constant tables
(`make fit-update`). Only the value changes; units, sources and comments
stay as written. Exit 1 when a constant is missing."""
import json
import re
import sys


def fmt(v):
    """The shortest decimal that reads back as v at the fit's grid."""
    s = repr(round(v, 10))
    if "e" in s:
        return "%ge%d" % (round(v / 10 ** int(f"{v:e}".split("e")[1]), 6), int(f"{v:e}".split("e")[1]))
    return s


def main():
    fit = json.load(open(sys.argv[1]))
    path = sys.argv[2]
    text = open(path).read()
    for c in fit["constants"]:
        pat = re.compile(r"(CF_CONSTANT\(" + re.escape(c["name"]) + r",\s*)([^,]+)(,)")
        if not pat.search(text):
            sys.exit("fit-update: %s: no CF_CONSTANT(%s, ...)" % (path, c["name"]))
        if c["differs"]:
            text = pat.sub(lambda m: m.group(1) + fmt(c["value"]) + m.group(3), text, count=1)
            print("%s: %s -> %s" % (c["name"], c["shipped"], fmt(c["value"])))
    open(path, "w").write(text)
    for doc in sys.argv[3:]:
        t = open(doc).read()
        for c in fit["constants"]:
            row = re.compile(r"^(\| `" + re.escape(c["name"]) + r"` \| )([^|]+)( \|)", re.M)
            if c["differs"]:
                t = row.sub(lambda m: m.group(1) + fmt(c["value"]) + m.group(3), t)
        open(doc, "w").write(t)


main()
