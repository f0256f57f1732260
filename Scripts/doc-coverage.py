#!/usr/bin/env python3
"""Fails when a public symbol of a module has no doc comment of its own.

Reads the symbol graphs `swift symbolgraph-extract` wrote (run with -skip-inherited-docs, so a
member that only inherits its protocol's comment counts as undocumented) and lists each public
declaration in the package's sources that has no `///` comment. Symbols the compiler synthesizes
(a Codable `init(from:)`, a raw-value `init(rawValue:)`) have no source location and cannot carry
a comment; they are skipped. Underscored names are not API and are skipped too.

Usage: Scripts/doc-coverage.py SYMBOL_GRAPH_DIR   (make docs)
"""
import glob
import json
import os
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: doc-coverage.py SYMBOL_GRAPH_DIR")
    root = os.getcwd() + os.sep
    missing = []
    total = 0
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.symbols.json"))):
        for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
            location = symbol.get("location")
            if location is None or any(part.startswith("_") for part in symbol["pathComponents"]):
                continue
            total += 1
            if "docComment" in symbol:
                continue
            file = location["uri"].removeprefix("file://").removeprefix(root)
            line = location["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            missing.append(f"{file}:{line}: warning: public {symbol['kind']['displayName'].lower()} {name} has no doc comment")
    for line in missing:
        print(line)
    print(f"doc-coverage: {total - len(missing)} of {total} public symbols documented")
    if missing:
        sys.exit(1)


main()
