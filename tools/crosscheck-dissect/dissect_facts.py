"""Prints the lines EtlRecordFacts.java prints, as fox-it's dissect.etl (an independent .etl parser) reads the file.

Usage: dissect_facts.py FILE.etl   (with dissect.etl, dissect.cstruct 4.x, dissect.util 3.x and defusedxml importable)
"""
import sys

from dissect.etl.etl import ETL

KIND = {'SystemHeader': 'SYSTEM_TRACE_HEADER', 'EventHeader': 'EVENT_HEADER',
        'PerfinfoTraceHeader': 'PERFINFO_TRACE_HEADER', 'EventTraceHeader': 'EVENT_TRACE_HEADER',
        'EventInstanceGUIDHeader': 'EVENT_INSTANCE_GUID_HEADER', 'MessageTraceHeader': 'MESSAGE_TRACE_HEADER'}

with open(sys.argv[1], 'rb') as fh:
    for ev in ETL(fh):
        h = ev._header
        name = type(h).__name__
        out = [KIND.get(name, name), str(h.provider_id), h.timestamp.strftime('%Y-%m-%dT%H:%M:%S.%fZ')]
        if name == 'EventHeader':
            d = h.descriptor
            out += [str(h.process_id), str(h.thread_id), str(d.id), str(d.version), str(d.opcode), str(d.level),
                    str(d.keywords), str(h.activity_id)]
            out.append(''.join(f"{int(i.ext_type)}:{bytes(i.raw_data)[:i.data_size].hex()}," for i in h.header_extensions))
        out.append(bytes(h.payload).hex())
        print(' '.join(out))
