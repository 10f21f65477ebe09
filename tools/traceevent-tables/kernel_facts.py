#!/usr/bin/env python3
"""Extracts the facts of TraceEvent's classic kernel event parser into etw4j's own table format.

Input: src/TraceEvent/Parsers/KernelTraceEventParser.cs of microsoft/perfview (MIT), read as data. What is taken
are facts only: the event-class GUIDs, each template's (class GUID, opcode, task name, opcode name), the versions
each payload class accepts (its Dispatch assertions), and for each payload property read straight from the
payload, its name, wire type and byte offset for 32- and 64-bit pointers. No C# is carried over; the decoders are
etw4j's (KernelSchemas reads the generated table, kernel-overrides.txt holds the layouts written by hand).

Usage: kernel_facts.py KernelTraceEventParser.cs COMMIT > kernel-traceevent.txt
The output format is described in its own header.
"""
import re
import sys

TYPE_OF_GETTER = {
    'GetByteAt': 'u8', 'GetInt16At': 'i16', 'GetInt32At': 'i32', 'GetInt64At': 'i64', 'GetAddressAt': 'ptr',
    'GetHostPointer': 'ptr', 'GetIntPtrAt': 'ptr', 'GetUnicodeStringAt': 'ustr', 'GetUTF8StringAt': 'astr',
    'GetGuidAt': 'guid', 'GetIPAddrV6At': 'ipv6', 'GetFixedUnicodeStringAt': 'fstr',
}


def guid_of(args):
    """A C# new Guid(...) argument list as text."""
    nums = [int(x, 16) if x.lower().startswith('0x') else int(x)
            for x in re.findall(r'(0x[0-9A-Fa-f]+|\b\d+\b)', re.sub(r'unchecked\(\((?:int|short)\)', '', args))]
    nums = [n for n in nums]
    a, b, c = nums[0] & 0xFFFFFFFF, nums[1] & 0xFFFF, nums[2] & 0xFFFF
    rest = ''.join('%02x' % (n & 0xFF) for n in nums[3:11])
    return '%08x-%04x-%04x-%s-%s' % (a, b, c, rest[:4], rest[4:])


def offset(expr, ptr):
    """The byte offset an offset expression gives for a pointer size, or None when it depends on the data."""
    e = expr.strip()
    e = re.sub(r'HostOffset\((\w+),\s*(\d+)\)', lambda m: '(%s+%d)' % (m.group(1), int(m.group(2)) * (ptr - 4)), e)
    if re.fullmatch(r'[0-9xXa-fA-F+()\s]+', e):
        try:
            return eval(e)
        except Exception:
            return None
    return None


def branch(text, version):
    """The return expression of a getter for one version (simple if/else on Version), or None."""
    t = re.sub(r'\s+', ' ', text).strip()
    m = re.fullmatch(r'get \{ return (.*?); \}', t)
    if m:
        return m.group(1)
    m = re.fullmatch(r'get \{ if \(Version (>=|<|>|<=|==) (\d+)\) \{? ?return (.*?); \}? ?(?:else \{ )?return (.*?);'
                     r' ?\}? ?\}', t)
    if m:
        op, n = m.group(1), int(m.group(2))
        cond = {'>=': version >= n, '<': version < n, '>': version > n, '<=': version <= n, '==': version == n}[op]
        return m.group(3) if cond else m.group(4)
    return None


OPERAND = r'(\w+\([^()]*\)|\d+)'
TERNARY = re.compile(r'(?:\((?:Layout)?Version\s*(<=|>=|<|>|==)\s*(\d+)\)|(?:Layout)?Version\s*(<=|>=|<|>|==)\s*(\d+))'
                     r'\s*\?\s*' + OPERAND + r'\s*:\s*' + OPERAND)


def resolve_ternaries(expr, version):
    """Replaces "Version OP N ? A : B" (LayoutVersion is Version for classic events) by A or B."""
    def pick(m):
        op, n = m.group(1) or m.group(3), int(m.group(2) or m.group(4))
        cond = {'>=': version >= n, '<': version < n, '>': version > n, '<=': version <= n, '==': version == n}[op]
        return m.group(5) if cond else m.group(6)
    return TERNARY.sub(pick, expr)


def read_of(expr):
    """(type, offset expression) of the one payload read in a return expression, or None."""
    calls = re.findall(r'(Get\w+?At|GetHostPointer)\(', expr)
    calls = [c for c in calls if c != 'GetByteAt' or len(calls) == 1]
    if len(calls) != 1 or calls[0] not in TYPE_OF_GETTER:
        return None
    i = expr.index(calls[0] + '(') + len(calls[0]) + 1
    depth, j = 1, i
    while depth:
        depth += {'(': 1, ')': -1}.get(expr[j], 0)
        j += 1
    typ, arg = TYPE_OF_GETTER[calls[0]], expr[i:j - 1]
    if typ == 'fstr':  # GetFixedUnicodeStringAt(characters, offset)
        chars, arg = arg.split(',', 1)
        typ = 'fstr%d' % int(chars)
    elif 'ByteSwap16' in expr:
        typ = 'port'  # a 16-bit port in network byte order
    elif 'IPAddress' in expr and typ == 'i32':
        typ = 'ipv4'
    return typ, arg


