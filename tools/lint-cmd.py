#!/usr/bin/env python3
"""Lints Windows batch files (etw.cmd) on Linux, where cmd.exe is not available: `python3 tools/lint-cmd.py FILE...`.

No batch linter is packaged for Debian or npm, so this checks what breaks batch files in practice, each rule after
cmd.exe's documented or well-known behaviour (Microsoft Learn: cmd, set, if, for, goto, call; SS64's cmd pages):
  - CRLF line endings on every line (with LF only, cmd.exe mis-reads labels and GOTO targets near 512-byte block
    boundaries) and pure ASCII (the console code page is not UTF-8);
  - the first line is `@echo off`, and `setlocal` comes before any `set` (no variables leak into the caller's cmd);
  - every `goto X`, `goto :X` and `call :X` has its `:X` label (`:eof` is built in), no label is defined twice;
  - double quotes balance on every line and parentheses balance over the file, outside quotes and `rem` lines,
    ignoring `^`-escaped ones (an unbalanced one makes cmd.exe read the rest of the file as one block);
  - `for` variables are written `%%X` (a single `%X` works only at the prompt, not in a batch file);
  - `%NAME%` references name a variable the file sets, a parameter, or one of the allowed environment variables
    (a typo in a name silently expands to nothing);
  - no POSIX shell syntax (`$VAR`, `${`, `[ ... ]`, `fi`, `export`) leaked in from bin/etw.
Exit status 1 with one line per finding (FILE:LINE: message); 0 and one "ok" line per file otherwise.
`--self-test` runs the rules on broken variants of a small valid file and fails when one is not caught.
"""
import re
import sys

ENVIRONMENT = {
    # Windows' own and the JDK's
    "JAVA_HOME", "PATH", "PATHEXT", "ProgramFiles", "LOCALAPPDATA", "USERPROFILE", "APPDATA", "TEMP", "TMP",
    "ERRORLEVEL", "CD", "COMSPEC", "OS",
    # what etw.cmd documents as user settings
    "ETW_JAVA_OPTS", "ETW_AOT", "ETW_CACHE_DIR",
}
LABEL_REF = re.compile(r"\b(?:goto\s+:?|call\s+:)([A-Za-z0-9_.-]+)", re.IGNORECASE)
LABEL_DEF = re.compile(r"^\s*:([A-Za-z0-9_.-]+)\s*$")
SET_VAR = re.compile(r"\bset\s+(?:/[ap]\s+)?\"?([A-Za-z0-9_]+)=", re.IGNORECASE)
VAR_REF = re.compile(r"%([A-Za-z_][A-Za-z0-9_]*)(?::[^%]*)?%")
FOR_SINGLE = re.compile(r"\bfor\b(?:\s+/[a-z](?:\s+\"[^\"]*\")?)*\s+%([A-Za-z])\b", re.IGNORECASE)
POSIX = re.compile(r"(\$\{|\$[A-Za-z_(]|^\s*fi\s*$|^\s*export\s|^\s*\[\s.*\s\]\s*(&&|\|\||$))")


