package org.etw4j.nativebindings.abi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns a Java {@link GroupLayout} into the C member designators it claims to describe, with the offset,
 * size and alignment the Java side gives each: every named member, nested structs and unions included
 * (their members are designated {@code outer.inner}), array elements of structure type through
 * {@code array[0]}. Anonymous members (jextract names them {@code $anon$...}) add no designator, as in C,
 * where their members are reached directly. Padding is skipped: it is checked through the offsets and sizes
 * around it.
 *
 * <p>Test helper; stateless.
 */
final class LayoutWalker {

    /** One member as the Java layout describes it; {@code path} is a C member designator. */
    record Member(String path, long offset, long size, long alignment) {
    }

    private LayoutWalker() {
    }

    /** Members of {@code layout}, skipping the top-level members named in {@code skip} (bit-field words). */
    static List<Member> members(GroupLayout layout, Set<String> skip) {
        List<Member> out = new ArrayList<>();
        walk(layout, "", 0, skip, out);
        return out;
    }

    private static void walk(GroupLayout group, String prefix, long base, Set<String> skip, List<Member> out) {
        long offset = 0;
        for (MemoryLayout member : group.memberLayouts()) {
            long memberOffset = group instanceof StructLayout ? offset : 0;
            if (group instanceof StructLayout) {
                offset += member.byteSize();
            }
            if (member instanceof PaddingLayout) {
                continue;
            }
            String name = member.name().orElse("");
            boolean anonymous = name.isEmpty() || name.startsWith("$anon$");
            if (anonymous) {
                if (member instanceof GroupLayout nested) {
                    walk(nested, prefix, base + memberOffset, Set.of(), out);
                    continue;
                }
                throw new IllegalStateException("unnamed non-group member in " + group);
            }
            if (prefix.isEmpty() && skip.contains(name)) {
                continue;
            }
            String path = prefix.isEmpty() ? name : prefix + "." + name;
            out.add(new Member(path, base + memberOffset, member.byteSize(), member.byteAlignment()));
            if (member instanceof GroupLayout nested) {
                walk(nested, path, base + memberOffset, Set.of(), out);
            } else if (member instanceof SequenceLayout array && array.elementLayout() instanceof GroupLayout element) {
                walk(element, path + "[0]", base + memberOffset, Set.of(), out);
            }
        }
    }
}
