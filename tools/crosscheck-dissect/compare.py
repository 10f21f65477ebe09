"""Diffs EtlRecordFacts.java output (argument 1) with dissect_facts.py output (argument 2); exit 1 on a difference."""
# Compares our reader's per-record facts with fox-it dissect.etl's, adjusting for two dissect conventions seen on
# real Windows files too: GUIDs printed from the little-endian bytes as if big-endian, and a payload that starts at
# the extended data items when a record has any (their extended items themselves are compared).
import sys, datetime, uuid
def fix_guid(g):
    return str(uuid.UUID(bytes_le=uuid.UUID(g).bytes))
ours = open(sys.argv[1]).read().splitlines()
theirs = open(sys.argv[2]).read().splitlines()
print('records: ours', len(ours), 'theirs', len(theirs))
bad = 0; maxdt = 0; payload_compared = 0; ext_compared = 0
for i, (a, b) in enumerate(zip(ours, theirs)):
    pa, pb = a.split(' '), b.split(' ')
    if pa[0] == 'EVENT_HEADER':
        pb[1] = fix_guid(pb[1])
    ta = datetime.datetime.fromisoformat(pa[2].replace('Z', '+00:00')); tb = datetime.datetime.fromisoformat(pb[2].replace('Z', '+00:00'))
    dt = abs((ta - tb).total_seconds()) * 1e6
    maxdt = max(maxdt, dt)
    has_ext = pa[0] == 'EVENT_HEADER' and pa[11] != ''
    same = pa[:2] == pb[:2] and dt <= 2
    if pa[0] == 'EVENT_HEADER':
        same = same and pa[3:11] == pb[3:11]
        # dissect guesses extended items from the payload bytes whatever the header's EXTENDED_INFO flag says
        # (e.g. a payload starting 08 00 00 00 ... reads as an empty item): compare them only where the flag is set
        # and it does not stop at the item without the linkage bit (a stack trace item is followed by a guessed
        # empty one): compare as many items as the header announces
        ours_items = pa[11].split(',')[:-1]
        same = same and (not has_ext or ours_items == pb[11].split(',')[:len(ours_items)])
        ext_compared += has_ext
    if not has_ext:
        same = same and pa[-1] == pb[-1]
        payload_compared += 1
    if not same:
        bad += 1
        if bad <= 5:
            print('DIFF', i, '\n  ours  ', a[:300], '\n  theirs', b[:300])
if len(ours) != len(theirs):
    bad += 1
print('differing records:', bad, '| payloads compared:', payload_compared, '| records with extended items compared:',
      ext_compared, '| max timestamp difference (us):', maxdt)
sys.exit(1 if bad else 0)
