#!/usr/bin/env python3
"""Moves Java packages and classes of the build from a table, reproducibly (issue 19, item 7: a small public face).

Run from the repository root, on a clean tree:   python3 tools/internalize.py
It only does what a careful hand would do mechanically, so that the result can be re-made on any later tree
(the lead may merge other branches first and run it again):

  1. `git mv` every file of a moved package (main and test sources of every module) or of a moved class;
  2. rewrites every reference in every tracked text file (Java sources, module-info, META-INF/services, Markdown,
     scripts): `package` and `import` lines, fully qualified names (also in strings and Javadoc) and the
     slash form (`org/etw4j/consumer/writer/`);
  3. for a moved class, adds the imports that the move makes necessary (its old package-mates it names by simple
     name, and the old package's files that name it by simple name);
  4. drops a `package-info.java` of a package merged into another (the target's own package-info is hand-written),
     duplicate `exports` lines a merge leaves in a module-info, and imports of a file's own package.

Nothing else: visibility changes, package-info texts, module-info export lists and new public accessors are
hand-written, in other commits. Running it twice changes nothing the second time.
"""
import os
import re
import subprocess
import sys

# Whole packages: every file moves; the package disappears. A target that exists already is a merge.
PACKAGE_MOVES = [
    # The raw .etl tier is one package: reading (file, cursor, record view, summary, warnings), writing, relogging.
    ("org.etw4j.consumer.writer", "org.etw4j.consumer.etl"),
    ("org.etw4j.consumer.relog", "org.etw4j.consumer.etl"),
    # The JSON writer and the UTF-8 buffer are the formatter's tools: one exported output package.
    ("org.etw4j.consumer.json", "org.etw4j.consumer.output"),
    # The decoder (schema chain, manifests, trace context, views) is how the reading API works, not what it offers:
    # applications read EventRecord through TraceFile/EventStream and pass manifests through ReadSettings (item 7).
    ("org.etw4j.consumer.decode", "org.etw4j.consumer.internal.decode"),
]

# Single classes (old package is the package before PACKAGE_MOVES apply), to a package.
CLASS_MOVES = [
    # A ServiceLoader provider, not application API: `provides` works from an unexported package.
    ("org.etw4j.consumer.writer.EtlLogFileSinkFactory", "org.etw4j.consumer.internal"),
    # Progress arithmetic of the one file pass (FilePass) and the trace model's passes; no application names it.
    ("org.etw4j.consumer.etl.ReadFraction", "org.etw4j.consumer.internal"),
    # What EventRecord's getters return (issue 19, item 5): the reading API's value types live beside it, so that
    # the decoder's package can leave the exported API without taking the event type's vocabulary with it.
    ("org.etw4j.consumer.decode.EventField", "org.etw4j.consumer"),
    ("org.etw4j.consumer.decode.StructValue", "org.etw4j.consumer"),
    ("org.etw4j.consumer.decode.InType", "org.etw4j.consumer"),
    ("org.etw4j.consumer.decode.OutType", "org.etw4j.consumer"),
    ("org.etw4j.consumer.decode.SchemaSource", "org.etw4j.consumer"),
    ("org.etw4j.consumer.decode.ProcessInfo", "org.etw4j.consumer"),
    # What TraceFile.undecoded() returns (etw summary's table of events no schema describes): the reading API's
    # value, so that the decoder's package can leave the exported API (item 7).
    ("org.etw4j.consumer.decode.UndecodedEvents", "org.etw4j.consumer"),
    # The formatter's and the decoder's UTF-8 output buffer: no public signature takes or returns it and no module
    # but the consumer names it (applications get bytes through EventFormatter). Its test goes with it.
    ("org.etw4j.consumer.output.Utf8Buffer", "org.etw4j.consumer.internal"),
    ("org.etw4j.consumer.output.Utf8BufferTest", "org.etw4j.consumer.internal"),
    # The adapter that presents an .etl record as an EVENT_RECORD for the decoder: the pipeline's glue, not a third
    # record type for applications (issue 19, item 5: one event type). The raw tier hands out the record view
    # (TraceFile.record(), EtlCursor.record()) and, for code that needs the EVENT_RECORD form,
    # EtlRecordView.asRawEventRecord() typed as etw-api's RawEventRecord.
    ("org.etw4j.consumer.etl.EtlRecordEvent", "org.etw4j.consumer.internal"),
]

