package org.etw4j.bench;

import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.Level;
import org.etw4j.jna.JnaBackend;
import org.etw4j.nativebindings.generated.EtwNative;
import org.etw4j.nativebindings.windows.WindowsBackend;
import org.etw4j.nativebindings.windows.WindowsLibraries;
import org.etw4j.provider.EventData;
import org.etw4j.provider.PayloadBuffer;
import org.etw4j.spi.EnableCallback;
import org.etw4j.spi.EtwBackend;
import org.etw4j.spi.EtwBackends;
import org.etw4j.spi.ProviderRegistration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@code EventWriteTransfer} of an event with three fields (int32 200, the 16-character UTF-16 string
 * {@value #PATH} with its terminating NUL, double 1.25: 46 bytes in ONE payload data block, as etw4j's
 * {@code EventWriter} sends a manifest event; the same values as {@link WriteBenchmark}) into the ETW stand-in
 * library, whose EventWriteTransfer returns ERROR_SUCCESS at once (flag {@code ETW_STANDIN_FLAG_NOOP_WRITES}):
 * what a write costs a Java program up to the point where ETW itself starts working.
 *
 * <ul>
 *   <li>{@link #ffmBackend}: {@link ProviderRegistration#write} of etw4j's FFM backend ({@link WindowsBackend}).</li>
 *   <li>{@link #jnaBackend}: the same call through etw4j's JNA backend ({@link JnaBackend}, JNA direct mapping).</li>
 *   <li>{@link #ffmRawDowncall}: the generated binding {@code EtwNative.EventWriteTransfer} with native arguments
 *       prepared once: the bare downcall, i.e. what the backend adds on top of it is the difference.</li>
 *   <li>{@link #cLoop}: one downcall to {@code EtwStandIn_WriteTransferLoop}, a C loop calling the exported
 *       EventWriteTransfer {@value #C_LOOP_CALLS} times with those arguments; reported per C call.</li>
 * </ul>
 *
 * <p>Set-up: the library is {@code benchmarks/target/native/libetw_standin.so} (built by {@code ./mvnw package}
 * where gcc exists; see {@link StandInLibrary#locate()}); its engine table is {@link NoopWriteEngine}, and both
 * backends are pointed at the same file (system properties {@value WindowsLibraries#LIBRARY_PROPERTY} and
 * {@value #JNA_LIBRARY_PROPERTY}) before they load it. Before measuring, the set-up checks that the FFM backend, JNA
 * and this class resolve EventWriteTransfer to one address (one library instance, so one engine serves all),
 * that one write through each path reaches the engine with the expected handle, descriptor and 46 payload bytes,
 * and that with no-op writes on, writes no longer reach the engine. Every benchmark counts non-zero statuses;
 * the tear-down fails the run if there was any.
 *
 * <p>Run: {@code tools/java -jar benchmarks/target/benchmarks.jar FfmWriteBenchmark -prof gc} from the repository root,
 * on JDK 22+ (the machine's JDK 25).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class FfmWriteBenchmark {
    /** EventWriteTransfer calls per {@link #cLoop} invocation. */
    static final int C_LOOP_CALLS = 1_000_000;
    /** The JNA backend's library seam (etw-jna's {@code Advapi32.LIBRARY_PROPERTY}, an internal class). */
    static final String JNA_LIBRARY_PROPERTY = "etw4j.jna.library";

    static final EventDescriptor DESCRIPTOR = EventDescriptor.builder(1).level(Level.INFORMATIONAL).keyword(0x1).build();
    static final String PATH = "/api/v1/orders/7"; // 16 characters
    static final int STATUS = 200;
    static final double MILLIS = 1.25;
    static final Guid FFM_PROVIDER = Guid.parse("6f0a3e9c-5b1d-4f7e-9a41-0c2d8e7b1f01");
    static final Guid JNA_PROVIDER = Guid.parse("6f0a3e9c-5b1d-4f7e-9a41-0c2d8e7b1f02");
    /** Nobody enables the providers (the stand-in engine never notifies). */
    private static final EnableCallback IGNORE_NOTIFICATIONS = (code, source, level, any, all, filters) -> { };

    private NoopWriteEngine engine;
    private ProviderRegistration ffm;
    private ProviderRegistration jna;
    private final EventData eventData = new EventData();
    private byte[] payload;
    private byte[] descriptorBytes;
    /** Native copies of the descriptor, the payload and its EVENT_DATA_DESCRIPTOR, for the raw call and the C loop. */
    private Arena nativeArgs;
    private MemorySegment nativeDescriptor;
    private MemorySegment nativeDataDescriptor;
    private StandInLibrary standIn;
    /** Writes that did not return ERROR_SUCCESS (C loop: failed calls); must stay 0. */
    private long failures;
    /** Writes the engine had seen at the end of the previous set-up check. */
    private long writesChecked;

    @Setup(org.openjdk.jmh.annotations.Level.Trial)
    public void setUp() throws Throwable {
        standIn = StandInLibrary.open();
        engine = new NoopWriteEngine(standIn);
        engine.install(false); // the checks below need writes to reach the engine
        String library = standIn.path.toString();
        Path alreadyLoaded = WindowsLibraries.loadedSubstitute();
        if (WindowsLibraries.isLoaded() && !standIn.path.equals(alreadyLoaded)) {
            throw new IllegalStateException("the FFM backend's library was loaded before this benchmark (" + alreadyLoaded
                    + "), not the stand-in " + library + ": run the benchmark in its own fork");
        }
        System.setProperty(WindowsLibraries.LIBRARY_PROPERTY, library);
        System.setProperty(JNA_LIBRARY_PROPERTY, library);

        WindowsBackend ffmBackend = WindowsBackend.create();
        EtwBackend jnaBackend = EtwBackends.spi(JnaBackend.create().backend());
        checkOneLibraryInstance(library);
        ffm = ffmBackend.registerProvider(FFM_PROVIDER, IGNORE_NOTIFICATIONS);
        jna = jnaBackend.registerProvider(JNA_PROVIDER, IGNORE_NOTIFICATIONS);
        require(engine.registrations() == 2, "the engine saw " + engine.registrations()
                + " EventRegister calls for the FFM and the JNA registration, 2 expected");

        payload = new PayloadBuffer(64).putInt32(STATUS).putUtf16z(PATH).putDouble(MILLIS).toByteArray();
        require(payload.length == 4 + 2 * (PATH.length() + 1) + 8, "payload of " + payload.length + " bytes");
        eventData.add(payload);
        descriptorBytes = new byte[EventDescriptor.BYTES];
        DESCRIPTOR.writeTo(descriptorBytes, 0);
        nativeArgs = Arena.ofAuto(); // the kind of arena the FFM backend's write buffers use
        nativeDescriptor = nativeArgs.allocate(EventDescriptor.BYTES, 8);
        MemorySegment.copy(descriptorBytes, 0, nativeDescriptor, ValueLayout.JAVA_BYTE, 0, descriptorBytes.length);
        MemorySegment nativePayload = nativeArgs.allocate(payload.length, 8);
        MemorySegment.copy(payload, 0, nativePayload, ValueLayout.JAVA_BYTE, 0, payload.length);
        nativeDataDescriptor = nativeArgs.allocate(16, 8); // EVENT_DATA_DESCRIPTOR: u64 Ptr, u32 Size, u8 Type...
        nativeDataDescriptor.set(ValueLayout.JAVA_LONG, 0, nativePayload.address());
        nativeDataDescriptor.set(ValueLayout.JAVA_INT, 8, payload.length);
        nativeDataDescriptor.set(ValueLayout.JAVA_INT, 12, EventData.TYPE_PAYLOAD);

        checkWritesReachEngine();
        engine.install(true);
        checkNoopWrites();
        failures = 0;
    }

    @TearDown(org.openjdk.jmh.annotations.Level.Trial)
    public void tearDown() {
        ffm.close();
        jna.close();
        System.out.printf("%n[stand-in %s] registrations=%d unregistrations=%d writes reaching the engine=%d"
                        + " (set-up checks only) upcall failures=%d failed writes=%d%n", standIn.path,
                engine.registrations(), engine.unregistrations(), engine.writesSeen(), engine.upcallFailures(), failures);
        require(failures == 0, failures + " writes did not return ERROR_SUCCESS");
        require(engine.upcallFailures() == 0, engine.upcallFailures() + " engine upcalls failed");
    }

    @Benchmark
    public int ffmBackend() {
        int status = ffm.write(DESCRIPTOR, null, null, eventData);
        if (status != 0) {
            failures++;
        }
        return status;
    }

    @Benchmark
    public int jnaBackend() {
        int status = jna.write(DESCRIPTOR, null, null, eventData);
        if (status != 0) {
            failures++;
        }
        return status;
    }

    @Benchmark
    public int ffmRawDowncall() {
        int status = EtwNative.EventWriteTransfer(NoopWriteEngine.REG_HANDLE, nativeDescriptor, MemorySegment.NULL,
                MemorySegment.NULL, 1, nativeDataDescriptor);
        if (status != 0) {
            failures++;
        }
        return status;
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP_CALLS)
    public long cLoop() throws Throwable {
        long failed = cLoop(C_LOOP_CALLS);
        failures += failed;
        return failed;
    }

    private long cLoop(long calls) throws Throwable {
        return (long) standIn.writeTransferLoop.invokeExact(calls, NoopWriteEngine.REG_HANDLE, nativeDescriptor,
                MemorySegment.NULL, MemorySegment.NULL, 1, nativeDataDescriptor);
    }

    // ---------------------------------------------------------------- set-up checks

    /**
     * The FFM backend (SymbolLookup.libraryLookup, through EtwSymbols), JNA (its own dlopen) and this class
     * (SymbolLookup.libraryLookup) must see one instance of the library, so the one engine table serves them all.
     */
    private void checkOneLibraryInstance(String library) {
        require(standIn.path.equals(WindowsLibraries.loadedSubstitute()),
                "the FFM backend loaded " + WindowsLibraries.loadedSubstitute() + ", not " + library);
        long here = standIn.eventWriteTransfer.address();
        long ffmAddress = EtwNative.EventWriteTransfer$address().address();
        long jnaAddress = Pointer.nativeValue(NativeLibrary.getInstance(library).getFunction("EventWriteTransfer"));
        require(here == ffmAddress && here == jnaAddress, String.format("EventWriteTransfer resolves to different"
                + " addresses (here 0x%x, FFM backend 0x%x, JNA 0x%x): the library is loaded more than once", here,
                ffmAddress, jnaAddress));
    }

    /** With the engine called, one write through each path arrives with the expected arguments. */
    private void checkWritesReachEngine() throws Throwable {
        // Outside an activity the backends pass NULL on a platform thread, so ETW uses the OS thread's own activity
        // id, which native code may have set (issue 21 item 6, ThreadActivityIds.forWrite), as the raw downcall and
        // the C loop do.
        checkWrite("ffmBackend", ffmBackend(), 1, false);
        checkWrite("jnaBackend", jnaBackend(), 1, false);
        checkWrite("ffmRawDowncall", ffmRawDowncall(), 1, false);
        long failed = cLoop(3);
        checkWrite("cLoop", failed == 0 ? 0 : -1, 3, false);
        require(failures == 0, failures + " writes failed during the set-up checks");
    }

    /** Compares the write(s) just made through {@code path} with what the engine recorded. */
    private void checkWrite(String path, int status, int calls, boolean activityIdPassed) {
        long seen = engine.writesSeen();
        NoopWriteEngine.SeenWrite w = engine.lastWrite();
        require(status == 0, path + ": status " + status);
        require(w != null, path + ": the write did not reach the engine");
        require(w.regHandle() == NoopWriteEngine.REG_HANDLE, path + String.format(": handle 0x%x", w.regHandle()));
        require(Arrays.equals(w.descriptor(), descriptorBytes), path + ": descriptor " + Arrays.toString(w.descriptor()));
        require(w.hasActivityId() == activityIdPassed, path + ": activity id " + (w.hasActivityId() ? "passed" : "NULL")
                + ", expected " + (activityIdPassed ? "passed" : "NULL"));
        require(!w.hasRelatedActivityId(), path + ": related activity id passed, none expected");
        require(w.userDataCount() == 1, path + ": " + w.userDataCount() + " data blocks, 1 expected");
        require(Arrays.equals(w.payload(), payload), path + ": payload " + Arrays.toString(w.payload()));
        require(seen == writesChecked + calls, path + ": the engine saw " + (seen - writesChecked) + " writes, "
                + calls + " expected");
        writesChecked = seen;
    }

    /** With ETW_STANDIN_FLAG_NOOP_WRITES, every path still succeeds and no write reaches the engine any more. */
    private void checkNoopWrites() throws Throwable {
        long seen = engine.writesSeen();
        require(ffmBackend() == 0 && jnaBackend() == 0 && ffmRawDowncall() == 0 && cLoop(3) == 0,
                "a no-op write failed");
        require(engine.writesSeen() == seen, "with no-op writes on, " + (engine.writesSeen() - seen)
                + " writes still reached the engine");
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException("FfmWriteBenchmark set-up check failed: " + message);
        }
    }
}
