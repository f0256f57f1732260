#!/usr/bin/env python3
"""Checks that each folder of Sources/ObjDB uses only its own layer and the layers below it.

A use is any name the code reaches that another folder declares: a type (nested ones resolved through
their enclosing types), a member (method, property, enum case; extension members count for the folder
that declares the extension, not the type's), or a free function or global. Names are resolved the way
the compiler would, per use: inside the enclosing types first, then qualified (`Type.member`) or at
the top level; a private declaration is seen only in its own file. A member called on a value whose
type the script cannot tell (`x.member`) resolves to every declaration of that name: it counts as
upward only when all of them are above the using folder's layer.

It fails on an upward use (a folder naming a folder of a higher layer) and on a cycle between folders
of one layer, unless ALLOWED or ALLOWED_CYCLES names it with a reason.

Usage: Scripts/layers.py [--names] [--quiet]   (make layers)
  --names   lists every name each folder uses from each other folder
  --quiet   prints only problems
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "ObjDB")

# Lowest first: (layer name, its folders). A folder uses its own layer and those below it; the folders
# of one layer may use each other, but not in a cycle. The core is six layers; Inspection is a library
# on top of it that the tools use (docs/ARCHITECTURE.md, "Layers").
LAYERS = [
    ("Base", ["Errors", "Values", "Support"]),
    ("Storage", ["Storage", "Format"]),
    ("Model", ["Schema", "Objects", "Dynamic"]),
    ("Database", ["Changes", "Database"]),
    ("Query", ["Query", "Threading"]),
    ("Notifications", ["Notifications"]),
    ("Inspection", ["Inspection"]),
]

# Upward uses that are allowed, as (folder, owner folder, name): reason. Keep this short: each entry
# is a move the code still owes.
ALLOWED = {}

# Cycles between folders of one layer that are allowed, as a frozenset of the folders: reason.
ALLOWED_CYCLES = {
    frozenset({"Schema", "Objects"}): (
        "a class's schema is read from its objects' property wrappers (DiscoveredType traces "
        "PropertyTracer, ObjectBase) and objects read through the bindings it makes (TypeBinding); "
        "one module in the target split"
    ),
}

TYPE_KEYWORDS = {"class", "struct", "enum", "protocol", "actor", "extension", "typealias", "associatedtype"}
KEYWORDS = TYPE_KEYWORDS | {
    "func", "var", "let", "case", "init", "deinit", "subscript", "static", "final", "override", "public",
    "package", "internal", "private", "fileprivate", "open", "mutating", "nonmutating", "convenience",
    "required", "lazy", "weak", "unowned", "indirect", "nonisolated", "dynamic", "optional", "some", "any",
    "where", "return", "if", "else", "guard", "for", "in", "while", "repeat", "switch", "default", "do",
    "try", "catch", "throw", "throws", "rethrows", "as", "is", "self", "Self", "super", "true", "false",
    "nil", "import", "inout", "defer", "break", "continue", "fallthrough", "operator", "get", "set",
    "willSet", "didSet", "async", "await", "consuming", "borrowing", "sending", "isolated",
}
TOKEN = re.compile(r"`[^`\n]+`|\$?[A-Za-z_][A-Za-z0-9_]*|\n|\S")


def strip(source):
    """The code without comments, and string literals as `""` with their interpolations kept."""
    out = []
    i, n = 0, len(source)
    special = re.compile(r'/[/*]|#*"')
    while i < n:
        match = special.search(source, i)
        if not match:
            out.append(source[i:])
            break
        out.append(source[i:match.start()])
        token = match.group()
        if token == "//":
            end = source.find("\n", match.end())
            i = n if end < 0 else end
        elif token == "/*":
            depth, j = 1, match.end()
            while depth and j < n:
                if source.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif source.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(" " + "\n" * source.count("\n", match.start(), j))
            i = j
        else:
            i = skip_string(source, match.start(), out)
    return "".join(out)


def skip_string(source, start, out):
    """Appends `""` and the string's interpolations to out; returns the index after the literal."""
    hashes = 0
    while source[start + hashes] == "#":
        hashes += 1
    quote = '"""' if source.startswith('"""', start + hashes) else '"'
    i = start + hashes + len(quote)
    close = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    out.append('""')
    while i < len(source):
        if source.startswith(close, i):
            out.append("\n" * source.count("\n", start, i))
            return i + len(close)
        if source.startswith(escape, i):
            i += len(escape)
            if source.startswith("(", i):
                depth, j = 1, i + 1
                while depth and j < len(source):
                    if source[j] == '"':
                        inner = []
                        j = skip_string(source, j, inner)
                        continue
                    depth += {"(": 1, ")": -1}.get(source[j], 0)
                    j += 1
                out.append(" (" + source[i + 1 : j - 1] + ") ")
                i = j
            else:
                i += 1
            continue
        if quote == '"' and source[i] == "\n":
            return i
        i += 1
    return i


