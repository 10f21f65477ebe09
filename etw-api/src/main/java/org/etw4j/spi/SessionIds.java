package org.etw4j.spi;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.etw4j.Guid;

/**
 * Session GUIDs ({@code EVENT_TRACE_PROPERTIES.Wnode.Guid}) that prove which process of this library started a
 * session, so that stale-session clean-up stops only sessions etw4j started in a process that has since ended
 * (issue 21, item 9), never another application's session of a similar name.
 *
 * <p>Stateless apart from a sequence; thread-safe. The GUID's low 64 bits are the owner's process id (32 bits), the
 * low 20 bits of its start time in milliseconds and a 12-bit sequence; its high 64 bits are the first 8 bytes of
 * SHA-256 over a fixed label, the session name and those low 64 bits. The controller chooses a session's GUID
 * (EVENT_TRACE_PROPERTIES.Wnode.Guid at StartTrace; MS Learn, WNODE_HEADER) and ETW reports it back in
 * ControlTrace and QueryAllTraces, so the proof outlives the process. A session whose GUID does not check out was not started by etw4j (or by a version
 * before this rule) and is never called stale. This is a recognition mark, not a secret: nobody makes it by
 * accident, anyone could copy it on purpose.
 */
public final class SessionIds {
    private static final byte[] LABEL = "etw4j session id v1\0".getBytes(StandardCharsets.US_ASCII);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private SessionIds() {
    }

    /** The owner a session GUID names: its process id and the low 20 bits of its start time in milliseconds. */
    public record Owner(long pid, int startMillisLow20) {
        /** Whether that process still runs (same pid and the same start time, so not a reused pid). */
        public boolean isAlive() {
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .map(ph -> ph.info().startInstant().map(Owner::low20).orElse(-1) == startMillisLow20
                            || ph.info().startInstant().isEmpty()) // start time unknown: assume the owner lives
                    .orElse(false);
        }

        static int low20(Instant i) {
            return (int) (i.toEpochMilli() & 0xF_FFFFL);
        }
    }

    /** A new session GUID for a session named {@code name} started by this process. */
    public static Guid newSessionId(String name) {
        ProcessHandle self = ProcessHandle.current();
        int start = self.info().startInstant().map(Owner::low20).orElse(0);
        return forOwner(name, new Owner(self.pid(), start), SEQUENCE.getAndIncrement());
    }

    /** The GUID etw4j in process {@code owner} makes for session {@code name} with sequence number {@code sequence}. */
    public static Guid forOwner(String name, Owner owner, int sequence) {
        long lsb = ((owner.pid() & 0xFFFF_FFFFL) << 32) | ((long) (owner.startMillisLow20() & 0xF_FFFF) << 12)
                | (sequence & 0xFFF);
        return new Guid(mark(name, lsb), lsb);
    }

    /** The owner that {@code sessionId} proves started the session {@code name}, or empty when it proves nothing. */
    public static Optional<Owner> owner(String name, Guid sessionId) {
        if (sessionId == null || name == null || sessionId.mostSignificantBits() != mark(name, sessionId.leastSignificantBits())) {
            return Optional.empty();
        }
        long lsb = sessionId.leastSignificantBits();
        return Optional.of(new Owner(lsb >>> 32, (int) ((lsb >>> 12) & 0xF_FFFFL)));
    }

    private static long mark(String name, long lsb) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(LABEL);
            sha.update(name.getBytes(StandardCharsets.UTF_8));
            sha.update(ByteBuffer.allocate(8).putLong(lsb).array());
            return ByteBuffer.wrap(sha.digest()).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
