package org.etw4j;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class Win32ErrorTest {
    @Test
    void seed002_writeStatusesHaveTheirWin32Codes() {
        assertEquals(0, Win32Error.ERROR_SUCCESS.code());
        assertEquals(87, Win32Error.ERROR_INVALID_PARAMETER.code());
        assertEquals(6, Win32Error.ERROR_INVALID_HANDLE.code());
        assertEquals(534, Win32Error.ERROR_ARITHMETIC_OVERFLOW.code());
        assertEquals(234, Win32Error.ERROR_MORE_DATA.code());
        assertEquals(8, Win32Error.ERROR_NOT_ENOUGH_MEMORY.code());
        assertEquals(0xC0000188, Win32Error.STATUS_LOG_FILE_FULL.code());
        assertEquals(Win32Error.UNKNOWN, Win32Error.of(999_999));
    }

    @Test
    void exceptionNamesFunctionCodeSymbolAndAdvice() {
        EtwException e = new EtwException("StartTraceW", 5, "session 'x'");
        assertEquals("StartTraceW", e.function());
        assertEquals(Win32Error.ERROR_ACCESS_DENIED, e.error());
        assertTrue(e.getMessage().startsWith("StartTraceW failed: ERROR_ACCESS_DENIED (5): access denied (session 'x')."), e.getMessage());
        assertTrue(e.getMessage().contains("Performance Log Users"), "actionable text for access denied");
        assertTrue(new EtwException("StartTraceW", 1450, null).getMessage().contains("too many sessions"));
        assertTrue(new EtwException("StartTraceW", 183, null).getMessage().contains("attach to it, or replace it"));
        assertTrue(new EtwException("X", 12345, null).getMessage().contains("status (12345)"));
    }
}