TEXT_SUFFIXES = (".java", ".md", ".sh", ".py", ".txt", ".properties", ".xml", ".cmd", ".html", ".js", ".yml")
SELF = "tools/internalize.py"


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def tracked_files():
    return [f for f in git("ls-files", "-z").split("\0") if f]


def java_roots(files):
    """Every `src/<set>/java/` and `src/<set>/resources/` directory of every module (a class finds its resources
    relative to its package, so a package's resources move with it)."""
    roots = set()
    for f in files:
        m = re.match(r"(.*?src/[^/]+/(?:java|resources)/)", f)
        if m:
            roots.add(m.group(1))
    return sorted(roots)


def pkg_dir(pkg):
    return pkg.replace(".", "/")


def package_pattern(pkg):
    """The package's name, not a longer one: not followed by more name characters or a lower-case segment."""
    return re.compile(r"(?<![\w.])" + re.escape(pkg) + r"(?![\w])(?!\.[a-z_])")


def slash_pattern(pkg):
    """The package's directory (alone or inside a path), not a longer one nor a sub-package's."""
    return re.compile(r"(?<![\w])" + re.escape(pkg_dir(pkg)) + r"(?!\w)(?!/[a-z_]\w*/)")


def plan_moves(files):
    """(old path, new path) pairs, and the package-info files to drop."""
    roots = java_roots(files)
    moves, drops = [], []
    moved_classes = {old: new for old, new in CLASS_MOVES}
    for root in roots:
        for f in files:
            if not f.startswith(root) or (root.endswith("/java/") and not f.endswith(".java")):
                continue
            rel = f[len(root):]
            d, name = os.path.split(rel)
            pkg = d.replace("/", ".")
            cls = name[:-len(".java")]
            if f.endswith(".java") and pkg + "." + cls in moved_classes:
                moves.append((f, root + pkg_dir(moved_classes[pkg + "." + cls]) + "/" + name))
                continue
            for old, new in PACKAGE_MOVES:
                if pkg == old:
                    if name == "package-info.java":
                        drops.append(f)
                    else:
                        moves.append((f, root + pkg_dir(new) + "/" + name))
    return moves, drops


def rename_for(text):
    """Rewrites class moves first (their FQNs), then package moves."""
    for old, new in CLASS_MOVES:
        old_pkg, cls = old.rsplit(".", 1)
        text = re.sub(r"(?<![\w.])" + re.escape(old) + r"(?!\w)", new + "." + cls, text)
        text = re.sub(r"(?<![\w])" + re.escape(pkg_dir(old_pkg) + "/" + cls) + r"(?!\w)",
                      pkg_dir(new) + "/" + cls, text)
    for old, new in PACKAGE_MOVES:
        text = package_pattern(old).sub(new, text)
        text = slash_pattern(old).sub(pkg_dir(new), text)
    return text


def final_package(pkg):
    for old, new in PACKAGE_MOVES:
        if pkg == old:
            return new
    return pkg


IMPORT = re.compile(r"(?m)^import\s+(static\s+)?([\w.]+)(\.\*)?\s*;")
PACKAGE_LINE = re.compile(r"(?m)^package\s+([\w.]+)\s*;")


def strip_comments_and_strings(text):
    """What the compiler sees as names (Javadoc {@link X} counts: it needs the import too)."""
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"//[^\n]*", "", text)
    return text


def add_import(text, fqcn):
    if re.search(r"(?m)^import\s+" + re.escape(fqcn) + r"\s*;", text):
        return text
    imports = list(IMPORT.finditer(text))
    line = "import " + fqcn + ";\n"
    if imports:
        # Keep non-static imports in order: before the first one that sorts after it.
        for m in imports:
            if not m.group(1) and m.group(2) + (m.group(3) or "") > fqcn:
                return text[:m.start()] + line + text[m.start():]
        last = imports[-1]
        end = text.index("\n", last.end()) + 1
        return text[:end] + line + text[end:]
    p = PACKAGE_LINE.search(text)
    end = text.index("\n", p.end()) + 1
    return text[:end] + "\n" + line + text[end:]


