#!/usr/bin/env python3
"""Fails, listing each one with its file:line, when a public symbol of YarnCore's API has no
doc comment, or throws without saying what and when. Reads the symbol graphs that
scripts/docs.sh extracts (SYMBOL_GRAPH_DIR/*.symbols.json, public symbols only) and rewrites
them for `docc convert` (see the last paragraph).

Usage: check-doc-comments.py SYMBOL_GRAPH_DIR SOURCES_DIR

A symbol needs a doc comment (`///` or `/** */`) whose first paragraph is its abstract (text, not
a `- Parameter:`/`- Returns:`/`- Throws:` field) when it is public and written in SOURCES_DIR;
one that throws (or rethrows) needs a `- Throws:` field: which errors, and when. (DocC, run
with --warnings-as-errors after this, checks the `- Parameter` fields against the signature.)
Not checked, because no source line can carry the comment:
  - members the compiler writes (Codable's `init(from:)`, RawRepresentable's `init(rawValue:)`,
    the memberwise `Equatable`/`Hashable` members): they have no source location;
  - members a type gets from a protocol's default implementation (identifiers marked
    `::SYNTHESIZED::`): they show the protocol's documentation;
  - `extension` blocks of another module's type (`extension Array where Element == YarnUse`):
    not a symbol an app calls; their members are checked.

DocC only diagnoses a doc comment (its parameters, its links) when the comment's module is the
module being documented. YarnCore's graph holds YarnModel's and YarnStore's symbols as well
(re-exported), so their comments are marked as YarnCore's here and DocC checks them too.
"""

import glob
import json
import os
import re
import sys
from urllib.parse import unquote, urlparse

DOCUMENTED_MODULE = "YarnCore"
REEXPORTED_MODULES = {"YarnModel", "YarnStore"}
FIELD = re.compile(r"^\s*-\s*(Parameters?|Returns|Throws)\b", re.IGNORECASE)
THROWS_FIELD = re.compile(r"^\s*-\s*Throws\s*:", re.IGNORECASE)


def source_path(symbol):
    """The symbol's source file (an absolute path) and line (1-based), or None."""
    location = symbol.get("location")
    if not location or "uri" not in location:
        return None
    path = unquote(urlparse(location["uri"]).path)
    line = location.get("position", {}).get("line", 0) + 1  # positions are 0-based
    return path, line


def comment_lines(symbol):
    return [entry.get("text", "") for entry in symbol.get("docComment", {}).get("lines", [])]


def has_abstract(symbol):
    first = next((text for text in comment_lines(symbol) if text.strip()), None)
    return first is not None and not FIELD.match(first)


def throws(symbol):
    """Whether the declaration throws or rethrows: the keyword outside its parentheses (a
    parameter `body: (Yarn) throws -> Void` alone does not make a function throw)."""
    depth = 0
    for fragment in symbol.get("declarationFragments", []):
        spelling = fragment.get("spelling", "")
        if fragment.get("kind") == "keyword" and spelling in ("throws", "rethrows") and depth == 0:
            return True
        if fragment.get("kind") == "text":
            depth += spelling.count("(") - spelling.count(")")
    return False


def says_what_it_throws(symbol):
    return any(THROWS_FIELD.match(text) for text in comment_lines(symbol))


def main():
    if len(sys.argv) != 3:
        print("usage: check-doc-comments.py SYMBOL_GRAPH_DIR SOURCES_DIR", file=sys.stderr)
        return 64
    graph_dir, sources = sys.argv[1], os.path.realpath(sys.argv[2])
    files = sorted(glob.glob(os.path.join(graph_dir, "*.symbols.json")))
    if not files:
        print(f"check-doc-comments: no symbol graphs in {graph_dir}", file=sys.stderr)
        return 66
    missing, checked = [], 0
    for file in files:
        with open(file, encoding="utf-8") as handle:
            graph = json.load(handle)
        for symbol in graph["symbols"]:
            comment = symbol.get("docComment")
            if comment and comment.get("module") in REEXPORTED_MODULES:
                comment["module"] = DOCUMENTED_MODULE
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            if symbol["kind"]["identifier"] == "swift.extension":
                continue
            where = source_path(symbol)
            if where is None or not os.path.realpath(where[0]).startswith(sources + os.sep):
                continue
            checked += 1
            path = os.path.relpath(os.path.realpath(where[0]))
            kind = symbol["kind"]["displayName"].lower()
            name = ".".join(symbol["pathComponents"])
            if not has_abstract(symbol):
                missing.append((path, where[1], f"{kind} {name} has no doc comment"))
            elif throws(symbol) and not says_what_it_throws(symbol):
                missing.append(
                    (path, where[1], f"{kind} {name} throws, but its doc comment has no "
                     "`- Throws:` (which errors, and when)")
                )
        with open(file, "w", encoding="utf-8") as handle:
            json.dump(graph, handle)
    if missing:
        for path, line, message in sorted(set(missing)):
            print(f"error: {path}:{line}: {message}", file=sys.stderr)
        print(
            f"check-doc-comments: {len(set(missing))} of {checked} public symbols lack a doc comment "
            "or its `- Throws:` (say what it is, its shape and units, what it throws and when)",
            file=sys.stderr,
        )
        return 1
    print(f"check-doc-comments: all {checked} public symbols have a doc comment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
