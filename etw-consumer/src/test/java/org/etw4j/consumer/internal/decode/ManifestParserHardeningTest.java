package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.etw4j.consumer.SchemaSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile manifests (user-supplied files, and EventSource manifests carried inside traces): the parser refuses
 * what would read outside the document or grow without bound, with an {@link IOException} naming the problem,
 * never another exception or error. Bounds (see {@link ManifestParser}): no DOCTYPE (so no entities at all),
 * elements nested at most {@link ManifestParser#MAX_ELEMENT_DEPTH} deep, at most
 * {@link ManifestParser#MAX_BYTES} bytes of XML.
 */
class ManifestParserHardeningTest {
    private static final String GUID = "{11111111-2222-3333-4444-555555555555}";

    private static String manifest(String providerBody) {
        return "<instrumentationManifest><instrumentation><events><provider name=\"P\" guid=\"" + GUID + "\">"
                + providerBody + "</provider></events></instrumentation></instrumentationManifest>";
    }

    private static IOException refused(String xml) {
        return assertThrows(IOException.class,
                () -> ManifestParser.parse(xml.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {
        "<opcodes><opcode name=\"Big\" value=\"750\"/></opcodes><events><event value=\"1\" opcode=\"Big\"/></events>",
        "<tasks><task name=\"W\" value=\"1\"><opcodes><opcode name=\"O\" value=\"256\"/></opcodes></task></tasks>",
        "<opcodes><opcode name=\"Neg\" value=\"-1\"/></opcodes>",
        "<tasks><task name=\"W\" value=\"65536\"/></tasks>",
        "<events><event value=\"65536\"/></events>",
        "<events><event value=\"1\" version=\"256\"/></events>"})
    void eventDescriptorFieldsOutsideTheirWidthAreRefused(String body) {
        // Issue 25 item 6: <opcode value="750"> was accepted (the fuzz harness then failed building a record with it).
        // EVENT_DESCRIPTOR (evntprov.h): Id and Task are USHORT, Version and Opcode UCHAR.
        IOException e = refused(manifest(body));
        assertTrue(e.getMessage().contains("is not a number in 0..") || e.getMessage().contains("without a valid value"),
                e.getMessage());
    }

    @Test
    void externalEntityIsNotRead(@TempDir Path dir) throws IOException {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET");
        IOException e = refused("<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
                + manifest("").replace("name=\"P\"", "name=\"&x;\""));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
        assertTrue(!e.getMessage().contains("TOP-SECRET"));
    }

    @Test
    void externalDtdAndParameterEntitiesAreRefused() {
        refused("<?xml version=\"1.0\"?><!DOCTYPE m SYSTEM \"http://127.0.0.1:9/x.dtd\">" + manifest(""));
        refused("<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY % p SYSTEM \"http://127.0.0.1:9/x\"> %p;]>" + manifest(""));
    }

    @Test
    void entityExpansionIsRefusedQuickly() {
        StringBuilder lol = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY l0 \"lol\">");
        for (int i = 1; i < 10; i++) {
            lol.append("<!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10)).append("\">");
        }
        String xml = lol.append("]>").append(manifest("").replace("name=\"P\"", "name=\"&l9;\"")).toString();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> refused(xml));
    }

    @Test
    void xincludeIsNotFollowed() throws IOException {
        String xml = manifest("").replace("<instrumentationManifest>",
                "<instrumentationManifest xmlns:xi=\"http://www.w3.org/2001/XInclude\">"
                        + "<xi:include href=\"file:///etc/passwd\" parse=\"text\"/>");
        List<ProviderManifest> p = ManifestParser.parse(xml.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST);
        assertEquals("P", p.get(0).name(), "xi:include stays an unknown element");
    }

    /** Structs nested 5000 deep in a template: the recursive template reader must not recurse that deep. */
    @Test
    void deeplyNestedStructsAreAnErrorNotAStackOverflow() {
        int depth = 5000;
        String t = "<struct name=\"s\" count=\"1\">".repeat(depth) + "<data name=\"x\" inType=\"win:Int8\"/>"
                + "</struct>".repeat(depth);
        IOException e = refused(manifest("<templates><template tid=\"T\">" + t + "</template></templates>"
                + "<events><event value=\"1\" template=\"T\"/></events>"));
        assertTrue(e.getMessage().contains("depth") && e.getMessage().contains("\"" + ManifestParser.MAX_ELEMENT_DEPTH + "\""),
                e.getMessage());
    }

    /** Any elements nested 200000 deep: the recursive descendant search must not recurse that deep. */
    @Test
    void deeplyNestedElementsAreAnErrorNotAStackOverflow() {
        int depth = 200_000;
        String xml = "<instrumentationManifest>" + "<a>".repeat(depth) + "<provider name=\"P\" guid=\"" + GUID + "\"/>"
                + "</a>".repeat(depth) + "</instrumentationManifest>";
        IOException e = refused(xml);
        assertTrue(e.getMessage().contains("depth") && e.getMessage().contains("\"" + ManifestParser.MAX_ELEMENT_DEPTH + "\""),
                e.getMessage());
    }

    @Test
    void nestingUpToTheBoundIsAccepted() throws IOException {
        // Root, instrumentation, events, provider, templates, template: 6 levels before the structs.
        int structs = ManifestParser.MAX_ELEMENT_DEPTH - 7;
        String t = "<struct name=\"s\">".repeat(structs) + "<data name=\"x\" inType=\"win:Int8\"/>"
                + "</struct>".repeat(structs);
        List<ProviderManifest> p = ManifestParser.parse(manifest("<templates><template tid=\"T\">" + t
                + "</template></templates><events><event value=\"1\" template=\"T\"/></events>")
                .getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST);
        assertEquals(1, p.get(0).size());
    }

    /** A stream longer than the bound is refused after reading the bound, not read to its end into memory. */
    @Test
    void oversizedManifestIsRefusedWithoutReadingItAll() {
        long[] served = {0};
        byte[] head = ("<instrumentationManifest><!--").getBytes(StandardCharsets.US_ASCII);
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0];
            }

            @Override
            public int read(byte[] b, int off, int len) {
                for (int i = 0; i < len; i++) {
                    long at = served[0]++;
                    b[off + i] = at < head.length ? head[(int) at] : (byte) 'x';
                }
                return len;
            }
        };
        IOException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> assertThrows(IOException.class, () -> ManifestParser.parse(endless, SchemaSource.MANIFEST)));
        assertTrue(e.getMessage().contains(String.valueOf(ManifestParser.MAX_BYTES)), e.getMessage());
        assertTrue(served[0] <= ManifestParser.MAX_BYTES + (1 << 20), served[0] + " bytes read");
    }

    @Test
    void theSharedClrManifestIsWithinTheBounds() throws IOException {
        Path clr = org.etw4j.testing.SharedData.resolve("manifests/ClrEtwAll.man");
        assertTrue(Files.size(clr) < ManifestParser.MAX_BYTES);
        assertTrue(ManifestParser.parse(clr).size() > 0);
        try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(clr))) {
            assertTrue(ManifestParser.parse(in, SchemaSource.MANIFEST).size() > 0);
        }
    }
}
