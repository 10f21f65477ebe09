#!/usr/bin/env python3
"""Lists the CLR events TraceEvent's ClrTraceEventParser, ClrRundownTraceEventParser and ClrPrivateTraceEventParser
know (microsoft/perfview, src/TraceEvent/Parsers/ClrTraceEventParser.cs and ClrPrivateTraceEventParser.cs, MIT),
with the payload properties each reads: facts only (provider, event id, task/opcode names, payload class, property
names; "read" when the getter reads the payload, "computed" otherwise). ClrTraceEventTableTest compares them with
ClrEtwAll.man and etw4j's CLR supplement.

Usage: clr_facts.py ClrTraceEventParser.cs ClrPrivateTraceEventParser.cs COMMIT > clr-traceevent.txt
"""
import re
import sys

PROVIDERS = {'ClrTraceEventParser': 'e13c0d23-ccbc-4e12-931b-d9cc2eee27e4',
             'ClrRundownTraceEventParser': 'a669021c-c450-4609-a035-5af59af4df18',
             'ClrPrivateTraceEventParser': '763fd754-7086-4dfe-95eb-c01a46faf4ca'}


def classes(src):
    out = {}
    for m in re.finditer(r'public sealed class (\w+) : TraceEvent\s*\{(.*?)#region Private(.*?)#endregion', src, re.S):
        body, private = m.group(2), m.group(3)
        pn = re.search(r'payloadNames = new string\[\] \{([^}]*)\}', private)
        names = re.findall(r'"(\w+)"', pn.group(1)) if pn else []
        props = {}
        for pm in re.finditer(r'public (?:override )?([\w\.<>\[\]]+) (\w+)\s*\{', body):
            i, depth = pm.end(), 1
            while depth:
                depth += {'{': 1, '}': -1}.get(body[i], 0)
                i += 1
            props[pm.group(2)] = body[pm.end():i]
        out[m.group(1)] = (names, props)
    return out


def main(clr_path, private_path, commit):
    clr = open(clr_path, encoding='utf-8-sig').read()
    private = open(private_path, encoding='utf-8-sig').read()
    public_classes, private_classes = classes(clr), classes(private)
    # a payload class name means the class of the parser's own file first (both files define, for example, a
    # FinalizeObjectTraceData: the public one computes TypeName from type rundown, the private one reads it)
    own = {'ClrTraceEventParser': {**private_classes, **public_classes},
           'ClrRundownTraceEventParser': {**private_classes, **public_classes},
           'ClrPrivateTraceEventParser': {**public_classes, **private_classes}}
    parts = [(n, clr[clr.index('public sealed class ' + n):]) for n in
             ('ClrTraceEventParser', 'ClrRundownTraceEventParser')]
    parts.append(('ClrPrivateTraceEventParser', private[private.index('public sealed class ClrPrivateTraceEventParser'):]))
    print('# etw4j: the CLR events of TraceEvent\'s ClrTraceEventParser, ClrRundownTraceEventParser and')
    print('# ClrPrivateTraceEventParser (microsoft/perfview %s, MIT), extracted by' % commit)
    print('# tools/traceevent-tables/clr_facts.py. Generated: do not edit. Lines:')
    print('#   C <provider GUID> <event id> <task/opcode> <payload class> read=<names> computed=<names>')
    for parser, text in parts:
        end = text.find('\n    }\n')
        text = text[:end] if end > 0 else text
        seen = set()
        for m in re.finditer(r'new ([\w\.]+)\(null, (\d+), \d+, "(\w*)", \w+, \d+, "(\w*)"', text):
            cls = m.group(1).split('.')[-1]
            key = (int(m.group(2)), m.group(3), m.group(4))
            if key in seen:
                continue
            seen.add(key)
            names, props = own[parser].get(cls, ([], {}))
            read = [n for n in names if n in props and re.search(r'Get\w+At\(|GetHostPointer|GetAddressAt', props[n])]
            computed = [n for n in names if n not in read]
            print('C %s %d %s/%s %s read=%s computed=%s' % (PROVIDERS[parser], key[0], key[1], key[2] or '-', cls,
                                                          ','.join(read), ','.join(computed)))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3])
