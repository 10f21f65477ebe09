package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.internal.EtlRecordEvent;
import org.etw4j.consumer.etl.HeaderKind;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

class ManifestRegistryTest {

    static ByteBuffer envelopeData(int format, int total, int number, byte[] chunk) {
        return ByteBuffer.wrap(new Bytes().u8(format).u8(1).u8(0).u8(0x5B).u16(total).u16(number).raw(chunk).get());
    }

    @Test
    void aCopyHoldsTheManifestsAndPendingChunksAndGoesOnIndependently() {
        Guid g = Guid.parse("aaaaaaaa-2222-3333-4444-666666666666");
        Guid h = Guid.parse("aaaaaaaa-2222-3333-4444-777777777777");
        byte[] xmlG = EventDecoderTest.MANIFEST.replace("11111111-2222-3333-4444-555555555555", g.toString())
                .getBytes(StandardCharsets.UTF_8);
        byte[] xmlH = EventDecoderTest.MANIFEST.replace("11111111-2222-3333-4444-555555555555", h.toString())
                .getBytes(StandardCharsets.UTF_8);
        int half = xmlH.length / 2;
        ManifestRegistry reg = new ManifestRegistry();
        assertEquals(ManifestRegistry.Offer.REGISTERED, reg.offerManifestEvent(g, 0xFFFE, envelopeData(1, 1, 0, xmlG)));
        assertEquals(ManifestRegistry.Offer.CHUNK_STORED,
                reg.offerManifestEvent(h, 0xFFFE, envelopeData(1, 2, 0, java.util.Arrays.copyOfRange(xmlH, 0, half))));
        reg.offerManifestEvent(g, 0xFFFE, envelopeData(2, 1, 0, new byte[1])); // a problem
        ManifestRegistry copy = reg.copy();
        assertEquals(reg.provider(g), copy.provider(g));
        assertEquals(reg.problems(), copy.problems());
        assertEquals(1, copy.problems().size());
        // the copy completes the manifest whose first chunk the original held; the original does not see it
        assertEquals(ManifestRegistry.Offer.REGISTERED, copy.offerManifestEvent(h, 0xFFFE,
                envelopeData(1, 2, 1, java.util.Arrays.copyOfRange(xmlH, half, xmlH.length))));
        assertEquals("Demo-Provider", copy.provider(h).name());
        assertNull(reg.provider(h));
        // and the original completes its own set independently
        assertEquals(ManifestRegistry.Offer.REGISTERED, reg.offerManifestEvent(h, 0xFFFE,
                envelopeData(1, 2, 1, java.util.Arrays.copyOfRange(xmlH, half, xmlH.length))));
        assertEquals(copy.provider(h), reg.provider(h));
    }

    @Test
    void chunksAssembleInAnyOrderAndRepeatsChangeNothing() {
        Guid g = Guid.parse("aaaaaaaa-2222-3333-4444-555555555555");
        byte[] xml = EventDecoderTest.MANIFEST.replace("11111111-2222-3333-4444-555555555555", g.toString())
                .getBytes(StandardCharsets.UTF_8);
        int third = xml.length / 3;
        ManifestRegistry reg = new ManifestRegistry();
        assertEquals(ManifestRegistry.Offer.CHUNK_STORED,
                reg.offerManifestEvent(g, 0xFFFE, envelopeData(1, 3, 0, java.util.Arrays.copyOfRange(xml, 0, third))));
        assertEquals(ManifestRegistry.Offer.CHUNK_STORED, reg.offerManifestEvent(g, 0xFFFE,
                envelopeData(1, 3, 2, java.util.Arrays.copyOfRange(xml, 2 * third, xml.length))));
        assertEquals(ManifestRegistry.Offer.REGISTERED, reg.offerManifestEvent(g, 0xFFFE,
                envelopeData(1, 3, 1, java.util.Arrays.copyOfRange(xml, third, 2 * third))));
        assertEquals("Demo-Provider", reg.provider(g).name());
        assertEquals(SchemaSource.EVENT_SOURCE_MANIFEST, reg.provider(g).source());
        assertEquals(ManifestRegistry.Offer.UNCHANGED, reg.offerManifestEvent(g, 0xFFFE, envelopeData(1, 1, 0, xml)));
        assertEquals(ManifestRegistry.Offer.NOT_A_MANIFEST, reg.offerManifestEvent(g, 12, envelopeData(1, 1, 0, xml)));
        assertEquals(ManifestRegistry.Offer.NOT_A_MANIFEST,
                reg.offerManifestEvent(g, 0xFFFE, ByteBuffer.wrap(new byte[] {1, 1, 0, 0x5A, 1, 0, 0, 0})));
    }

