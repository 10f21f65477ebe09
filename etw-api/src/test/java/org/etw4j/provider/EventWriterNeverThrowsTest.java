package org.etw4j.provider;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.Win32Error;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.ProviderRegistration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every value method of {@link EventWriter} with a value it cannot encode, with a session listening and without
 * (issue 22, item 4; ../shared/hardening/java/D1WriterThrows.java): none throws; when listened the event is not
 * written, {@link EventWriter#write()} returns ERROR_INVALID_PARAMETER, the failure is counted and the
 * {@link WriteErrorListener} told; when not listened nothing happens at all. Before the fix each listened case threw
 * {@link IllegalArgumentException} into the caller.
 */
class EventWriterNeverThrowsTest {
    private static final EventDescriptor EVENT = EventDescriptor.builder(1).level(Level.INFORMATIONAL).build();
    private static final int INVALID = Win32Error.ERROR_INVALID_PARAMETER.code();

    private ProviderRegistration registration;
    private EnableCallback callback;
    private final List<Integer> writeErrors = new CopyOnWriteArrayList<>();
    private EtwProvider provider;

    @BeforeEach
    void setUp() {
        MockedBackend mocked = MockedBackend.register(EtwProvider.builder("WriterNeverThrows")
                .onWriteError((p, d, st) -> writeErrors.add(st)));
        registration = mocked.registration();
        callback = mocked.callback();
        provider = mocked.provider();
    }

    private void listen(boolean listened) {
        if (listened) {
            callback.onNotification(1, Guid.NULL, 5, -1L, 0, List.of());
        }
    }

    /** Each value method, with the audit's value it threw on. */
    static Stream<Arguments> badValues() {
        byte[] four = new byte[4];
        Stream<Arguments> values = Stream.of(
                Arguments.of("countedString(32768 chars)", (Consumer<EventWriter>) w -> w.countedString("x".repeat(32768))),
                Arguments.of("binary(65536 bytes)", (Consumer<EventWriter>) w -> w.binary(new byte[65536], 0, 65536)),
                Arguments.of("binary(null, 0, 4)", (Consumer<EventWriter>) w -> w.binary(null, 0, 4)),
                Arguments.of("binary(b, 2, 4)", (Consumer<EventWriter>) w -> w.binary(four, 2, 4)),
                Arguments.of("bytes(b, -1, 5)", (Consumer<EventWriter>) w -> w.bytes(four, -1, 5)),
                Arguments.of("bytes(null, 0, 1)", (Consumer<EventWriter>) w -> w.bytes(null, 0, 1)),
                Arguments.of("count(70000)", (Consumer<EventWriter>) w -> w.count(70000)),
                Arguments.of("count(-1)", (Consumer<EventWriter>) w -> w.count(-1)),
                Arguments.of("uint8(300)", (Consumer<EventWriter>) w -> w.uint8(300)),
                Arguments.of("uint8(-1)", (Consumer<EventWriter>) w -> w.uint8(-1)),
                Arguments.of("uint16(-1)", (Consumer<EventWriter>) w -> w.uint16(-1)),
                Arguments.of("uint16(65536)", (Consumer<EventWriter>) w -> w.uint16(65536)),
                Arguments.of("uint32(-1)", (Consumer<EventWriter>) w -> w.uint32(-1)),
                Arguments.of("uint32(2^32)", (Consumer<EventWriter>) w -> w.uint32(1L << 32)),
                Arguments.of("fileTime(null)", (Consumer<EventWriter>) w -> w.fileTime(null)),
                Arguments.of("fileTime(Instant.MIN)", (Consumer<EventWriter>) w -> w.fileTime(Instant.MIN)),
                Arguments.of("fileTime(Instant.MAX)", (Consumer<EventWriter>) w -> w.fileTime(Instant.MAX)),
                Arguments.of("string(a CharSequence that throws)", (Consumer<EventWriter>) w -> w.string(THROWING)),
                Arguments.of("utf8(a CharSequence that throws)", (Consumer<EventWriter>) w -> w.utf8(THROWING)));
        return values.flatMap(a -> Stream.of(true, false).map(listened -> Arguments.of(a.get()[0], a.get()[1], listened)));
    }

    /** A CharSequence whose length() lies: what an application's own type may do. */
    private static final CharSequence THROWING = new CharSequence() {
        @Override
        public int length() {
            return 3;
        }

        @Override
        public char charAt(int index) {
            throw new IndexOutOfBoundsException("charAt(" + index + ")");
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString");
        }
    };

    @ParameterizedTest(name = "{0}, listened={2}")
    @MethodSource("badValues")
    void aValueThatCannotBeEncodedNeverThrows(String what, Consumer<EventWriter> value, boolean listened) {
        listen(listened);
        EventWriter w = provider.event(EVENT);
        assertEquals(listened, w.isEnabled());
        assertDoesNotThrow(() -> value.accept(w.int32(7)), what);
        int status = assertDoesNotThrow(w::write);
        ProviderStatistics stats = provider.statistics();
        if (listened) {
            assertEquals(INVALID, status, what);
            assertEquals(1, stats.failures(INVALID));
            assertEquals(List.of(INVALID), writeErrors);
            verify(registration, never()).write(any(), any(), any(), any());
        } else {
            assertEquals(0, status);
            assertEquals(0, stats.failures());
            assertTrue(writeErrors.isEmpty());
        }
        // The next event of the same thread's writer is whole again.
        EventWriter next = provider.event(EVENT);
        assertEquals(0, next.uint8(200).write());
        verify(registration, times(listened ? 1 : 0)).write(any(), any(), any(), any());
    }

    @Test
    void valuesAfterARejectedOneAreIgnoredAndTheEventIsNotWritten() {
        listen(true);
        EventWriter w = provider.event(EVENT).uint8(300);
        assertDoesNotThrow(() -> w.uint16(-5).string("after").count(1 << 20));
        assertEquals(INVALID, w.write());
        assertFalse(w.isEnabled(), "one write per event");
        assertEquals(1, provider.statistics().failures());
    }
}
