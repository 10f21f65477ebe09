package org.etw4j.contract;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.etw4j.Guid;
import org.etw4j.RawEventRecord;
import org.etw4j.format.EventHeaderLayout;

/**
 * A copy of one delivered record, for assertions (tests only).
 *
 * @param providerId provider
 * @param id         event id
 * @param version    version
 * @param channel    channel
 * @param level      level
 * @param opcode     opcode
 * @param task       task
 * @param keyword    keyword
 * @param pid        process id
 * @param tid        thread id
 * @param timestamp  FILETIME
 * @param activityId activity id
 * @param related    related activity id, or null
 * @param extTypes   extended item types in order
 * @param extData    extended item data in order
 * @param userData   user data
 */
record RecordedEvent(Guid providerId, int id, int version, int channel, int level, int opcode, int task, long keyword,
                     int pid, int tid, long timestamp, Guid activityId, Guid related, List<Integer> extTypes,
                     List<byte[]> extData, byte[] userData) {

    static RecordedEvent copyOf(RawEventRecord r) {
        List<Integer> types = new ArrayList<>();
        List<byte[]> data = new ArrayList<>();
        Guid related = null;
        for (int i = 0; i < r.extendedDataCount(); i++) {
            types.add(r.extendedDataType(i));
            data.add(bytes(r.extendedData(i)));
            if (r.extendedDataType(i) == EventHeaderLayout.EXT_RELATED_ACTIVITYID) {
                related = Guid.readFrom(r.extendedData(i), 0);
            }
        }
        return new RecordedEvent(r.providerId(), r.id(), r.version(), r.channel(), r.level(), r.opcode(), r.task(), r.keyword(),
                r.processId(), r.threadId(), r.timestamp(), r.activityId(), related, types, data, bytes(r.userData()));
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    byte[] ext(int type) {
        int i = extTypes.indexOf(type);
        return i < 0 ? null : extData.get(i);
    }
}
