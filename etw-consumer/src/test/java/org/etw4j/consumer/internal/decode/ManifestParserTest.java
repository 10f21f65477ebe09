package org.etw4j.consumer.internal.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.etw4j.Guid;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.testing.SharedData;
import org.junit.jupiter.api.Test;

class ManifestParserTest {

    static final Guid CLR = Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    static final Guid CLR_RUNDOWN = Guid.parse("a669021c-c450-4609-a035-5af59af4df18");

    static List<ProviderManifest> clr() throws IOException {
        Path man = SharedData.resolve("manifests/ClrEtwAll.man");
        return ManifestParser.parse(man);
    }

    @Test
    void clrManifestParsesAllProvidersWithLocalizedTaskAndOpcodeNames() throws IOException {
        Map<Guid, ProviderManifest> byGuid = clr().stream().collect(Collectors.toMap(ProviderManifest::guid, p -> p));
        assertEquals(List.of("Microsoft-Windows-DotNETRuntime", "Microsoft-Windows-DotNETRuntimePrivate",
                        "Microsoft-Windows-DotNETRuntimeRundown", "Microsoft-Windows-DotNETRuntimeStress"),
                byGuid.values().stream().map(ProviderManifest::name).sorted().toList());
        ProviderManifest rt = byGuid.get(CLR);
        assertNotNull(rt);
        assertEquals(155, rt.size(), "<event> elements of the provider in ClrEtwAll.man");

        // GCCreateSegment_V1: task GarbageCollection (message "GC"), opcode GCCreateSegment (message "CreateSegment")
        EventSchema seg = rt.event(5, 1);
        assertEquals("GC/CreateSegment", seg.eventName());
        assertEquals(1, seg.task());
        assertEquals(134, seg.opcode());
        assertEquals(List.of("Address", "Size", "Type", "ClrInstanceID"),
                seg.fields().stream().map(FieldSpec::name).toList());
        DataSpec type = (DataSpec) seg.fields().get(2);
        assertEquals("GCSegmentTypeMap", type.mapName());
        assertEquals("LargeObjectHeap", seg.maps().get("GCSegmentTypeMap").label(1));
        assertEquals(OutType.HEXINT64, ((DataSpec) seg.fields().get(0)).outType());

        // win: predefined opcode names as TraceEvent prints them
        assertEquals("GC/Start", rt.event(1, 2).eventName());
        // Rundown: opcode DCEndInit's message is DCStopInit
        assertEquals("Method/DCStopInit", byGuid.get(CLR_RUNDOWN).event(148, 0).eventName());
    }

    @Test
    void structsWithCountsAndCountedArraysAreKept() throws IOException {
        ProviderManifest rt = clr().stream().filter(p -> p.guid().equals(CLR)).findFirst().orElseThrow();
        boolean sawStruct = false;
        boolean sawCountRef = false;
        for (EventSchema s : rt.schemas()) {
            for (FieldSpec f : s.fields()) {
                if (f instanceof StructSpec st && st.count().isReference()) {
                    sawStruct = true;
                }
                if (f instanceof DataSpec d && d.count().isReference()) {
                    sawCountRef = true;
                }
            }
        }
        assertTrue(sawStruct);
        assertTrue(sawCountRef);
    }

    @Test
    void doctypesAndExternalEntitiesAreRefused() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<instrumentationManifest><instrumentation><events><provider name=\"&x;\" "
                + "guid=\"{00000000-0000-0000-0000-000000000001}\"/></events></instrumentation></instrumentationManifest>";
        IOException e = assertThrows(IOException.class,
                () -> ManifestParser.parse(xxe.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST));
        assertTrue(e.getMessage().toLowerCase().contains("doctype"), e.getMessage());
    }

    @Test
    void minimalManifestWithoutNamespaceAndEventsWithoutTasks() throws IOException {
        String xml = """
                <instrumentationManifest><instrumentation><events>
                 <provider name="P" guid="{11111111-2222-3333-4444-555555555555}">
                  <opcodes><opcode name="Mine" value="11" message="$(string.op)"/></opcodes>
                  <templates><template tid="T"><data name="A" inType="win:Int32"/></template></templates>
                  <events>
                   <event value="1" symbol="Sym" template="T"/>
                   <event value="2" opcode="Mine"/>
                   <event value="3" version="2" opcode="win:Stop" symbol="X"/>
                  </events>
                 </provider></events></instrumentation>
                 <localization><resources culture="en-US"><stringTable><string id="op" value="MyOp"/></stringTable>
                 </resources></localization>
                </instrumentationManifest>""";
        ProviderManifest p = ManifestParser.parse(xml.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST).get(0);
        assertEquals("Sym", p.event(1, 0).eventName());
        assertEquals("EventID(2)", p.event(2, 0).eventName());
        assertEquals("MyOp", p.event(2, 0).opcodeName());
        assertEquals(11, p.event(2, 0).opcode());
        assertEquals(2, p.event(3, 2).opcode());
        assertEquals(p.event(3, 2), p.nearestOlder(3, 7));
        assertEquals(null, p.nearestOlder(3, 1));
    }

    @Test
    void unknownTemplateOrInTypeIsAnError() {
        String xml = "<instrumentationManifest><instrumentation><events><provider name=\"P\" "
                + "guid=\"{11111111-2222-3333-4444-555555555555}\"><templates><template tid=\"T\">"
                + "<data name=\"A\" inType=\"win:Bogus\"/></template></templates></provider></events>"
                + "</instrumentation></instrumentationManifest>";
        IOException e = assertThrows(IOException.class,
                () -> ManifestParser.parse(xml.getBytes(StandardCharsets.UTF_8), SchemaSource.MANIFEST));
        assertTrue(e.getMessage().contains("win:Bogus"));
    }
}