class Declaration:
    __slots__ = ("name", "kind", "folder", "path", "owner", "private", "in_extension", "foreign")

    def __init__(self, name, kind, folder, path, owner, private, in_extension=False):
        self.name, self.kind, self.folder, self.path = name, kind, folder, path
        self.owner, self.private, self.in_extension = owner, private, in_extension
        # Whether this is a member added to a type of another folder (or of the standard library).
        self.foreign = False

    def visible_from(self, path):
        return not self.private or self.path == path

    def display(self):
        """The name a listing shows: a member of a type of its own folder shows as the type."""
        if self.kind == "type" or (self.kind == "member" and not self.foreign):
            return self.owner if self.kind == "member" else (self.owner + "." if self.owner else "") + self.name
        if self.owner:
            return f"{self.owner}.{self.name}"
        return self.name + "()"


class Index:
    """Every declaration of Sources/ObjDB, and each file's tokens with the types enclosing each."""

    def __init__(self):
        self.types = defaultdict(list)  # qualified name -> [Declaration]
        self.members = defaultdict(lambda: defaultdict(list))  # owner -> name -> [Declaration]
        self.members_by_name = defaultdict(list)  # name -> [Declaration]
        self.globals = defaultdict(list)  # name -> [Declaration]
        self.supertypes = defaultdict(set)  # qualified type -> names in its inheritance clauses
        self.files = []  # (path, folder, tokens, contexts, declared token indices)

    def add_file(self, path, folder, source):
        tokens = []
        line = 1
        for match in TOKEN.finditer(strip(source)):
            tokens.append((match.group(), line))
            if match.group() == "\n":
                line += 1
        # Per open brace: (kind, qualified type name or None, private, whether an extension)
        scopes = []
        contexts = [()] * len(tokens)  # per token: the qualified names of the enclosing types, outermost first
        declared = set()
        pending = None  # a type header waiting for its "{": (qualified name, private, whether an extension)
        modifiers = []
        current = ()
        texts = [t for t, _ in tokens]
        count = len(tokens)
        paren = 0
        i = 0
        while i < count:
            text, line = tokens[i]
            contexts[i] = current
            if text == "\n":
                i += 1
                continue
            at_declaration_level = not scopes or scopes[-1][0] == "type"
            if text in ("(", "["):
                paren += 1
            elif text in (")", "]"):
                paren -= 1
            elif text == "{":
                if pending is not None:
                    scopes.append(("type", pending[0], pending[1], pending[2]))
                    current = current + (pending[0],)
                    pending = None
                else:
                    scopes.append(("code", None, False, False))
                modifiers = []
            elif text == "}":
                if scopes:
                    kind = scopes.pop()[0]
                    if kind == "type":
                        current = current[:-1]
                modifiers = []
            elif text in ("private", "fileprivate") and texts[i + 1 : i + 2] != ["("]:
                modifiers.append("private")
            elif text in TYPE_KEYWORDS and at_declaration_level and paren == 0 and i + 1 < count:
                j = i + 1
                name = texts[j]
                if not re.match(r"[A-Za-z_`]", name) or name in KEYWORDS:
                    i += 1
                    continue
                name = name.strip("`")
                while text == "extension" and j + 2 < count and texts[j + 1] == "." and texts[j + 2][:1].isalpha():
                    j += 2
                    name += "." + texts[j]
                private = "private" in modifiers or (bool(scopes) and scopes[-1][2])
                owner = current[-1] if current else None
                if text == "extension":
                    qualified = name
                else:
                    qualified = owner + "." + name if owner else name
                    declaration = Declaration(name, "type", folder, path, owner, private)
                    self.types[qualified].append(declaration)
                    declared.add(j)
                for k in range(i + 1, j + 1):
                    contexts[k] = current
                if text in ("typealias", "associatedtype"):
                    modifiers = []
                    i = j + 1
                    continue
                # The inheritance clause, up to "{" or "where".
                k = j + 1
                while k < count and texts[k] not in ("{", "where"):
                    if texts[k][:1].isupper():
                        self.supertypes[qualified].add(texts[k])
                    k += 1
                pending = (qualified, private, text == "extension")
                modifiers = []
                i = j + 1
                continue
            elif text in ("func", "var", "let", "case") and at_declaration_level and paren == 0:
                names = []
                j = i + 1
                if j < count and re.match(r"[A-Za-z_`]", texts[j]) and texts[j] not in KEYWORDS:
                    names.append(j)
                if text == "case" and scopes:
                    # More cases on the same line: case a, b(Int), c = 3
                    k = j + 1
                    depth = 0
                    while k < count and tokens[k][1] == line and texts[k] not in ("{", "}"):
                        depth += {"(": 1, ")": -1}.get(texts[k], 0)
                        if depth == 0 and texts[k] == "," and k + 1 < count and texts[k + 1][:1].isalpha():
                            names.append(k + 1)
                        k += 1
                private = "private" in modifiers or (bool(scopes) and scopes[-1][2])
                for j in names:
                    name = texts[j].strip("`")
                    declared.add(j)
                    if current:
                        declaration = Declaration(name, "member", folder, path, current[-1], private, scopes[-1][3])
                        self.members[current[-1]][name].append(declaration)
                        self.members_by_name[name].append(declaration)
                    elif text in ("func", "var", "let"):
                        self.globals[name].append(Declaration(name, "global", folder, path, None, private))
                modifiers = []
            i += 1
        self.files.append((path, folder, texts, contexts, declared))

    def finish(self):
        """Marks the members that extensions add to types of other folders."""
        for owner, members in self.members.items():
            home = {d.folder for d in self.types.get(owner, ())}
            for declarations in members.values():
                for declaration in declarations:
                    declaration.foreign = declaration.in_extension and declaration.folder not in home

    def type_named(self, name, context, path):
        """The declarations a type name resolves to from the given enclosing types."""
        for outer in reversed(context):
            parts = outer.split(".")
            for cut in range(len(parts), 0, -1):
                found = self.visible(self.types.get(".".join(parts[:cut]) + "." + name), path)
                if found:
                    return ".".join(parts[:cut]) + "." + name, found
        found = self.visible(self.types.get(name), path)
        return (name, found) if found else (None, [])

    def member_of(self, owner, name, path, seen=None):
        """The declarations of member `name` of type `owner`, its supertypes' and protocols' included."""
        seen = seen or set()
        if owner in seen:
            return []
        seen.add(owner)
        found = self.visible(self.members.get(owner, {}).get(name), path)
        if found:
            return found
        for supertype in self.supertypes.get(owner, ()):
            found = self.member_of(supertype, name, path, seen)
            if found:
                return found
        return []

    @staticmethod
    def visible(declarations, path):
        return [d for d in declarations or () if d.visible_from(path)]