def lint(name, data):
    problems = []

    def report(line_no, message):
        problems.append(f"{name}:{line_no}: {message}")

    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as e:
        report(text_line(data, e.start), "not ASCII")
        text = data.decode("ascii", "replace")
    raw_lines = text.split("\n")
    if raw_lines and raw_lines[-1] == "":
        raw_lines.pop()
    lines = []
    for i, raw in enumerate(raw_lines, 1):
        if not raw.endswith("\r"):
            report(i, "line ends with LF only (needs CRLF)")
        lines.append(raw.rstrip("\r"))
    if not lines or lines[0].strip().lower() != "@echo off":
        report(1, "first line is not @echo off")

    labels = {}
    refs = []
    defined = set()
    seen_setlocal = False
    depth = 0
    for i, line in enumerate(lines, 1):
        stripped = line.strip()
        lower = stripped.lower()
        if lower.startswith("rem ") or lower == "rem" or stripped.startswith("::"):
            continue
        m = LABEL_DEF.match(line)
        if m:
            label = m.group(1).lower()
            if label in labels:
                report(i, f"label :{m.group(1)} also defined on line {labels[label]}")
            labels[label] = i
            continue
        if lower.startswith("setlocal"):
            seen_setlocal = True
        for ref in LABEL_REF.finditer(line):
            refs.append((i, ref.group(1)))
        for s in SET_VAR.finditer(line):
            defined.add(s.group(1).upper())
            if not seen_setlocal:
                report(i, "set before setlocal: the variable leaks into the caller's cmd")
        if line.count('"') % 2:
            report(i, "unbalanced double quotes")
        if FOR_SINGLE.search(line):
            report(i, "for variable written %X: a batch file needs %%X")
        if POSIX.search(line):
            report(i, "POSIX shell syntax in a batch file")
        unquoted = re.sub(r'"[^"]*"', "", line.replace("^(", "").replace("^)", ""))
        for ch in unquoted:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth < 0:
                    report(i, "closing parenthesis without an opening one")
                    depth = 0
    if depth != 0:
        report(len(lines), f"{depth} parenthesis(es) left open at the end of the file")
    for i, target in refs:
        if target.lower() != "eof" and target.lower() not in labels:
            report(i, f"goto/call target :{target} has no label")
    for i, line in enumerate(lines, 1):
        if line.strip().lower().startswith("rem "):
            continue
        for ref in VAR_REF.finditer(line.replace("%%", "")):
            var = ref.group(1)
            if var.upper() not in defined and var not in ENVIRONMENT and var.upper() not in {e.upper() for e in ENVIRONMENT}:
                report(i, f"%{var}% is neither set in this file nor an allowed environment variable")
    return problems


def text_line(data, offset):
    return data[:offset].count(b"\n") + 1


GOOD = (b"@echo off\r\nsetlocal\r\nset \"A=1\"\r\nif \"%A%\"==\"1\" (\r\n  call :sub \"%A%\"\r\n)\r\n"
        b"for %%I in (a b) do echo %%I\r\nexit /b 0\r\n:sub\r\necho %~1\r\ngoto :eof\r\n")
BROKEN = {
    "LF only": GOOD.replace(b"\r\n", b"\n"),
    "missing label": GOOD.replace(b"call :sub", b"call :nosuch"),
    "open parenthesis": GOOD.replace(b")\r\nfor", b"for"),
    "unbalanced quote": GOOD.replace(b"set \"A=1\"", b"set \"A=1"),
    "single-percent for": GOOD.replace(b"%%I in", b"%I in"),
    "unknown variable": GOOD.replace(b"\"%A%\"==", b"\"%AA%\"=="),
    "posix syntax": GOOD.replace(b"exit /b 0", b"export A=1"),
    "set before setlocal": GOOD.replace(b"setlocal\r\n", b"").replace(b"exit /b 0", b"setlocal\r\nexit /b 0"),
    "no echo off": GOOD.replace(b"@echo off\r\n", b"echo on\r\n"),
}


def self_test():
    ok = True
    if lint("good", GOOD):
        print("lint-cmd: self-test: the valid sample is rejected: " + "; ".join(lint("good", GOOD)), file=sys.stderr)
        ok = False
    for what, data in BROKEN.items():
        if not lint(what, data):
            print(f"lint-cmd: self-test: '{what}' is not caught", file=sys.stderr)
            ok = False
    return ok


def main(argv):
    if not self_test():
        return 1
    failed = False
    for name in argv[1:]:
        if name == "--self-test":
            continue
        with open(name, "rb") as f:
            problems = lint(name, f.read())
        for p in problems:
            print(p, file=sys.stderr)
        if problems:
            failed = True
        else:
            print(f"lint-cmd: {name}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
