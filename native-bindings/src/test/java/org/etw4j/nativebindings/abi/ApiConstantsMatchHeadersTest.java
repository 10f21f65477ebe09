package org.etw4j.nativebindings.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.etw4j.controller.EnableProperty;
import org.etw4j.controller.EventFilter;
import org.etw4j.format.EventHeaderLayout;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.layout.WinConstants;
import org.etw4j.provider.ControlCode;
import org.junit.jupiter.api.Test;

/**
 * etw-api (Java 17, no native code) spells Windows constants itself; they must equal the values jextract took
 * from the Windows headers (which {@link WindowsAbiTest} checks against the mingw-w64 cross compiler) or, where
 * mingw-w64 lacks them, the documented values in {@link WinConstants}.
 */
class ApiConstantsMatchHeadersTest {

    @Test
    void controlCodesAreTheHeaders() {
        assertEquals(EtwNative.EVENT_CONTROL_CODE_DISABLE_PROVIDER(), ControlCode.DISABLE_PROVIDER.value());
        assertEquals(EtwNative.EVENT_CONTROL_CODE_ENABLE_PROVIDER(), ControlCode.ENABLE_PROVIDER.value());
        assertEquals(EtwNative.EVENT_CONTROL_CODE_CAPTURE_STATE(), ControlCode.CAPTURE_STATE.value());
    }

    @Test
    void fileModesAreTheHeaders() {
        assertEquals(EtwNative.EVENT_TRACE_FILE_MODE_SEQUENTIAL(), org.etw4j.controller.LogFileMode.SEQUENTIAL.bit());
        assertEquals(EtwNative.EVENT_TRACE_FILE_MODE_CIRCULAR(), org.etw4j.controller.LogFileMode.CIRCULAR.bit());
        assertEquals(EtwNative.EVENT_TRACE_FILE_MODE_APPEND(), org.etw4j.controller.LogFileMode.APPEND.bit());
        assertEquals(EtwNative.EVENT_TRACE_FILE_MODE_NEWFILE(), org.etw4j.controller.LogFileMode.NEW_FILE.bit());
        // the simulator's TRACE_LOGFILE_HEADER.LogFileMode for a private in-process session (SimulatedBackend)
        assertEquals(0x800, EtwNative.EVENT_TRACE_PRIVATE_LOGGER_MODE());
        assertEquals(0x2_0000, EtwNative.EVENT_TRACE_PRIVATE_IN_PROC());
    }

    @Test
    void enablePropertiesAreTheHeaders() {
        assertEquals(EtwNative.EVENT_ENABLE_PROPERTY_SID(), EnableProperty.SID.bit());
        assertEquals(EtwNative.EVENT_ENABLE_PROPERTY_TS_ID(), EnableProperty.TS_ID.bit());
        assertEquals(EtwNative.EVENT_ENABLE_PROPERTY_STACK_TRACE(), EnableProperty.STACK_TRACE.bit());
        assertEquals(WinConstants.EVENT_ENABLE_PROPERTY_PSM_KEY, EnableProperty.PSM_KEY.bit());
        assertEquals(WinConstants.EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0, EnableProperty.IGNORE_KEYWORD_0.bit());
        assertEquals(WinConstants.EVENT_ENABLE_PROPERTY_PROVIDER_GROUP, EnableProperty.PROVIDER_GROUP.bit());
        assertEquals(WinConstants.EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0, EnableProperty.ENABLE_KEYWORD_0.bit());
        assertEquals(WinConstants.EVENT_ENABLE_PROPERTY_PROCESS_START_KEY, EnableProperty.PROCESS_START_KEY.bit());
        assertEquals(WinConstants.EVENT_ENABLE_PROPERTY_EVENT_KEY, EnableProperty.EVENT_KEY.bit());
        assertEquals(WinConstants.EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE, EnableProperty.EXCLUDE_INPRIVATE.bit());
    }

