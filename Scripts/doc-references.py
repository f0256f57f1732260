#!/usr/bin/env python3
"""Fails when the docs name code or files that do not exist.

Reads README.md, docs/*.md and the DocC articles (Sources/*/*.docc/*.md) and checks:

- Each link to a file of the repository (`[text](path#anchor)`) names a file or folder that exists
  and, with an anchor into a Markdown file, one of its headings.
- Each backticked path (a span with a `/` or ending in a source file's extension: `.swift`, `.md`,
  `.py`, `.c`, `.h`, `.sh`) exists: relative to the repository, to the document's folder, or as the
  end of a repository path (`Storage/PageCheck.swift`). Paths the docs' commands create or read
  outside the checkout are not checked: under `.build/`, `~`, `/`, `../`, or with a placeholder
  (`PATH`, `*`, `…`, `<…>`, `$VAR`).
- Each backticked Swift name: a type, a member, a function or an enum case, alone or dotted
  (`ObjDBError.mapFull`, `Configuration.fileMode`, `@Persisted`, `Results<Tweet>`), optionally with
  its argument labels (`min(ofProperty:)`, `fetchCount()`). Every capitalized part and the last part
  must be known to the Swift code of Sources, Tools, Benchmarks, Examples or Tests: declared, used
  (which is how a standard library or Foundation name counts: the compiler resolved it), or spelled
  in a string in any case (a query keyword, a JSON key, a column of a tool's output: `NaN`,
  `errorcode`). Labels must match a declaration of that name when the package declares one. A
  leading lowercase part is a value in an example (`db.view(queue:)`, `results.changes`) and is not
  checked.

Not checked, by their shape: spans with a space (commands, code, query strings), a `-` (flags, tools,
packages), quotes (literals) or other punctuation (`%@`, `[c]`, `dogs.@count`); numbers; a lone
lowercase word without a capital inside (a command, a C function, a JSON key: `check`, `pwrite`,
`since`); names in capitals or with an underscore inside (C constants, environment variables, C, LMDB
and JSON fields: `MDB_NOTLS`, `NO_COLOR`, `mp_pgno`); attributes in lowercase (`@_transparent`); a
parenthesized part that is not a list of labels (`Type(key)`); a path with no source extension whose
first folder is none of the repository's (an API route: `search/tweets`); code blocks; DocC symbol
links (` ``Results/count`` `), which `make docs` resolves; and a name right after another project's
possessive (Realm's `RLMCollectionChange`, GRDB's `TransactionObserver`): that project's code. Target
and product names in Package.swift count as names.

Usage: Scripts/doc-references.py   (run by make docs)
"""
import glob
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CODE_FOLDERS = ["Sources", "Tools", "Benchmarks", "Examples", "Tests"]
SOURCE_EXTENSIONS = (".swift", ".md", ".py", ".c", ".h", ".sh")
SWIFT_KEYWORDS = {
    "nil", "true", "false", "self", "Self", "super", "init", "deinit", "subscript", "try", "await", "async",
    "throws", "rethrows", "let", "var", "func", "class", "struct", "enum", "protocol", "extension", "actor",
    "static", "final", "public", "package", "internal", "private", "fileprivate", "open", "some", "any",
    "inout", "weak", "unowned", "lazy", "mutating", "nonisolated", "sending", "consuming", "borrowing",
    "typealias", "associatedtype", "where", "is", "as", "in", "for", "while", "if", "else", "guard", "return",
    "switch", "case", "default", "do", "catch", "throw", "defer", "import", "Type",
}

IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"
SELECTOR = r"\((?:(?:[A-Za-z_][A-Za-z0-9_]*:)*|…)\)"
GENERIC = r"<[A-Za-z0-9_., <>]*>"
NAME_SPAN = re.compile(rf"^[@#]?({IDENTIFIER}(?:{GENERIC})?(?:\.{IDENTIFIER}(?:{GENERIC})?)*)({SELECTOR})?(->.*)?$")
PLACEHOLDER = re.compile(r"(^|/)[A-Z][A-Z_]+(/|$|\.)|[*…<>$]|\{")


def swift_files():
    for folder in CODE_FOLDERS:
        for directory, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in names:
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)
    yield os.path.join(ROOT, "Package.swift")


