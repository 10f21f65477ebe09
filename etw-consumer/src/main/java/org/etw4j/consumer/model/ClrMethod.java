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
 * @param moduleId   the method events' ModuleID: the CLR's id of the module (assembly file) holding the method
 * @param modulePath the module's ModuleILPath as the trace's CLR loader events give it for that ModuleID
 *                   (runtime ModuleLoad 152 / ModuleUnload 153, rundown ModuleDCStart 153 / ModuleDCEnd 154; template
 *                   ModuleLoadUnload*, ClrEtwAll.man), or {@code null} when the trace has none (loader keyword off)
 */
public record ClrMethod(int processId, long start, long size, String fullName, long load, long unload, long moduleId,
                        String modulePath) {

    /** A method whose module is unknown (the form before modules were read). */
    public ClrMethod(int processId, long start, long size, String fullName, long load, long unload) {
        this(processId, start, size, fullName, load, unload, 0, null);
    }

    /**
     * The module name as PerfView shows it before {@code !}: the IL file name without directory and extension
     * ({@code mscorlib}, {@code Test.x64}); {@code null} when the module is unknown.
     */
    public String moduleName() {
        return modulePath == null ? null : org.etw4j.consumer.ProcessInfo.nameOf(modulePath.replace('/', '\\'));
    }

    /** {@code Module!Namespace.Type.Method} as PerfView names the frame, or {@link #fullName()} without a module. */
    public String qualifiedName() {
        String m = moduleName();
        return m == null ? fullName : m + "!" + fullName;
    }

    /** {@code namespace.name}, or {@code name} when the namespace is empty. */
    static String fullName(String namespace, String name) {
        return namespace.isEmpty() ? name : namespace + "." + name;
    }

    /** Whether {@code address} lies in {@code [start, start + size)} (unsigned). */
    public boolean contains(long address) {
        return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address - start, size) < 0;
    }
}