    @Test
    void filterTypesAndLimitsAreTheHeaders() {
        assertEquals(EtwNative.EVENT_FILTER_TYPE_SCHEMATIZED(), EventFilter.TYPE_SCHEMATIZED);
        assertEquals(WinConstants.EVENT_FILTER_TYPE_PID, EventFilter.TYPE_PID);
        assertEquals(WinConstants.EVENT_FILTER_TYPE_EXECUTABLE_NAME, EventFilter.TYPE_EXECUTABLE_NAME);
        assertEquals(WinConstants.EVENT_FILTER_TYPE_PAYLOAD, EventFilter.TYPE_PAYLOAD);
        assertEquals(WinConstants.EVENT_FILTER_TYPE_EVENT_ID, EventFilter.TYPE_EVENT_ID);
        assertEquals(WinConstants.MAX_EVENT_FILTER_PID_COUNT, EventFilter.MAX_PIDS);
        assertEquals(WinConstants.MAX_EVENT_FILTER_EVENT_ID_COUNT, EventFilter.MAX_EVENT_IDS);
        assertEquals(EtwNative.MAX_EVENT_FILTER_DATA_SIZE(), EventFilter.MAX_DATA_SIZE);
    }

    @Test
    void eventHeaderFlagsAndExtendedTypesAreTheHeaders() {
        assertEquals(EtwNative.EVENT_HEADER_FLAG_EXTENDED_INFO(), EventHeaderLayout.FLAG_EXTENDED_INFO);
        assertEquals(EtwNative.EVENT_HEADER_FLAG_PRIVATE_SESSION(), EventHeaderLayout.FLAG_PRIVATE_SESSION);
        assertEquals(EtwNative.EVENT_HEADER_FLAG_STRING_ONLY(), EventHeaderLayout.FLAG_STRING_ONLY);
        assertEquals(EtwNative.EVENT_HEADER_FLAG_TRACE_MESSAGE(), EventHeaderLayout.FLAG_TRACE_MESSAGE);
        assertEquals(EtwNative.EVENT_HEADER_FLAG_NO_CPUTIME(), EventHeaderLayout.FLAG_NO_CPUTIME);
        assertEquals(EtwNative.EVENT_HEADER_FLAG_32_BIT_HEADER(), EventHeaderLayout.FLAG_32_BIT_HEADER);
        assertEquals(EtwNative.EVENT_HEADER_FLAG_64_BIT_HEADER(), EventHeaderLayout.FLAG_64_BIT_HEADER);
        assertEquals(EtwNative.EVENT_HEADER_FLAG_CLASSIC_HEADER(), EventHeaderLayout.FLAG_CLASSIC_HEADER);
        assertEquals(EtwNative.EVENT_HEADER_FLAG_PROCESSOR_INDEX(), EventHeaderLayout.FLAG_PROCESSOR_INDEX);
        assertEquals(EtwNative.EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID(), EventHeaderLayout.EXT_RELATED_ACTIVITYID);
        assertEquals(EtwNative.EVENT_HEADER_EXT_TYPE_SID(), EventHeaderLayout.EXT_SID);
        assertEquals(EtwNative.EVENT_HEADER_EXT_TYPE_TS_ID(), EventHeaderLayout.EXT_TS_ID);
        assertEquals(EtwNative.EVENT_HEADER_EXT_TYPE_INSTANCE_INFO(), EventHeaderLayout.EXT_INSTANCE_INFO);
        assertEquals(EtwNative.EVENT_HEADER_EXT_TYPE_STACK_TRACE32(), EventHeaderLayout.EXT_STACK_TRACE32);
        assertEquals(EtwNative.EVENT_HEADER_EXT_TYPE_STACK_TRACE64(), EventHeaderLayout.EXT_STACK_TRACE64);
        assertEquals(EtwNative.EVENT_HEADER_EXT_TYPE_PEBS_INDEX(), EventHeaderLayout.EXT_PEBS_INDEX);
        assertEquals(EtwNative.EVENT_HEADER_EXT_TYPE_PMC_COUNTERS(), EventHeaderLayout.EXT_PMC_COUNTERS);
    }
}
