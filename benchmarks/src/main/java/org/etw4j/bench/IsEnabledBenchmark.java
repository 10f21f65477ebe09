package org.etw4j.bench;

import java.util.concurrent.TimeUnit;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Name;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.config.Configurator;
import org.etw4j.Level;
import org.etw4j.provider.EtwProvider;
import org.etw4j.sim.SimulatedBackend;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of asking "would anyone record this?" when nobody listens: etw4j's {@code isEnabled(level, keyword)}
 * on a provider no session enables, against JFR's {@code isEnabled()}/{@code shouldCommit()} on a disabled event
 * and Log4j2's {@code isDebugEnabled()} on a logger at INFO.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class IsEnabledBenchmark {

    /** A JFR event that is disabled (no recording enables it). */
    @Name("etw4j.bench.Disabled")
    @Enabled(false)
    static final class DisabledEvent extends Event {
        int value;
    }

    private EtwProvider provider;
    private Logger logger;
    private int level = Level.INFORMATIONAL.value();
    private long keyword = 0x1;

    @Setup
    public void setUp() {
        provider = EtwProvider.builder("etw4j-bench-disabled").backend(new SimulatedBackend()).register();
        Configurator.setRootLevel(org.apache.logging.log4j.Level.INFO);
        logger = LogManager.getLogger("etw4j.bench");
    }

    @TearDown
    public void tearDown() {
        provider.close();
    }

    @Benchmark
    public boolean etw4jIsEnabled() {
        return provider.isEnabled(level, keyword);
    }

    @Benchmark
    public boolean jfrIsEnabled() {
        return new DisabledEvent().isEnabled();
    }

    @Benchmark
    public boolean jfrShouldCommit() {
        DisabledEvent e = new DisabledEvent();
        e.begin();
        e.end();
        return e.shouldCommit();
    }

    @Benchmark
    public boolean log4j2IsDebugEnabled() {
        return logger.isDebugEnabled();
    }
}
