package org.etw4j.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuildSourcesTest {
    @Test
    void findsThisBuildsModulesAndTheirJavaFiles() {
        Path root = BuildSources.root("etw-api");
        List<Path> modules = BuildSources.modules(root);
        List<String> names = modules.stream().map(p -> p.getFileName().toString()).toList();
        assertTrue(names.containsAll(List.of("etw-api", "etw-consumer", "etw-cli", "etw-spark", "benchmarks")), "" + names);
        assertTrue(!names.contains("etw4j-bom"), "a module without sources is not listed: " + names);
        assertEquals(names.stream().sorted().toList(), names, "in name order");

        Path api = root.resolve("etw-api");
        List<String> main = BuildSources.javaFiles(api, "main").stream().map(p -> BuildSources.relative(root, p)).toList();
        assertTrue(main.contains("etw-api/src/main/java/org/etw4j/Backend.java"), "" + main);
        assertTrue(main.stream().noneMatch(f -> f.contains("/src/test/")), "main only");
        List<String> all = BuildSources.javaFiles(api).stream().map(p -> BuildSources.relative(root, p)).toList();
        assertTrue(all.containsAll(main) && all.contains("etw-api/src/test/java/org/etw4j/testing/BuildSourcesTest.java"),
                "main and test");
        assertEquals(List.of(), BuildSources.javaFiles(api, "no-such-source-set"));
        assertTrue(BuildSources.read(api.resolve("src/main/java/module-info.java")).contains("module org.etw4j.api"));
    }

    @Test
    void aRootWithoutTheExpectedModuleFails() {
        assertThrows(AssertionError.class, () -> BuildSources.root("no-such-module"));
    }
}
