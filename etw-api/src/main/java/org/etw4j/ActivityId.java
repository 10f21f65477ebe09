package org.etw4j;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.etw4j.spi.EtwBackends;

/**
 * Activity ids: the calling thread's id ({@code EventActivityIdControl} semantics, on the default backend) and
 * the decoding of the hierarchical "activity path" ids .NET's EventSource creates.
 *
 * <p>Stateless; thread-safe; every method acts on the calling thread only. A thread's activity id starts as
 * GUID_NULL and is carried by every event written without an explicit id (MS Learn, EventWrite function). For a provider on another
 * backend use {@link org.etw4j.provider.EtwProvider#activityIds()}.
 */
public final class ActivityId {
    private ActivityId() {
    }

    private static ThreadActivityIds ids() {
        return EtwBackends.getDefault().activityIds();
    }

    /** GET_ID: the calling thread's activity id. */
    public static Guid current() {
        return ids().get();
    }

    /** SET_ID: sets the thread's activity id; returns the previous one. */
    public static Guid set(Guid activityId) {
        return ids().set(activityId);
    }

    /** CREATE_ID: a new id, unique on this machine until reboot (the thread's id is unchanged). */
    public static Guid create() {
        return ids().create();
    }

    /** CREATE_SET_ID: makes a new id the thread's; returns the previous one. */
    public static Guid createAndSet() {
        return ids().createAndSet();
    }

    /**
     * The path of an EventSource activity id, e.g. {@code //1/1} or {@code /#2125233/1/273}, or {@code null} when
     * the id is not such a path. Format per etw-formats.md section 5 (TraceEvent {@code StartStopActivityComputer},
     * verified there on two vectors): the GUID as four little-endian u32 {@code u[0..3]} is a path when
     * {@code u[3] == (u[0] + u[1] + u[2] + 0x599D99AD) ^ pid} (the process is then shown as {@code #pid}) or, in the
     * older form, without {@code ^ pid}. Bytes 0-11 hold a stream of nibbles, high nibble first: 0 ends, 1-10 are
     * the value itself, 0xB marks the next value as an overflow id (shown with {@code $}), 0xC-0xF say the value
     * is in the next 1-4 bytes (little-endian); when such a code is a high nibble, the low nibble of its byte gives
     * the value's high bits. Only the two documented vectors are verified; the overflow form is not.
     *
     * @param id  the activity id
     * @param pid the process that logged it, or -1 when unknown (only the older form is recognized then)
     */
    public static String describePath(Guid id, long pid) {
        byte[] b = id.toWindowsBytes();
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long u0 = Integer.toUnsignedLong(bb.getInt(0));
        long u1 = Integer.toUnsignedLong(bb.getInt(4));
        long u2 = Integer.toUnsignedLong(bb.getInt(8));
        long u3 = Integer.toUnsignedLong(bb.getInt(12));
        long sum = (u0 + u1 + u2 + 0x599D99ADL) & 0xFFFF_FFFFL;
        StringBuilder sb = new StringBuilder("/");
        if (pid >= 0 && u3 == ((sum ^ pid) & 0xFFFF_FFFFL)) {
            sb.append('#').append(pid);
        } else if (u3 != sum) {
            return null;
        }
        String prefix = "";
        int nibble = 0;
        while (nibble < 24) {
            int byteIndex = nibble / 2;
            boolean high = nibble % 2 == 0;
            int n = high ? (b[byteIndex] & 0xFF) >>> 4 : b[byteIndex] & 0xF;
            nibble++;
            if (n == 0) {
                break;
            }
            if (n <= 0xA) {
                sb.append('/').append(prefix).append(n);
                prefix = "";
            } else if (n == 0xB) {
                prefix = "$";
            } else {
                int bytes = n - 0xB;
                if (byteIndex + 1 + bytes > 12) {
                    return null;
                }
                long value = readLe(b, byteIndex + 1, bytes);
                if (high) {
                    value |= (long) (b[byteIndex] & 0xF) << (8 * bytes);
                }
                sb.append('/').append(prefix).append(value);
                prefix = "";
                nibble = (byteIndex + 1 + bytes) * 2;
            }
        }
        return sb.toString();
    }

    private static long readLe(byte[] b, int at, int n) {
        long v = 0;
        for (int j = 0; j < n && at + j < 12; j++) {
            v |= (long) (b[at + j] & 0xFF) << (8 * j);
        }
        return v;
    }
}
