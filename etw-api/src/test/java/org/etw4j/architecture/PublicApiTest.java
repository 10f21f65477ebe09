package org.etw4j.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.etw4j.Backend;
import org.etw4j.testing.BuildSources;
import org.junit.jupiter.api.Test;

/**
 * etw-api's export list is its promise to users (issue 19, item 7), checked two ways:
 * <ul>
 *   <li>the API is closed: no public or protected signature of a public type in a package exported to everyone
 *       names a type of a package that is not (read from the compiled module descriptor and classes, so nothing
 *       the descriptor says can drift from what is checked);</li>
 *   <li>the packages exported only to etw4j's own modules ({@code spi}, {@code format}, {@code sim}) and
 *       {@code internal} (exported to no module) are used only by the modules the descriptor names. JPMS enforces
 *       that on the module path; Spark, the benchmarks and every class-path user run without it, so this reads the
 *       sources of every module of the build, main and test, as etw-consumer's {@code InternalPackagesTest} does for
 *       the consumer's internals.</li>
 * </ul>
 */
public class PublicApiTest {

    private static final Pattern QUALIFIED = Pattern.compile("\\borg\\.etw4j\\.(spi|format|sim|internal)\\.[A-Z]\\w*");
    private static final Pattern MODULE = Pattern.compile("(?m)^\\s*(?:open\\s+)?module\\s+([\\w.]+)\\s*\\{");

