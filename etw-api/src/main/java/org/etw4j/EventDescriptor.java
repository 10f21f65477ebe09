package org.etw4j;

/**
 * {@code EVENT_DESCRIPTOR}: the metadata ETW filters and routes an event by (MS Learn, EVENT_DESCRIPTOR structure).
 *
 * <p>Immutable value; thread-safe; create once and reuse (typically as a {@code static final} constant, so
 * the write path allocates nothing). Every field is range-checked: {@code id} and {@code task} are unsigned
 * 16-bit, {@code version}, {@code channel}, {@code level} and {@code opcode} unsigned 8-bit, {@code keyword}
 * 64-bit. For manifest-based events {@code (provider, id, version)} identifies the event's field layout;
 * TraceLogging events use id 0, version 0 and channel 11.
 *
 * @param id      event id, 0-65535
 * @param version event version, 0-255
 * @param channel channel, 0-255 (0 for manifest events, 11 for TraceLogging, 12 for manifest with traits)
 * @param level   level, 0-255 (see {@link Level})
 * @param opcode  opcode, 0-255 (see {@link Opcode})
 * @param task    task, 0-65535
 * @param keyword keyword mask (see {@link Keywords})
 */
public record EventDescriptor(int id, int version, int channel, int level, int opcode, int task, long keyword) {

    /** Size of the native structure. */
    public static final int BYTES = 16;
    /** Channel TraceLogging events use ({@code WINEVENT_CHANNEL_TRACELOGGING}). */
    public static final int CHANNEL_TRACELOGGING = 11;
    /** Channel of manifest events that use provider traits. */
    public static final int CHANNEL_PROVIDER_METADATA = 12;

    /** Validates every field; the message names the field and its range. */
    public EventDescriptor {
        checkU16("id", id);
        checkU8("version", version);
        checkU8("channel", channel);
        checkU8("level", level);
        checkU8("opcode", opcode);
        checkU16("task", task);
    }

    /** A descriptor with only id, level and keyword set (version, channel, opcode, task 0). */
    public static EventDescriptor of(int id, Level level, long keyword) {
        return new EventDescriptor(id, 0, 0, level.value(), Opcode.INFO.value(), 0, keyword);
    }

    /** Starts a builder for the event with the given id. */
    public static Builder builder(int id) {
        return new Builder(id);
    }

    /** This descriptor with another opcode (used by start/stop helpers). */
    public EventDescriptor withOpcode(int newOpcode) {
        return newOpcode == opcode ? this : new EventDescriptor(id, version, channel, level, newOpcode, task, keyword);
    }

    /** The level as an enum, or {@code null} when it is not one of the named levels. */
    public Level namedLevel() {
        return Level.named(level);
    }

    /** Writes the 16-byte native layout at {@code offset}; returns {@code offset + 16}. */
    public int writeTo(byte[] dst, int offset) {
        dst[offset] = (byte) id;
        dst[offset + 1] = (byte) (id >>> 8);
        dst[offset + 2] = (byte) version;
        dst[offset + 3] = (byte) channel;
        dst[offset + 4] = (byte) level;
        dst[offset + 5] = (byte) opcode;
        dst[offset + 6] = (byte) task;
        dst[offset + 7] = (byte) (task >>> 8);
        for (int i = 0; i < 8; i++) {
            dst[offset + 8 + i] = (byte) (keyword >>> (8 * i));
        }
        return offset + BYTES;
    }

    private static void checkU8(String field, int v) {
        if (v < 0 || v > 0xFF) {
            throw new IllegalArgumentException("EventDescriptor." + field + " must be 0-255 (an unsigned byte), got " + v);
        }
    }

    private static void checkU16(String field, int v) {
        if (v < 0 || v > 0xFFFF) {
            throw new IllegalArgumentException("EventDescriptor." + field + " must be 0-65535 (an unsigned 16-bit value), got " + v);
        }
    }

    /**
     * Builds an {@link EventDescriptor} field by field.
     *
     * <p>Not thread-safe; reusable (each {@link #build()} validates and returns a new immutable descriptor).
     */
    public static final class Builder {
        private final int id;
        private int version;
        private int channel;
        private int level = Level.INFORMATIONAL.value();
        private int opcode;
        private int task;
        private long keyword;

        private Builder(int id) {
            this.id = id;
        }

        public Builder version(int v) {
            this.version = v;
            return this;
        }

        public Builder channel(int c) {
            this.channel = c;
            return this;
        }

        public Builder level(Level l) {
            this.level = l.value();
            return this;
        }

        public Builder level(int l) {
            this.level = l;
            return this;
        }

        public Builder opcode(Opcode o) {
            this.opcode = o.value();
            return this;
        }

        public Builder opcode(int o) {
            this.opcode = o;
            return this;
        }

        public Builder task(int t) {
            this.task = t;
            return this;
        }

        public Builder keyword(long k) {
            this.keyword = k;
            return this;
        }

        public Builder keyword(Keywords k) {
            this.keyword = k.mask();
            return this;
        }

        public EventDescriptor build() {
            return new EventDescriptor(id, version, channel, level, opcode, task, keyword);
        }
    }
}