    @Test
    void badManifestsAreReportedNotThrown() {
        Guid g = Guid.parse("bbbbbbbb-2222-3333-4444-555555555555");
        ManifestRegistry reg = new ManifestRegistry();
        assertEquals(ManifestRegistry.Offer.FAILED,
                reg.offerManifestEvent(g, 0xFFFE, envelopeData(1, 1, 0, "<not xml".getBytes(StandardCharsets.UTF_8))));
        assertEquals(ManifestRegistry.Offer.FAILED, reg.offerManifestEvent(g, 0xFFFE, envelopeData(2, 1, 0, new byte[1])));
        assertEquals(2, reg.problems().size());
        assertEquals(0, reg.size());
    }

    @Test
    void applicationManifestsWinOverInBandOnes() throws IOException {
        ManifestRegistry reg = new ManifestRegistry();
        ManifestParser.parse(EventDecoderTest.MANIFEST.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST)
                .forEach(reg::register);
        byte[] other = EventDecoderTest.MANIFEST.replace("Demo-Provider", "Other-Name").getBytes(StandardCharsets.UTF_8);
        reg.offerManifestEvent(EventDecoderTest.PROVIDER, 0xFFFE, envelopeData(1, 1, 0, other));
        assertEquals("Demo-Provider", reg.provider(EventDecoderTest.PROVIDER).name());
    }

    /** The corpus trace with EventSource manifests in-band (PerfView, TPL and Framework event sources). */
    @Test
    void harvestsTheEventSourceManifestsOfARealTrace() throws IOException {
        EventDecoder decoder = new EventDecoder();
        Map<String, Integer> bySourceProvider = new TreeMap<>();
        List<ManifestRegistry.Offer> offers = new ArrayList<>();
        ManifestRegistry probe = new ManifestRegistry();
        int fieldErrors = 0;
        try (EtlFile etl = EtlFile.open(SharedData.resolve("etl-corpus/perfview__net.4.5.2.x64.etl"))) {
            EtlCursor c = etl.cursor();
            EtlRecordEvent r = new EtlRecordEvent();
            while (c.advance()) {
                if (c.record().kind() == HeaderKind.EVENT_HEADER && c.record().eventId() == 0xFFFE) {
                    offers.add(probe.offerManifestEvent(c.record().providerId(), 0xFFFE, c.record().userData()));
                }
                DecodedEvent e = decoder.decode(r.of(c.record()));
                if (e.source() == SchemaSource.EVENT_SOURCE_MANIFEST) {
                    bySourceProvider.merge(e.providerName(), 1, Integer::sum);
                    if (e.hasFieldErrors()) {
                        fieldErrors++;
                    }
                }
            }
        }
        assertEquals(List.of(), probe.problems());
        assertTrue(offers.contains(ManifestRegistry.Offer.REGISTERED), offers.toString());
        for (String n : List.of("PerfView", "System.Threading.Tasks.TplEventSource",
                "System.Diagnostics.Eventing.FrameworkEventSource")) {
            assertTrue(bySourceProvider.getOrDefault(n, 0) > 0, n + " events decoded: " + bySourceProvider);
        }
        assertEquals(3, decoder.manifests().size());
        assertEquals(0, fieldErrors);
        ProviderManifest tpl = decoder.manifests().provider(Guid.parse("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5"));
        assertNotNull(tpl, "TplEventSource's GUID");
        assertEquals("System.Threading.Tasks.TplEventSource", tpl.name());
        assertFalse(tpl.schemas().isEmpty());
    }
}