def names(text, simple):
    return re.search(r"(?<![\w.])" + re.escape(simple) + r"(?!\w)", strip_comments_and_strings(text)) is not None


def fix_imports(files_after):
    """Adds the imports a class move made necessary, in both directions."""
    by_pkg = {}
    for f in files_after:
        if f.endswith(".java") and not f.endswith("package-info.java") and not f.endswith("module-info.java"):
            m = re.match(r".*?src/[^/]+/java/(.*)/([^/]+)\.java$", f)
            if m:
                by_pkg.setdefault(m.group(1).replace("/", "."), []).append((f, m.group(2)))
    for old, new in CLASS_MOVES:
        old_pkg, cls = old.rsplit(".", 1)
        old_pkg = final_package(old_pkg)
        moved = [f for f, c in by_pkg.get(new, []) if c == cls]
        mates = by_pkg.get(old_pkg, [])
        for f in moved:
            text = open(f, encoding="utf-8").read()
            out = text
            for _, mate in mates:
                if names(out, mate):
                    out = add_import(out, old_pkg + "." + mate)
            if out != text:
                open(f, "w", encoding="utf-8").write(out)
        for f, _ in mates:
            text = open(f, encoding="utf-8").read()
            if names(text, cls):
                out = add_import(text, new + "." + cls)
                if out != text:
                    open(f, "w", encoding="utf-8").write(out)


def drop_own_package_imports(text):
    """A merge makes some imports name the file's own package: redundant, so dropped."""
    p = PACKAGE_LINE.search(text)
    if not p:
        return text
    return re.sub(r"(?m)^import\s+" + re.escape(p.group(1)) + r"\.[A-Z]\w*\s*;\n", "", text)


def dedupe_exports(text):
    seen, out = set(), []
    for line in text.splitlines(keepends=True):
        m = re.match(r"\s*exports\s+([\w.]+)\s*;\s*$", line)
        if m:
            if m.group(1) in seen:
                continue
            seen.add(m.group(1))
        out.append(line)
    return "".join(out)


def main():
    if not os.path.isdir(".git") and not os.path.isfile(".git"):
        sys.exit("run from the repository root")
    files = tracked_files()
    moves, drops = plan_moves(files)
    for f in drops:
        git("rm", "-q", f)
    for src, dst in moves:
        if os.path.exists(dst):
            sys.exit("target exists: " + dst)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        git("mv", src, dst)
    for (src, dst) in moves:
        for old, new in CLASS_MOVES:
            if dst.endswith("/" + pkg_dir(new) + "/" + old.rsplit(".", 1)[1] + ".java"):
                text = open(dst, encoding="utf-8").read()
                open(dst, "w", encoding="utf-8").write(PACKAGE_LINE.sub("package " + new + ";", text, count=1))
    files = tracked_files()
    changed = 0
    for f in files:
        if f == SELF or not f.endswith(TEXT_SUFFIXES) and "META-INF/services/" not in f:
            continue
        try:
            text = open(f, encoding="utf-8").read()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        out = rename_for(text)
        if f.endswith("module-info.java"):
            out = dedupe_exports(out)
        elif f.endswith(".java") and out != text:
            out = drop_own_package_imports(out)
        if out != text:
            open(f, "w", encoding="utf-8").write(out)
            changed += 1
    fix_imports(files)
    # A services file is named after the interface; rename it if the interface moved.
    for f in files:
        if "META-INF/services/" in f:
            base = os.path.basename(f)
            new = rename_for(base)
            if new != base:
                git("mv", f, os.path.join(os.path.dirname(f), new))
    print(f"moved {len(moves)} files, dropped {len(drops)} package-info files, rewrote {changed} files")


if __name__ == "__main__":
    main()
