package org.etw4j.consumer.internal.decode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.etw4j.RawEventRecord;

/**
 * A live record as a Windows backend's view presents it to decoders: a {@link RawEventRecord} (delegating its
 * header and data to another) whose {@link #eventInformation()} and {@link #eventMapInformation(String)} answer from
 * a {@link Machine}, the stand-in for the consuming machine's TDH, which counts the calls.
 *
 * <p>Test helper; not thread-safe; {@link #end()} plays the callback's return (then it cannot ask any more).
 */
final class FakeLiveRecord implements RawEventRecord {

    /** What TDH knows: TRACE_EVENT_INFO blobs by descriptor key, EVENT_MAP_INFO blobs by map name. */
    static final class Machine {
        final Map<Integer, Supplier<byte[]>> events = new HashMap<>();
        final Map<String, byte[]> maps = new HashMap<>();
        final AtomicInteger eventCalls = new AtomicInteger();
        final AtomicInteger mapCalls = new AtomicInteger();

        Machine event(int id, int version, int opcode, byte[] traceEventInfo) {
            events.put(LiveTdhSchemas.key(id, version, opcode), () -> traceEventInfo);
            return this;
        }

        /** TDH fails for this kind (the supplier throws, as the backend does for errors other than NOT_FOUND). */
        Machine failing(int id, int version, int opcode, RuntimeException e) {
            events.put(LiveTdhSchemas.key(id, version, opcode), () -> {
                throw e;
            });
            return this;
        }

        Machine map(String name, byte[] eventMapInfo) {
            maps.put(name, eventMapInfo);
            return this;
        }

        FakeLiveRecord live(RawEventRecord r) {
            return new FakeLiveRecord(r, this);
        }
    }

    private final RawEventRecord r;
    private final Machine machine;
    private boolean ended;

    private FakeLiveRecord(RawEventRecord r, Machine machine) {
        this.r = r;
        this.machine = machine;
    }

    /** The callback returned. */
    FakeLiveRecord end() {
        ended = true;
        return this;
    }

    @Override
    public boolean providesEventInformation() {
        return !ended;
    }

    @Override
    public ByteBuffer eventInformation() {
        if (ended) {
            throw new IllegalStateException("used after the callback");
        }
        machine.eventCalls.incrementAndGet();
        Supplier<byte[]> blob = machine.events.get(LiveTdhSchemas.key(r.id(), r.version(), r.opcode()));
        return blob == null ? null : ByteBuffer.wrap(blob.get()).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer eventMapInformation(String mapName) {
        if (ended) {
            throw new IllegalStateException("used after the callback");
        }
        machine.mapCalls.incrementAndGet();
        byte[] blob = machine.maps.get(mapName);
        return blob == null ? null : ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
    }

    @Override public int flags() { return r.flags(); }
    @Override public int eventProperty() { return r.eventProperty(); }
    @Override public int threadId() { return r.threadId(); }
    @Override public int processId() { return r.processId(); }
    @Override public long timestamp() { return r.timestamp(); }
    @Override public long providerIdMsb() { return r.providerIdMsb(); }
    @Override public long providerIdLsb() { return r.providerIdLsb(); }
    @Override public int id() { return r.id(); }
    @Override public int version() { return r.version(); }
    @Override public int channel() { return r.channel(); }
    @Override public int level() { return r.level(); }
    @Override public int opcode() { return r.opcode(); }
    @Override public int task() { return r.task(); }
    @Override public long keyword() { return r.keyword(); }
    @Override public int kernelTime() { return r.kernelTime(); }
    @Override public int userTime() { return r.userTime(); }
    @Override public long activityIdMsb() { return r.activityIdMsb(); }
    @Override public long activityIdLsb() { return r.activityIdLsb(); }
    @Override public int processorIndex() { return r.processorIndex(); }
    @Override public int pointerSize() { return r.pointerSize(); }
    @Override public int extendedDataCount() { return r.extendedDataCount(); }
    @Override public int extendedDataType(int index) { return r.extendedDataType(index); }
    @Override public ByteBuffer extendedData(int index) { return r.extendedData(index); }
    @Override public ByteBuffer userData() { return r.userData(); }
    @Override public int userDataLength() { return r.userDataLength(); }
}
