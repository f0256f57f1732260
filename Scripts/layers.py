#!/usr/bin/env python3
"""Lists, for each folder of Sources/ObjDB, which other folders' types it names, and fails on an
upward reference: one from a folder to a folder in a higher layer, unless the allow-list names it.

Usage: Scripts/layers.py [--quiet]   (make layers)
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "ObjDB")

# Lowest first. Folders on one line form one layer and may name each other's types.
LAYERS = [
    ["Errors", "Values", "Support"],
    ["Storage"],
    ["Format"],
    ["Changes"],
    ["Schema", "Objects"],
    ["Dynamic"],
    ["Database"],
    ["Query"],
    ["Threading"],
    ["Notifications"],
    ["Inspection"],
]

# Upward references that are allowed, each with the reason. Keep this short.
ALLOWED = {
    # The schema's and values' vocabulary names the layer that stores it, nothing more:
    # (none yet)
}

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|open|final|indirect|"
    r"nonisolated)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z_]\w*)",
    re.M,
)
IDENTIFIER = re.compile(r"\b[A-Z_][A-Za-z0-9_]*\b")


def strip(source):
    """Source without comments and string literals, so only code names count."""
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    source = re.sub(r'"""(?:.|\n)*?"""', '""', source)
    source = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)
    source = re.sub(r"//[^\n]*", " ", source)
    return source


def folder_of(path):
    return os.path.relpath(path, ROOT).split(os.sep)[0]


def main():
    quiet = "--quiet" in sys.argv
    layer_of = {folder: index for index, layer in enumerate(LAYERS) for folder in layer}
    files = []
    for directory, _, names in os.walk(ROOT):
        files += [os.path.join(directory, name) for name in names if name.endswith(".swift")]
    declared = {}
    sources = {}
    for path in files:
        folder = folder_of(path)
        if folder.endswith(".swift") or folder not in layer_of:
            sys.exit(f"layers: {os.path.relpath(path, ROOT)} is in no layer; add its folder to LAYERS")
        sources[path] = strip(open(path, encoding="utf-8").read())
        for name in DECLARATION.findall(sources[path]):
            declared.setdefault(name, set()).add(folder)
    uses = {}
    for path, source in sources.items():
        folder = folder_of(path)
        for name in set(IDENTIFIER.findall(source)):
            for owner in declared.get(name, ()):
                if owner != folder and folder not in declared[name]:
                    uses.setdefault(folder, {}).setdefault(owner, set()).add(name)
    upward = []
    for folder in sorted(uses, key=lambda f: (layer_of[f], f)):
        named = uses[folder]
        if not quiet:
            listing = "; ".join(f"{owner}: {', '.join(sorted(names))}" for owner, names in sorted(named.items()))
            print(f"{folder} (layer {layer_of[folder]}) names {listing}")
        for owner, names in named.items():
            if layer_of[owner] > layer_of[folder]:
                for name in sorted(names):
                    if (folder, owner, name) not in ALLOWED:
                        upward.append(f"{folder} names {owner}'s {name}")
    if upward:
        print("\nupward references (a layer may only name the layers below it):")
        for line in upward:
            print("  " + line)
        sys.exit(1)
    print("layers: every folder names only its own layer and those below it")


main()
