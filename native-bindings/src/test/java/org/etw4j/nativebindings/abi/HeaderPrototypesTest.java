package org.etw4j.nativebindings.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The -aux-info lines HeaderPrototypes reads (as x86_64-w64-mingw32-gcc 12 prints them); no compiler needed. */
class HeaderPrototypesTest {

    @Test
    void readsReturnTypeParametersAndPlace() {
        Map<String, HeaderPrototypes.Prototype> p = HeaderPrototypes.parse("""
                /* /usr/share/mingw-w64/include/evntrace.h:912:NC */ extern ULONG ControlTraceW (TRACEHANDLE, LPCWSTR, PEVENT_TRACE_PROPERTIES, ULONG);
                /* /usr/share/mingw-w64/include/evntrace.h:868:NC */ extern ULONG QueryAllTracesW (PEVENT_TRACE_PROPERTIES *, ULONG, PULONG);
                /* /usr/share/mingw-w64/include/evntrace.h:899:NC */ extern TRACEHANDLE OpenTraceW (PEVENT_TRACE_LOGFILEW);
                """);
        assertEquals(new HeaderPrototypes.Prototype("ControlTraceW", "ULONG",
                List.of("TRACEHANDLE", "LPCWSTR", "PEVENT_TRACE_PROPERTIES", "ULONG"),
                "/usr/share/mingw-w64/include/evntrace.h:912"), p.get("ControlTraceW"));
        assertEquals(List.of("PEVENT_TRACE_PROPERTIES *", "ULONG", "PULONG"), p.get("QueryAllTracesW").parameterTypes());
        assertEquals("TRACEHANDLE", p.get("OpenTraceW").returnType());
    }

    @Test
    void keepsFunctionPointerParametersWholeAndReadsVoidAsNoParameter() {
        Map<String, HeaderPrototypes.Prototype> p = HeaderPrototypes.parse("""
                /* a.h:1:NC */ extern void *f (void (*)(int, long int), const char *);
                /* a.h:2:NC */ extern int g (void);
                /* a.h:3:NC */ extern int g (int);
                """);
        assertEquals(new HeaderPrototypes.Prototype("f", "void *", List.of("void (*)(int, long int)", "const char *"),
                "a.h:1"), p.get("f"));
        assertEquals(List.of(), p.get("g").parameterTypes(), "the first declaration wins");
    }
}