def uses_of(index, path, texts, contexts, declared):
    """Yields (token index, [Declaration], exact) for each name in a file that the index declares."""
    resolved_types = {}  # token index -> qualified type name, for qualified lookups after it
    count = len(texts)
    for i, text in enumerate(texts):
        if i in declared or not (text[:1].isalpha() or text[:1] in "_`"):
            continue
        name = text.strip("`")
        if name in KEYWORDS:
            continue
        previous = texts[i - 1] if i else ""
        if previous == "\n":
            k = i - 1
            while k >= 0 and texts[k] == "\n":
                k -= 1
            previous = texts[k] if k >= 0 else ""
            base_index = k - 1
        else:
            base_index = i - 2
        context = contexts[i]
        if previous == ".":
            base = texts[base_index] if base_index >= 0 else ""
            owner = None
            if base in ("self", "Self") and context:
                owner = context[-1]
            elif base_index in resolved_types:
                owner = resolved_types[base_index]
            if owner is not None:
                nested = index.visible(index.types.get(owner + "." + name), path)
                if nested:
                    resolved_types[i] = owner + "." + name
                    yield i, nested, True
                    continue
                found = index.member_of(owner, name, path)
                if found:
                    yield i, found, True
                continue
            # A member of a value the script cannot type, or an implicit member (.case): a member that
            # an extension adds to another folder's type is a candidate. (Members declared with their
            # type are reached through the type's name; a standard library member of the same name
            # would make any other candidate a guess.)
            found = index.visible(index.members_by_name.get(name), path)
            if found:
                yield i, found, False
            continue
        if name[0].isupper():
            qualified, found = index.type_named(name, context, path)
            if found:
                resolved_types[i] = qualified
                yield i, found, True
            continue
        following = texts[i + 1] if i + 1 < count else ""
        if previous in ("func", "var", "let", "case") or following == ":":
            continue
        if following == "(":
            for outer in reversed(context):
                found = index.member_of(outer, name, path)
                if found:
                    yield i, found, True
                    break
            else:
                found = index.visible(index.globals.get(name), path)
                if found:
                    yield i, found, True
        else:
            found = index.visible(index.globals.get(name), path)
            if found:
                yield i, found, True


