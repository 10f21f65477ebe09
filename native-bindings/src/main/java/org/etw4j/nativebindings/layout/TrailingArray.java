package org.etw4j.nativebindings.layout;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code ANYSIZE_ARRAY} member that ends a variable-length Windows structure (for example
 * {@code TRACE_EVENT_INFO.EventPropertyInfoArray}): jextract declares it with one element, while the buffer
 * filled by Windows holds as many as a count field says. This gives the element offsets and slices past
 * that first element.
 *
 * <p>Immutable value, thread-safe. Slices alias the caller's buffer and share its lifetime.
 *
 * @param structName   C name of the structure, for messages and the ABI test
 * @param header       generated layout of the structure (with its one-element array)
 * @param arrayName    C name of the trailing array member
 * @param arrayOffset  byte offset of element 0
 * @param element      layout of one element
 */
public record TrailingArray(String structName, GroupLayout header, String arrayName, long arrayOffset,
                            MemoryLayout element) {

    /** Checks the components. */
    public TrailingArray {
        Objects.requireNonNull(structName, "structName");
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(arrayName, "arrayName");
        Objects.requireNonNull(element, "element");
    }

    /** Finds {@code arrayName}, a sequence member at the top level of the generated {@code header}. */
    public static TrailingArray of(String structName, GroupLayout header, String arrayName) {
        MemoryLayout.PathElement path = MemoryLayout.PathElement.groupElement(arrayName);
        if (!(header.select(path) instanceof SequenceLayout array)) {
            throw new IllegalArgumentException(structName + "." + arrayName + " is not an array");
        }
        return new TrailingArray(structName, header, arrayName, header.byteOffset(path), array.elementLayout());
    }

    /** Byte offset of element {@code index} from the start of the structure. */
    public long offsetOf(long index) {
        if (index < 0) {
            throw new IndexOutOfBoundsException(structName + "." + arrayName + "[" + index + "]");
        }
        return arrayOffset + index * element.byteSize();
    }

    /**
     * Element {@code index} of the structure at the start of {@code buffer}.
     *
     * @throws IndexOutOfBoundsException if the element does not lie within {@code buffer}
     */
    public MemorySegment element(MemorySegment buffer, long index) {
        return buffer.asSlice(offsetOf(index), element);
    }

    /**
     * The structure's layout with {@code count} elements instead of one, padded to the structure's
     * alignment as a C declaration with {@code [count]} would be.
     */
    public StructLayout layout(long count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        List<MemoryLayout> members = new ArrayList<>();
        for (MemoryLayout member : header.memberLayouts()) {
            if (member.name().filter(arrayName::equals).isPresent()) {
                members.add(MemoryLayout.sequenceLayout(count, element).withName(arrayName));
                break;
            }
            members.add(member);
        }
        long size = offsetOf(count);
        long align = header.byteAlignment();
        long padded = (size + align - 1) / align * align;
        if (padded > size) {
            members.add(MemoryLayout.paddingLayout(padded - size));
        }
        StructLayout layout = MemoryLayout.structLayout(members.toArray(MemoryLayout[]::new));
        return header.name().map(layout::withName).orElse(layout);
    }
}
