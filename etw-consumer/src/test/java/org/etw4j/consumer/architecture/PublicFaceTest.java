package org.etw4j.consumer.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.etw4j.Backend;
import org.etw4j.architecture.PublicApiTest;
import org.etw4j.consumer.TraceFile;
import org.junit.jupiter.api.Test;

/**
 * etw-consumer's export list is its promise to users (issue 19, item 7): the reading API, the formatter, the raw
 * .etl tier and the model are exported; everything else is {@code org.etw4j.consumer.internal...}. Checked from the
 * compiled module descriptors and classes (nothing the descriptor says can drift from what is checked), with etw-api's
 * signature scan ({@link PublicApiTest#signatures}: generics, arrays, supertypes, public and protected members):
 * no public or protected signature of a public type in an exported package names an etw4j type that a user of
 * the module cannot see, that is, one of a package neither etw-consumer nor etw-api ({@code requires transitive})
 * exports to everyone. javac's {@code -Xlint:exports} reports the same leaks per compilation; this test keeps them
 * out of the build.
 */
class PublicFaceTest {

    private static final Set<String> EXPORTED = Set.of("org.etw4j.consumer", "org.etw4j.consumer.output",
            "org.etw4j.consumer.etl", "org.etw4j.consumer.model");

    /** The folder (or jar) {@code type}'s module was loaded from. */
    private static Path location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ModuleDescriptor descriptor(Class<?> type) {
        Set<ModuleReference> found = ModuleFinder.of(location(type)).findAll();
        assertEquals(1, found.size(), "one module at " + location(type));
        return found.iterator().next().descriptor();
    }

    /** The packages {@code descriptor} exports to everyone (no {@code to} clause). */
    private static Set<String> exportedToEveryone(ModuleDescriptor descriptor) {
        Set<String> out = new TreeSet<>();
        for (ModuleDescriptor.Exports e : descriptor.exports()) {
            if (!e.isQualified()) {
                out.add(e.source());
            }
        }
        return out;
    }

    @Test
    void fourPackagesAreExportedAndNoneIsInternal() {
        ModuleDescriptor consumer = descriptor(TraceFile.class);
        assertEquals("org.etw4j.consumer", consumer.name());
        assertEquals(EXPORTED, exportedToEveryone(consumer), "what applications call: the reading API, the formatter,"
                + " the raw .etl tier and the model");
        for (ModuleDescriptor.Exports e : consumer.exports()) {
            assertTrue(!e.source().contains(".internal") || e.isQualified(),
                    "an internal package is exported to named etw4j modules only: " + e);
        }
        assertTrue(consumer.requires().stream().anyMatch(r -> r.name().equals("org.etw4j.api")
                        && r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE)),
                "etw-api is required transitively, so its exported types may appear in the consumer's signatures");
    }

    @Test
    void noExportedSignatureNamesATypeAUserCannotSee() throws IOException {
        Set<String> visible = new TreeSet<>(exportedToEveryone(descriptor(TraceFile.class)));
        visible.addAll(exportedToEveryone(descriptor(Backend.class)));
        Map<String, Integer> publicTypes = new TreeMap<>();
        List<String> offences = new ArrayList<>();
        Path classes = location(TraceFile.class);
        assertTrue(Files.isDirectory(classes), "etw-consumer's classes are a folder in this build: " + classes);
        for (Class<?> c : PublicApiTest.publicTypes(classes, EXPORTED)) {
            if (c.getEnclosingClass() == null) {
                publicTypes.merge(c.getPackageName(), 1, Integer::sum);
            }
            for (PublicApiTest.Use use : PublicApiTest.signatures(c)) {
                String pkg = use.type().getPackageName();
                if (pkg.startsWith("org.etw4j") && !visible.contains(pkg)) {
                    offences.add(use.toString());
                }
            }
        }
        assertEquals(EXPORTED, publicTypes.keySet(), "the scan found public types in every exported package");
        assertEquals(List.of(), offences, "a type a public signature names must be exported to the same users"
                + " (public types per exported package: " + publicTypes + ")");
    }

    /** The rule on a made-up offender: an internal type a public method of an exported type returns is found. */
    @Test
    void theScanSeesAnInternalTypeInAPublicSignature() {
        List<String> named = PublicApiTest.signatures(Offender.class).stream().map(u -> u.type().getName()).toList();
        assertTrue(named.contains("org.etw4j.consumer.internal.FilePass"), "a return type: " + named);
        assertTrue(named.contains("org.etw4j.consumer.internal.decode.EventView"), "a type argument: " + named);
    }

    /** Only what the scan reads; not etw4j API. */
    public interface Offender {
        /** A return type of an internal package. */
        org.etw4j.consumer.internal.FilePass pass();

        /** An internal type inside a type argument. */
        List<? extends org.etw4j.consumer.internal.decode.EventView> views();
    }
}