def cycles(graph, folders):
    """The strongly connected groups of more than one folder in `graph` restricted to `folders`."""
    order, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(folder):
        order[folder] = low[folder] = len(order)
        stack.append(folder)
        on_stack.add(folder)
        for other in graph.get(folder, ()):
            if other not in folders:
                continue
            if other not in order:
                visit(other)
                low[folder] = min(low[folder], low[other])
            elif other in on_stack:
                low[folder] = min(low[folder], order[other])
        if low[folder] == order[folder]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == folder:
                    break
            if len(group) > 1:
                groups.append(group)

    for folder in sorted(folders):
        if folder not in order:
            visit(folder)
    return groups


def analyze(root, layers):
    """(uses, upward): folder -> owner folder -> names, and (folder, owner, name) -> places."""
    layer_of = {folder: number for number, (_, folders) in enumerate(layers) for folder in folders}
    index = Index()
    for directory, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            folder = os.path.relpath(path, root).split(os.sep)[0]
            if folder.endswith(".swift") or folder not in layer_of:
                sys.exit(f"layers: {os.path.relpath(path, root)} is in no layer; add its folder to LAYERS")
            index.add_file(path, folder, open(path, encoding="utf-8").read())
    index.finish()

    uses = defaultdict(lambda: defaultdict(set))
    upward = defaultdict(list)
    for path, folder, texts, contexts, declared in index.files:
        lines = None
        for i, found, exact in uses_of(index, path, texts, contexts, declared):
            owners = {d.folder for d in found}
            if folder in owners:
                continue
            if not exact:
                # A candidate within reach is assumed to be the one. Otherwise only members that
                # extensions add to other folders' types, under names no type declares for itself,
                # count: a type's own members are reached through its name, checked where it is
                # written, and a name types share may as well be the standard library's.
                if any(layer_of[o] <= layer_of[folder] for o in owners):
                    continue
                found = found if all(d.foreign for d in found) else []
            for declaration in found:
                name = declaration.display()
                uses[folder][declaration.folder].add(name)
                if layer_of[declaration.folder] > layer_of[folder]:
                    if lines is None:
                        lines = line_numbers(texts)
                    upward[(folder, declaration.folder, name)].append(f"{os.path.relpath(path, root)}:{lines[i]}")
    return uses, upward