def strip(source):
    """Swift source without comments and string literals (interpolations kept)."""
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    source = re.sub(r'"""(?:.|\n)*?"""', '""', source)
    source = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)
    return re.sub(r"//[^\n]*", " ", source)


def code_index():
    """(names used or declared in code, declared name -> set of label lists)."""
    package = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    names = set(re.findall(r'name:\s*"([A-Za-z_][A-Za-z0-9_]*)"', package))
    signatures = defaultdict(set)
    declaration = re.compile(
        r"\b(func|init|subscript|case)\s*(`?[A-Za-z_][A-Za-z0-9_]*`?)?\s*(<[^>{(]*>)?\s*\(([^)]*(?:\([^)]*\)[^)]*)*)\)")
    spelled = set()
    for path in swift_files():
        raw = open(path, encoding="utf-8").read()
        source = strip(raw)
        names.update(re.findall(IDENTIFIER, source))
        for literal in re.findall(r'"((?:\\.|[^"\\\n])*)"', re.sub(r"//[^\n]*", " ", raw)):
            spelled.update(word.lower() for word in re.findall(IDENTIFIER, literal))
        for kind, name, _, parameters in declaration.findall(source):
            name = (name or kind).strip("`")
            if kind == "case" and not name:
                continue
            labels = []
            depth = 0
            for part in re.split(r"(,|\(|\)|<|>|\[|\])", parameters):
                if part in ("(", "<", "["):
                    depth += 1
                elif part in (")", ">", "]"):
                    depth -= 1
                elif depth == 0 and part not in (",", "") and ":" in part:
                    words = part.split(":")[0].split()
                    if words:
                        labels.append(words[0] if len(words) >= 1 else "_")
            signatures[name].add(tuple(labels))
            # A parameter with a default value may be left out: every shorter form counts.
            if "=" in parameters:
                signatures[name].add(("*",))
    # The web inspector's pages are JavaScript the docs also name (`textContent`).
    for folder in CODE_FOLDERS:
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if name.endswith(".js"):
                    script = open(os.path.join(directory, name), encoding="utf-8").read()
                    names.update(re.findall(IDENTIFIER, re.sub(r"//[^\n]*|/\*.*?\*/", " ", script, flags=re.S)))
    return names, spelled, signatures


def repository_files():
    files = set()
    for directory, folders, names in os.walk(ROOT):
        folders[:] = [f for f in folders if f not in (".git", ".build")]
        relative = os.path.relpath(directory, ROOT)
        for name in names + folders:
            files.add(os.path.normpath(os.path.join(relative, name)))
    return files


def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r"`|\*|_(?=\w)|(?<=\w)_", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found = set()
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


def documents():
    paths = [os.path.join(ROOT, "README.md")]
    paths += sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    paths += sorted(glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "*.md")))
    return paths


def prose(path):
    """(line number, line) of a Markdown file outside fenced code blocks."""
    in_code = False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if not in_code:
            yield number, line


def check_path(span, document, files, folders):
    """An error for a path span that names nothing, or None."""
    path = span.split("#")[0].rstrip("/")
    if not path or re.match(r"^(\.build/|~|/|\.\./|https?:|mailto:)", path) or PLACEHOLDER.search(path):
        return None
    if not path.endswith(SOURCE_EXTENSIONS) and path.split("/")[0] not in folders:
        return None  # an API route or a URL path
    base = os.path.relpath(os.path.dirname(document), ROOT)
    candidates = [os.path.normpath(path), os.path.normpath(os.path.join(base, path))]
    if any(candidate in files for candidate in candidates):
        return None
    if "/" not in path and not path.endswith(SOURCE_EXTENSIONS):
        return None  # a file a command makes or reads: tweets.objdb, home.json
    if any(f == path or f.endswith("/" + path) for f in files):
        return None
    return f"no file or folder {path}"


def check_link(target, document, files):
    if re.match(r"^(https?:|mailto:|doc:|<)", target) or target.startswith("#"):
        if target.startswith("#") and document.endswith(".md") and target[1:] not in anchors(document):
            return f"no heading for {target}"
        return None
    path, _, anchor = target.partition("#")
    full = os.path.normpath(os.path.join(os.path.dirname(document), path))
    if not os.path.exists(full):
        return f"no file or folder {path} (linked)"
    if anchor and full.endswith(".md") and anchor not in anchors(full):
        return f"no heading for #{anchor} in {os.path.relpath(full, ROOT)}"
    return None