    /** etw-api's compiled classes: the folder (or jar) {@link Backend} was loaded from. */
    private static Path classes() {
        try {
            return Path.of(Backend.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ModuleDescriptor descriptor() throws IOException {
        Path classes = classes();
        assertTrue(Files.isDirectory(classes), "etw-api's classes are a folder in this build: " + classes);
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }

    /** Package name to the modules it is exported to; an empty set for a package exported to everyone. */
    private static Map<String, Set<String>> exports() throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        for (ModuleDescriptor.Exports e : descriptor().exports()) {
            out.put(e.source(), new TreeSet<>(e.targets()));
        }
        return out;
    }

    private static Set<String> exportedToEveryone() throws IOException {
        return exports().entrySet().stream().filter(e -> e.getValue().isEmpty()).map(Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void fourPackagesAreExportedToEveryone() throws IOException {
        assertEquals(Set.of("org.etw4j", "org.etw4j.controller", "org.etw4j.provider", "org.etw4j.tracelogging"),
                exportedToEveryone(), "what applications call; the SPI, the byte layouts and the simulator are for"
                        + " etw4j's own modules (qualified exports)");
        Map<String, Set<String>> exports = exports();
        assertTrue(!exports.get("org.etw4j.spi").isEmpty() && !exports.get("org.etw4j.format").isEmpty()
                && !exports.get("org.etw4j.sim").isEmpty(), "spi, format and sim are exported to named modules only: " + exports);
        assertTrue(!exports.containsKey("org.etw4j.internal"), "internal is exported to no module: " + exports);
    }

    @Test
    void noPublicSignatureInAnExportedPackageNamesATypeOfAnotherPackage() throws IOException {
        Set<String> everyone = exportedToEveryone();
        List<String> offences = new ArrayList<>();
        int checked = 0;
        for (Class<?> c : publicTypes(classes(), everyone)) {
            checked++;
            for (Use use : signatures(c)) {
                String pkg = use.type().getPackageName();
                if (pkg.startsWith("org.etw4j") && !everyone.contains(pkg)) {
                    offences.add(use.toString());
                }
            }
        }
        assertTrue(checked > 60, "the scan found the public types of the exported packages: " + checked);
        assertEquals(List.of(), offences, "a type a public signature names must be exported to the same clients");
    }

    /** The rule on a made-up offender: a public method returning a type of a package that is not exported. */
    @Test
    void theSignatureScanSeesTypesInsideGenericsArraysAndSupertypes() {
        List<Class<?>> seen = signatures(Sample.class).stream().<Class<?>>map(Use::type).toList();
        assertTrue(seen.contains(Thread.State.class), "a type argument: " + seen);
        assertTrue(seen.contains(java.util.concurrent.TimeUnit.class), "an array: " + seen);
        assertTrue(seen.contains(Runnable.class), "an interface: " + seen);
        assertTrue(!seen.contains(java.util.concurrent.Executor.class), "a private member is not API: " + seen);
    }

    /** Only what {@link #signatures} reads; not etw4j API. */
    public abstract static class Sample implements Runnable {
        /** A type argument. */
        public abstract List<? extends Thread.State> states();

        /** An array. */
        public abstract java.util.concurrent.TimeUnit[] units();

        @SuppressWarnings("unused")
        private java.util.concurrent.Executor notApi;
    }

    /** A type a signature names, and where. */
    public record Use(String where, Class<?> type) {
        @Override
        public String toString() {
            return where + ": " + type.getName();
        }
    }

    /**
     * Every type a public or protected member or supertype of {@code c} names (public: etw-consumer's
     * {@code PublicFaceTest} checks its exported packages with the same scan).
     */
    public static List<Use> signatures(Class<?> c) {
        List<Use> out = new ArrayList<>();
        String n = c.getName();
        add(out, n + " extends", c.getGenericSuperclass());
        for (Type t : c.getGenericInterfaces()) {
            add(out, n + " implements", t);
        }
        for (Field f : c.getDeclaredFields()) {
            if (isApi(f.getModifiers())) {
                add(out, n + "." + f.getName(), f.getGenericType());
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (isApi(k.getModifiers())) {
                for (Type t : k.getGenericParameterTypes()) {
                    add(out, n + ".<init>", t);
                }
                for (Type t : k.getGenericExceptionTypes()) {
                    add(out, n + ".<init> throws", t);
                }
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (isApi(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                String where = n + "." + m.getName() + "()";
                add(out, where, m.getGenericReturnType());
                for (Type t : m.getGenericParameterTypes()) {
                    add(out, where, t);
                }
                for (Type t : m.getGenericExceptionTypes()) {
                    add(out, where + " throws", t);
                }
            }
        }
        return out;
    }

    private static boolean isApi(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void add(List<Use> out, String where, Type t) {
        addAll(out, where, t, new TreeSet<>());
    }

    private static void addAll(List<Use> out, String where, Type t, Set<String> seenVariables) {
        if (t instanceof Class<?> k) {
            while (k.isArray()) {
                k = k.getComponentType();
            }
            if (!k.isPrimitive()) {
                out.add(new Use(where, k));
            }
        } else if (t instanceof ParameterizedType p) {
            addAll(out, where, p.getRawType(), seenVariables);
            for (Type a : p.getActualTypeArguments()) {
                addAll(out, where, a, seenVariables);
            }
        } else if (t instanceof GenericArrayType g) {
            addAll(out, where, g.getGenericComponentType(), seenVariables);
        } else if (t instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) {
                addAll(out, where, b, seenVariables);
            }
            for (Type b : w.getLowerBounds()) {
                addAll(out, where, b, seenVariables);
            }
        } else if (t instanceof TypeVariable<?> v && seenVariables.add(v.getName())) {
            for (Type b : v.getBounds()) {
                addAll(out, where, b, seenVariables);
            }
        }
    }

    /**
     * The public top-level types of {@code packages} in the compiled {@code classes} folder, and their public nested
     * types (public: etw-consumer's {@code PublicFaceTest} lists its exported packages' types with it).
     */
    public static List<Class<?>> publicTypes(Path classes, Set<String> packages) throws IOException {
        List<Class<?>> out = new ArrayList<>();
        for (String pkg : packages) {
            Path dir = classes.resolve(pkg.replace('.', '/'));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                    String file = f.getFileName().toString();
                    if (file.endsWith(".class") && !file.contains("$") && !file.equals("package-info.class")) {
                        addPublic(out, load(pkg + "." + file.substring(0, file.length() - ".class".length())));
                    }
                }
            }
        }
        return out;
    }

    private static void addPublic(List<Class<?>> out, Class<?> c) {
        if (Modifier.isPublic(c.getModifiers())) {
            out.add(c);
            for (Class<?> nested : c.getDeclaredClasses()) {
                addPublic(out, nested);
            }
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, PublicApiTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- who uses the packages etw-api does not export to everyone ----

    /** Each module directory of the build (a pom.xml and sources) to its JPMS name, or "" without a descriptor. */
    private static Map<Path, String> modules(Path root) {
        Map<Path, String> out = new TreeMap<>();
        for (Path d : BuildSources.modules(root)) {
            Path info = d.resolve("src/main/java/module-info.java");
            Matcher m = MODULE.matcher(Files.isRegularFile(info) ? BuildSources.read(info) : "");
            out.put(d, m.find() ? m.group(1) : "");
        }
        return out;
    }

    /** The packages of {@code source} that {@code module} may not use: qualified-only packages not exported to it. */
    static List<String> forbidden(String source, String module, Map<String, Set<String>> exports) {
        List<String> out = new ArrayList<>();
        Matcher m = QUALIFIED.matcher(source);
        while (m.find()) {
            String pkg = m.group().substring(0, m.group().lastIndexOf('.'));
            Set<String> targets = exports.get(pkg);
            if (targets == null || !targets.isEmpty() && !targets.contains(module)) {
                out.add(m.group());
            }
        }
        return out;
    }

    @Test
    void onlyTheModulesTheDescriptorNamesUseSpiFormatSimAndInternal() throws IOException {
        Path root = BuildSources.root("etw-api");
        Map<String, Set<String>> exports = exports();
        Map<Path, String> modules = modules(root);
        assertTrue(modules.values().containsAll(List.of("org.etw4j.consumer", "org.etw4j.cli", "")),
                "the scan sees the module-path and the class-path modules: " + modules);
        List<String> offences = new ArrayList<>();
        Set<String> excepted = new TreeSet<>();
        for (Map.Entry<Path, String> module : modules.entrySet()) {
            if (module.getKey().getFileName().toString().equals("etw-api")) {
                continue; // its own packages
            }
            for (Path f : BuildSources.javaFiles(module.getKey())) {
                String file = BuildSources.relative(root, f);
                List<String> used = forbidden(BuildSources.read(f), module.getValue(), exports);
                String exception = NAMED_EXCEPTIONS.entrySet().stream().filter(e -> file.startsWith(e.getKey()))
                        .map(Map.Entry::getKey).findFirst().orElse(null);
                if (used.isEmpty()) {
                    continue;
                }
                if (exception != null) {
                    excepted.add(exception);
                } else {
                    offences.add(file + " uses " + new TreeSet<>(used));
                }
            }
        }
        assertEquals(List.of(), offences, "spi, format and sim are for the modules etw-api's module-info names,"
                + " internal for etw-api alone (class-path users such as Spark are not stopped by JPMS)");
        assertEquals(NAMED_EXCEPTIONS.keySet(), excepted, "a named exception that no longer needs it leaves this list");
    }

    /**
     * Folders (module or source set) allowed to use a package etw-api exports only to named modules, each with why.
     * They run on the class path, where no qualified export can name them; each is etw4j's own code, not a user's.
     */
    private static final Map<String, String> NAMED_EXCEPTIONS = Map.of(
            "benchmarks/src/main/", "JMH measures the backends' write path and the record view through the SPI"
                    + " (FfmWriteBenchmark, WriteBenchmark) and the .etl layouts, as the modules measured use them",
            "etw-fuzz/src/test/", "the fuzz tests build .etl buffers byte by byte from format's layouts",
            "etw-spark/src/main/", "Spark's .etl reader runs on the class path (no module descriptor) and reads"
                    + " extended-data item types from format.EventHeaderLayout");

    @Test
    void theUseRuleOnMadeUpSources() {
        Map<String, Set<String>> exports = Map.of("org.etw4j.spi", Set.of("org.etw4j.consumer"),
                "org.etw4j.provider", Set.of());
        String source = "import org.etw4j.spi.EtwBackend;\nimport org.etw4j.provider.EtwProvider;\n"
                + "class X { org.etw4j.internal.ServiceProviders p; }\n";
        assertEquals(List.of("org.etw4j.spi.EtwBackend", "org.etw4j.internal.ServiceProviders"),
                forbidden(source, "", exports));
        assertEquals(List.of("org.etw4j.internal.ServiceProviders"), forbidden(source, "org.etw4j.consumer", exports));
    }
}