def report(layers, uses, upward, allowed, allowed_cycles, show_names=False, quiet=False):
    """Prints the listing and the problems; returns how many problems there are."""
    layer_of = {folder: number for number, (_, folders) in enumerate(layers) for folder in folders}
    if not quiet:
        for number, (layer, folders) in enumerate(layers):
            print(f"{number} {layer}: {', '.join(folders)}")
            for folder in folders:
                named = sorted(uses.get(folder, {}).items(), key=lambda item: (layer_of[item[0]], item[0]))
                if not named:
                    print(f"    {folder} uses no other folder")
                elif show_names:
                    print(f"    {folder} uses " + "; ".join(f"{o}: {', '.join(sorted(n))}" for o, n in named))
                else:
                    print(f"    {folder} uses " + ", ".join(f"{o} ({len(n)})" for o, n in named))
        if not show_names:
            print("(Scripts/layers.py --names lists the names each folder uses)")

    problems = 0
    reported = [key for key in sorted(upward, key=lambda k: (layer_of[k[0]], k)) if key not in allowed]
    if reported:
        print("\nupward uses (a layer may use only itself and the layers below it):")
        for folder, owner, name in reported:
            places = upward[(folder, owner, name)]
            more = f" and {len(places) - 1} more" if len(places) > 1 else ""
            print(f"  {folder} (layer {layer_of[folder]}) uses {owner}'s {name} (layer {layer_of[owner]}): "
                  f"{places[0]}{more}")
        problems += len(reported)
    for folder, owner, name in allowed:
        if (folder, owner, name) not in upward:
            print(f"  ALLOWED lists {folder} using {owner}'s {name}, which it no longer does: remove it")
            problems += 1

    graph = {folder: set(owners) for folder, owners in uses.items()}
    found_cycles = [frozenset(group) for _, folders in layers for group in cycles(graph, set(folders))]
    for group in found_cycles:
        members = sorted(group)
        detail = "; ".join(
            f"{a} uses {b}'s {', '.join(sorted(uses[a][b])[:4])}{'…' if len(uses[a][b]) > 4 else ''}"
            for a in members for b in members if a != b and b in graph.get(a, ()))
        if group in allowed_cycles:
            if not quiet:
                print(f"\nallowed cycle ({allowed_cycles[group]}): {detail}")
        else:
            print(f"\ncycle inside a layer ({' and '.join(members)} use each other): {detail}")
            problems += 1
    for group in allowed_cycles:
        if group not in found_cycles:
            print(f"  ALLOWED_CYCLES lists {' and '.join(sorted(group))}, which no longer form a cycle: remove it")
            problems += 1
    return problems


SELF_TEST = {
    # folder/file: source. Low is below High; Low and Peer are one layer.
    "Low/Base.swift": "struct Cursor { func seek() {} }\nstruct Reader { private struct SortKey {} }\n",
    "Low/Uses.swift": (
        "extension Cursor {\n"
        "    func a() { Tracer.traceName() }\n"  # a static member added in High
        "    func b(_ x: Cursor) { x.upwardOnly() }\n"  # an extension member added in High
        "    func c() { helperAbove() }\n"  # a free function of High
        "    func d() -> SortKey? { nil }\n"  # High's SortKey: Low's own one is private to Base.swift
        "    func e() { x.seek(); print([1].count) }\n"  # within reach, and the standard library's
        "}\n"
        "struct Tracer {}\n"
    ),
    "Peer/Peer.swift": "struct PeerThing { let c: Cursor; let l: LowThing? }\n",
    "Low/Cycle.swift": "struct LowThing { let p: PeerThing? }\n",
    "High/High.swift": (
        "public struct SortKey {}\n"
        "extension Tracer { static func traceName() {} }\n"
        "extension Cursor { func upwardOnly() {} }\n"
        "func helperAbove() {}\n"
    ),
}
SELF_TEST_EXPECTED = {
    "upward": {
        ("Low", "High", "Tracer.traceName"), ("Low", "High", "Cursor.upwardOnly"),
        ("Low", "High", "helperAbove()"), ("Low", "High", "SortKey"),
    },
    "cycles": [frozenset({"Low", "Peer"})],
}


def self_test():
    """Runs the check on small sources with one upward use of each kind; fails if one is missed."""
    import tempfile

    layers = [("Low", ["Low", "Peer"]), ("High", ["High"])]
    with tempfile.TemporaryDirectory() as root:
        for name, source in SELF_TEST.items():
            os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as file:
                file.write(source)
        uses, upward = analyze(root, layers)
    found_cycles = [frozenset(g) for _, folders in layers for g in cycles(uses, set(folders))]
    if set(upward) != SELF_TEST_EXPECTED["upward"] or found_cycles != SELF_TEST_EXPECTED["cycles"]:
        sys.exit(f"layers: the self-test failed: found {sorted(upward)} and cycles {found_cycles}")


def main():
    self_test()
    uses, upward = analyze(ROOT, LAYERS)
    problems = report(LAYERS, uses, upward, ALLOWED, ALLOWED_CYCLES, "--names" in sys.argv, "--quiet" in sys.argv)
    if problems:
        sys.exit(1)
    print("layers: each folder uses only its own layer and those below it; no cycle inside a layer")


def line_numbers(texts):
    lines, line = [], 1
    for text in texts:
        lines.append(line)
        if text == "\n":
            line += 1
    return lines


main()
