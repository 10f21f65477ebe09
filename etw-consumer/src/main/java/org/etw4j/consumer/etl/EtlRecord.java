package org.etw4j.consumer.etl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.etw4j.Guid;

/**
 * An immutable snapshot of one .etl record, made by {@link EtlRecordView#copy()}.
 *
 * <p>Immutable value; thread-safe; independent of the file (stays valid after it is closed). Byte arrays
 * are copied in and out. Field meanings are those of the {@link EtlRecordView} getters of the same names.
 *
 * @param file             name of the file the record came from
 * @param kind             header kind
 * @param headerType       raw header type byte
 * @param pointerSize      4 or 8
 * @param providerId       provider id as defined by {@link EtlRecordView#providerId()}
 * @param eventId          event id (or message number)
 * @param version          event version
 * @param channel          channel
 * @param level            level
 * @param opcode           opcode
 * @param task             task
 * @param keyword          keyword mask
 * @param hookId           kernel hook id, 0 for non-kernel records
 * @param processId        process id or -1
 * @param threadId         thread id or -1
 * @param processorIndex   processor
 * @param timestamp        raw timestamp
 * @param fileTime         timestamp as FILETIME
 * @param kernelTime       kernel time, 0 when absent
 * @param userTime         user time, 0 when absent
 * @param activityId       activity id, GUID_NULL when absent
 * @param headerFlags      EVENT_HEADER Flags, 0 for other kinds
 * @param eventProperty    EVENT_HEADER EventProperty
 * @param extendedData     extended data items in stored order
 * @param userData         payload bytes
 * @param bufferIndex      buffer index in file order
 * @param bufferFileOffset file offset of the buffer
 * @param offsetInBuffer   offset of the record in its (decompressed) buffer
 */
public record EtlRecord(
        String file,
        HeaderKind kind,
        int headerType,
        int pointerSize,
        Guid providerId,
        int eventId,
        int version,
        int channel,
        int level,
        int opcode,
        int task,
        long keyword,
        int hookId,
        int processId,
        int threadId,
        int processorIndex,
        long timestamp,
        long fileTime,
        long kernelTime,
        long userTime,
        Guid activityId,
        int headerFlags,
        int eventProperty,
        List<ExtendedData> extendedData,
        byte[] userData,
        long bufferIndex,
        long bufferFileOffset,
        int offsetInBuffer) {

    public EtlRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(activityId, "activityId");
        extendedData = List.copyOf(extendedData);
        userData = userData.clone();
    }

    /** A copy of the payload. */
    @Override
    public byte[] userData() {
        return userData.clone();
    }

    /** The payload as a read-only little-endian buffer (no copy). */
    public ByteBuffer userDataBuffer() {
        return ByteBuffer.wrap(userData).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The timestamp as an instant (100 ns resolution). */
    public Instant instant() {
        return EtlClock.fileTimeToInstant(fileTime);
    }

    /** Component-wise equality, the payload compared by content. */
    @Override
    public boolean equals(Object o) {
        return o instanceof EtlRecord r && file.equals(r.file) && kind == r.kind && headerType == r.headerType
                && pointerSize == r.pointerSize && providerId.equals(r.providerId) && eventId == r.eventId
                && version == r.version && channel == r.channel && level == r.level && opcode == r.opcode
                && task == r.task && keyword == r.keyword && hookId == r.hookId && processId == r.processId
                && threadId == r.threadId && processorIndex == r.processorIndex && timestamp == r.timestamp
                && fileTime == r.fileTime && kernelTime == r.kernelTime && userTime == r.userTime
                && activityId.equals(r.activityId) && headerFlags == r.headerFlags && eventProperty == r.eventProperty
                && extendedData.equals(r.extendedData) && java.util.Arrays.equals(userData, r.userData)
                && bufferIndex == r.bufferIndex && bufferFileOffset == r.bufferFileOffset
                && offsetInBuffer == r.offsetInBuffer;
    }

    @Override
    public int hashCode() {
        return Objects.hash(file, kind, headerType, providerId, eventId, opcode, timestamp, bufferIndex, offsetInBuffer)
                * 31 + java.util.Arrays.hashCode(userData);
    }

    @Override
    public String toString() {
        return "EtlRecord[" + kind + " provider=" + providerId + " id=" + eventId + " opcode=" + opcode + " pid=" + processId
                + " tid=" + threadId + " cpu=" + processorIndex + " time=" + instant() + " userData=" + userData.length
                + " bytes, buffer " + bufferIndex + " +0x" + Integer.toHexString(offsetInBuffer) + "]";
    }

    /**
     * One extended data item.
     *
     * <p>Immutable value; thread-safe; the array is copied in and out.
     *
     * @param type {@code EVENT_HEADER_EXT_TYPE_*}
     * @param data the item's data
     */
    public record ExtendedData(int type, byte[] data) {
        public ExtendedData {
            data = data.clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ExtendedData e && type == e.type && java.util.Arrays.equals(data, e.data);
        }

        @Override
        public int hashCode() {
            return 31 * type + java.util.Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "ExtendedData[type=" + type + ", " + data.length + " bytes]";
        }
    }
}
