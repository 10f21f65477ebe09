package org.etw4j.consumer.etl;

/**
 * Byte layouts of the classic record headers: EVENT_TRACE_HEADER (0x0A/0x14), EVENT_INSTANCE_GUID_HEADER
 * (0x0B/0x15) and MESSAGE_TRACE_HEADER (WPP/TraceMessage).
 *
 * <p>Constants only. Offsets from the record start, little-endian. Source:
 * ntwmi.h; TraceEvent {@code EVENT_TRACE_HEADER}; dissect.etl {@code c_etl.py}).
 */
final class ClassicLayout {
    private ClassicLayout() {
    }

    static final int HEADER_SIZE = 0x30;
    /** u8 Class.Type: the opcode. */
    static final int CLASS_TYPE = 0x04;
    static final int CLASS_LEVEL = 0x05;
    /** u16 Class.Version. */
    static final int CLASS_VERSION = 0x06;
    static final int THREAD_ID = 0x08;
    static final int PROCESS_ID = 0x0C;
    static final int TIMESTAMP = 0x10;
    /** Event-class GUID (the corpus' expected facts count it as the provider). */
    static final int GUID = 0x18;
    static final int KERNEL_TIME = 0x28;
    static final int USER_TIME = 0x2C;

    static final int INSTANCE_HEADER_SIZE = 0x48;
    static final int INSTANCE_ID = 0x30;
    static final int PARENT_INSTANCE_ID = 0x34;
    static final int PARENT_GUID = 0x38;

    static final int MESSAGE_HEADER_SIZE = 0x08;
    static final int MESSAGE_NUMBER = 0x04;
    static final int MESSAGE_OPTION_FLAGS = 0x06;
}