def check_name(span, names, spelled, signatures):
    """An error for a Swift name span that names nothing, or None when it exists or is no name."""
    match = NAME_SPAN.match(span)
    if not match:
        return None
    dotted, selector = match.group(1), match.group(2)
    dotted = re.sub(GENERIC, "", dotted) if "<" in dotted else dotted
    parts = dotted.split(".")
    if any(part.isupper() or "_" in part.strip("_") for part in parts):
        return None  # a C constant, an environment variable, a C or JSON field
    if span[0] == "@" and not span[1].isupper():
        return None  # a language attribute
    if len(parts) == 1 and not selector and span[0] not in "@#" and parts[0].lower() == parts[0]:
        return None  # a lone lowercase word: a command, a C function, a key, as often as a Swift name
    checked = [part for index, part in enumerate(parts) if part[0].isupper() or index == len(parts) - 1]
    if parts[0][0].islower() and len(parts) > 1:
        checked = [part for part in checked if part is not parts[0]]
    for inner in re.findall(GENERIC, match.group(1)):
        checked += re.findall(IDENTIFIER, inner)
    for part in checked:
        if part in SWIFT_KEYWORDS or part in names or part.lower() in spelled:
            continue
        return f"no Swift name {part}"
    if selector and selector != "(…)":
        name = parts[-1]
        labels = tuple(label for label in selector[1:-1].split(":") if label)
        declared = signatures.get(name)
        if declared and labels not in declared and ("*",) not in declared:
            forms = ", ".join(f"{name}({''.join(l + ':' for l in form)})" for form in sorted(declared))
            return f"no {name}{selector}: the code declares {forms}"
    return None


def self_test(names, spelled, signatures, files, folders):
    """Fails unless the checks tell a few names and paths that exist from ones that do not."""
    readme = os.path.join(ROOT, "README.md")
    exist = [check_name("Results", names, spelled, signatures), check_name("fetchCount()", names, spelled, signatures),
             check_name("ObjDBError.mapFull", names, spelled, signatures),
             check_path("Scripts/doc-references.py", readme, files, folders), check_link("docs/FORMAT.md", readme, files)]
    missing = [check_name("NoSuchTypeAnywhere", names, spelled, signatures),
               check_name("Results.fetchCount(from:)", names, spelled, signatures),
               check_path("Sources/ObjDB/NoSuchFile.swift", readme, files, folders),
               check_link("docs/FORMAT.md#no-such-heading", readme, files)]
    if any(exist) or not all(missing):
        sys.exit(f"doc-references: the self-test failed: {exist} {missing}")


def main():
    names, spelled, signatures = code_index()
    files = repository_files()
    folders = {part for path in files for part in path.split(os.sep)[:-1]}
    self_test(names, spelled, signatures, files, folders)
    problems = []
    checked = 0
    for document in documents():
        where = os.path.relpath(document, ROOT)
        for number, line in prose(document):
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                checked += 1
                error = check_link(target, document, files)
                if error:
                    problems.append(f"{where}:{number}: {error}")
            for double, single in re.findall(r"``([^`]+)``|`([^`\n]+)`", line):
                if double:
                    continue  # a DocC symbol link, which DocC resolves (make docs fails on one it cannot)
                span = single.strip()
                checked += 1
                if " " in span or '"' in span or "'" in span:
                    continue
                if re.search(r"\b(?!ObjDB)[A-Z][A-Za-z0-9]*'s $", line[: line.find("`" + single + "`")]):
                    continue  # another project's name
                if "/" in span or span.endswith(SOURCE_EXTENSIONS):
                    error = check_path(span, document, files, folders)
                else:
                    error = check_name(span, names, spelled, signatures)
                if error:
                    problems.append(f"{where}:{number}: `{span}`: {error}")
    for problem in problems:
        print(problem)
    print(f"doc-references: {checked - len(problems)} of {checked} references in {len(documents())} documents exist")
    if problems:
        sys.exit(1)


main()
