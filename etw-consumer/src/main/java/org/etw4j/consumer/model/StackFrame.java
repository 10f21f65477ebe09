package org.etw4j.consumer.model;

/**
 * One frame of a resolved stack. Immutable value; thread-safe.
 *
 * <p>Names: {@code module!+0xOFFSET} for an address inside an image the trace describes (module as PerfView
 * names it: file name without extension; offset from the image base, lower-case hex), {@code 0xADDRESS} for an
 * address in no known image, {@code Module!Namespace.Type.Method+0xOFFSET} for .NET code the CLR compiled at run time
 * (from the trace's CLR method and module events, {@link ClrMethod#qualifiedName()}; without module events
 * {@code Namespace.Type.Method+0xOFFSET}), {@code ?!stack-key} for the part of a stack whose cached-stack key the trace never
 * defined. Native function names need the images' PDB symbol files, which a trace does not carry: not resolved.
 *
 * @param name   the frame's text (see above)
 * @param image  the image holding the address, or {@code null}
 * @param method the JIT-compiled method holding the address (when no image does), or {@code null}
 * @param offset the address minus the image base or method start, or the address itself when both are
 *               {@code null}
 */
public record StackFrame(String name, TraceImage image, ClrMethod method, long offset) {

    /** Name of the frame standing for a stack part whose stack key the trace never defined. */
    public static final String UNKNOWN_KEY = "?!stack-key";

    static StackFrame of(TraceImage image, ClrMethod method, long address) {
        if (image != null) {
            long offset = address - image.base();
            return new StackFrame(image.moduleName() + "!+0x" + Long.toHexString(offset), image, null, offset);
        }
        if (method != null) {
            long offset = address - method.start();
            return new StackFrame(method.qualifiedName() + "+0x" + Long.toHexString(offset), null, method, offset);
        }
        return new StackFrame("0x" + Long.toHexString(address), null, null, address);
    }

    /** The absolute address, or {@code -1} for {@link #UNKNOWN_KEY}. */
    public long address() {
        if (image != null) {
            return image.base() + offset;
        }
        if (method != null) {
            return method.start() + offset;
        }
        return name.equals(UNKNOWN_KEY) ? -1 : offset;
    }
}