def main(path, commit):
    src = open(path, encoding='utf-8-sig').read()
    kernel = src[src.index('public sealed class KernelTraceEventParser'):src.index('class KernelTraceEventParserState')]
    guids = {m.group(1): guid_of(m.group(2)) for m in
             re.finditer(r'static readonly Guid (\w+) = new Guid\(([^;]*)\);', kernel)}
    enum = kernel[kernel.index('void EnumerateTemplates'):]
    templates = []
    for m in re.finditer(r'templates\[\d+\] = new (\w+)\(null, (0xFFFF|\d+), \d+, "(\w*)", (\w+(?:\.Empty)?), (\d+), '
                         r'"(\w*)", (\w+), (\w+|"[^"]*")', enum):
        cls, eid, task, task_guid, opcode, opname, prov_guid, prov_name = m.groups()
        if task_guid == 'Guid.Empty':
            templates.append(('M', guids[prov_guid], int(eid), task, opname, cls))
        else:
            templates.append(('K', guids[task_guid], int(opcode), task, opname, cls))
    out = []
    out.append('# etw4j kernel table: facts of TraceEvent\'s KernelTraceEventParser (microsoft/perfview %s,' % commit)
    out.append('# src/TraceEvent/Parsers/KernelTraceEventParser.cs, MIT), extracted by')
    out.append('# tools/traceevent-tables/kernel_facts.py. Generated: do not edit; hand-written layouts live in')
    out.append('# kernel-overrides.txt. Lines:')
    out.append('#   E K|M <class or provider GUID> <opcode (K) or event id (M)> <task> <opcode name> <payload class>')
    out.append('#   V <payload class> <versions TraceEvent asserts, "+" after the last: and later ones; "*": it asserts')
    out.append('#     none and reads every version alike (its facts are listed as version 0)>')
    out.append('#   F <payload class> <version> <field> <type> <offset with 4-byte pointers> <offset with 8>')
    out.append('#     <p: in TraceEvent\'s PayloadNames, x: another property of the class that reads the payload>')
    out.append('#     (offset "-": after the variable-length field before it)')
    out.append('#   U <payload class> <field> <why it is not a plain payload read>')
    for t in templates:
        out.append('E %s %s %d %s %s %s' % (t[0], t[1], t[2], t[3], t[4] or '-', t[5]))
    classes = sorted({t[5] for t in templates})
    for cls in classes:
        m = re.search(r'public sealed class %s : TraceEvent\s*\{(.*?)#region Private(.*?)#endregion' % cls, src, re.S)
        if not m:
            out.append('U %s * payload class not found' % cls)
            continue
        body, private = m.group(1), m.group(2)
        pn = re.search(r'payloadNames = new string\[\] \{([^}]*)\}', private)
        names = re.findall(r'"(\w+)"', pn.group(1)) if pn else []
        eq = sorted({int(v) for v in re.findall(r'Version == (\d+) &&', private)})
        gt = [int(v) for v in re.findall(r'Version > (\d+) &&', private)]
        versions = eq or [0]
        later = bool(gt)
        if gt and max(gt) + 1 not in versions and max(gt) + 1 > max(versions):
            versions.append(max(gt) + 1)
        if not eq and not gt:
            out.append('V %s *' % cls)  # no version assertion: one reading for every version
        else:
            out.append('V %s %s%s' % (cls, ' '.join(map(str, versions)), '+' if later else ''))
        props = {}
        for pm in re.finditer(r'(?:public|internal|private|protected) (?:override |unsafe )*([\w\.<>\[\]]+) (\w+)\s*\{',
                              body):
            i, depth = pm.end(), 1
            while depth:
                depth += {'{': 1, '}': -1}.get(body[i], 0)
                i += 1
            props[pm.group(2)] = (pm.group(1), re.sub(r'//[^\n]*', '', body[pm.end() - 1:i]))
        # properties outside PayloadNames that read the payload (e.g. InitialTimeQPC) are facts too: they say
        # what the bytes between the payload properties are
        extra = [n for n, (t, g) in props.items() if n not in names and re.search(r'Get\w+At\(', g)
                 and 'Skip' not in g]
        for name in names + extra:
            if name not in props:
                out.append('U %s %s not a property of the payload class' % (cls, name))
                continue
            ctype, text = props[name]
            g = re.sub(r'\s+', ' ', text.strip()[1:-1]).strip()
            for v in versions:
                expr = branch(g, v)
                if expr is None:
                    out.append('U %s %s getter not a plain read: %s' % (cls, name, g[:160]))
                    break
                if re.fullmatch(r'(0|""|-1|null|\w+\.None)', expr.strip()):
                    continue  # not in this version
                r = read_of(resolve_ternaries(expr, v))
                if r is None:
                    out.append('U %s %s getter not a plain read: %s' % (cls, name, g[:160]))
                    break
                typ, off = r
                if typ == 'i32' and ctype in ('uint',):
                    typ = 'u32'
                if typ == 'i64' and ctype in ('ulong',):
                    typ = 'u64'
                if typ == 'i16' and ctype in ('ushort', 'int'):
                    typ = 'u16' if ctype == 'ushort' else 'i16'
                o4, o8 = offset(off, 4), offset(off, 8)
                out.append('F %s %d %s %s %s %s %s' % (cls, v, name, typ, '-' if o4 is None else o4,
                                                      '-' if o8 is None else o8, 'x' if name in extra else 'p'))
    print('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
