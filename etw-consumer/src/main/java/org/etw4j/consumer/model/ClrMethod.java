package org.etw4j.consumer.model;

/**
 * The native code of one .NET method compiled at run time, as the CLR's method events describe it: MethodLoadVerbose
 * (runtime provider e13c0d23-ccbc-4e12-931b-d9cc2eee27e4, event 143), MethodUnloadVerbose (144), and the rundown
 * provider's (a669021c-c450-4609-a035-5af59af4df18) MethodDCStartVerbose (143) / MethodDCEndVerbose (144); template
 * MethodLoadUnloadVerbose(_V1/_V2) of ClrEtwAll.man (MethodID, ModuleID, MethodStartAddress, MethodSize,
 * MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ...). Immutable value; thread-safe.
 *
 * @param processId the process
 * @param start     MethodStartAddress
 * @param size      MethodSize in bytes
 * @param fullName  MethodNamespace (the type's full name), a dot, MethodName: {@code System.String.Concat}
 * @param load      FILETIME of its load event, {@link Long#MIN_VALUE} when compiled before the trace (rundown)
 * @param unload    FILETIME of its unload event, {@link Long#MAX_VALUE} when the trace saw none
 */
public record ClrMethod(int processId, long start, long size, String fullName, long load, long unload) {

    /** {@code namespace.name}, or {@code name} when the namespace is empty. */
    static String fullName(String namespace, String name) {
        return namespace.isEmpty() ? name : namespace + "." + name;
    }

    /** Whether {@code address} lies in {@code [start, start + size)} (unsigned). */
    public boolean contains(long address) {
        return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address - start, size) < 0;
    }
}
