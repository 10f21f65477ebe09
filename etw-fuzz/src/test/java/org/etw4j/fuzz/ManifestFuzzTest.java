package org.etw4j.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.etw4j.consumer.internal.decode.DecodedEvent;
import org.etw4j.consumer.internal.decode.EventDecoder;
import org.etw4j.consumer.internal.decode.EventSchema;
import org.etw4j.consumer.internal.decode.ManifestParser;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.etw4j.consumer.internal.decode.ProviderManifest;
import org.etw4j.consumer.SchemaSource;
import org.etw4j.consumer.etl.FuzzSeeds;
import org.etw4j.consumer.testing.TestRecord;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the instrumentation manifest parser ({@link ManifestParser}: user-supplied XML, and EventSource
 * manifests carried inside traces) and decoding with what it accepts. Seeds: the shared ClrEtwAll.man and a
 * small manifest with structs, counted arrays, maps and localized names; the saved inputs hold hostile XML
 * (external entities, entity expansion, deep nesting).
 *
 * <p>Invariants: parsing either returns providers or throws {@link IOException} (never another exception,
 * never a {@link StackOverflowError} or {@link OutOfMemoryError}, never reads a file or URL the XML names: the
 * parser refuses DOCTYPEs); each parsed event decodes a payload of 64 bytes without throwing (decoding reports
 * problems as notes).
 */
class ManifestFuzzTest {

    static final String SMALL = """
            <?xml version="1.0" encoding="UTF-8"?>
            <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
             <instrumentation><events>
              <provider name="Fuzz-Provider" guid="{11111111-2222-3333-4444-555555555555}" symbol="FUZZ">
               <tasks><task name="Work" value="1" message="$(string.task)">
                <opcodes><opcode name="Step" value="11"/></opcodes></task></tasks>
               <keywords><keyword name="K" mask="0x1"/></keywords>
               <maps><valueMap name="Color"><map value="0" message="$(string.red)"/><map value="0x1" message="Blue"/>
                </valueMap><bitMap name="Flags"><map value="0x1" message="A"/><map value="0x2" message="B"/></bitMap></maps>
               <templates>
                <template tid="T">
                 <data name="Count" inType="win:UInt16"/>
                 <data name="Values" inType="win:Int32" count="Count"/>
                 <data name="Name" inType="win:UnicodeString"/>
                 <data name="Color" inType="win:UInt32" map="Color"/>
                 <data name="Bits" inType="win:UInt32" map="Flags" outType="win:HexInt32"/>
                 <struct name="Pair" count="2"><data name="X" inType="win:Int64"/><data name="Blob" inType="win:Binary" length="4"/></struct>
                </template>
               </templates>
               <events>
                <event value="1" version="0" task="Work" opcode="Step" template="T" symbol="E1" message="$(string.msg)"/>
                <event value="2" opcode="win:Start" symbol="E2"/>
               </events>
              </provider>
             </events></instrumentation>
             <localization><resources culture="en-US"><stringTable>
              <string id="task" value="Work Task"/><string id="red" value="Red"/><string id="msg" value="n=%1"/>
             </stringTable></resources></localization>
            </instrumentationManifest>
            """;

    static Stream<Arguments> seeds() {
        return Stream.of(Arguments.of(Named.of("small", SMALL.getBytes(StandardCharsets.UTF_8))),
                Arguments.of(Named.of("ClrEtwAll.man", FuzzSeeds.clrManifest())));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"<provider ", "<template tid=", "<data name=", "<struct name=", "<event value=", "count=",
            "length=", "inType=\"win:UnicodeString\"", "map=", "$(string.", "<!DOCTYPE", "<!ENTITY", "SYSTEM",
            "<xi:include", "&#", "&amp;"})
    @FuzzTest
    void manifest(byte[] xml) {
        java.util.List<ProviderManifest> providers;
        try {
            providers = ManifestParser.parse(xml, SchemaSource.MANIFEST);
        } catch (IOException e) {
            assertNotNull(e.getMessage());
            return;
        }
        assertFalse(providers.isEmpty(), "a parse that succeeds has at least one provider");
        ManifestRegistry registry = new ManifestRegistry();
        for (ProviderManifest p : providers) {
            assertNotNull(p.guid());
            registry.register(p);
        }
        EventDecoder decoder = new EventDecoder(registry);
        byte[] payload = new byte[64];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 7 + 1);
        }
        int decoded = 0;
        for (ProviderManifest p : providers) {
            for (EventSchema s : p.schemas()) {
                if (decoded++ == 64) {
                    return; // enough: ClrEtwAll has hundreds
                }
                DecodedEvent e = decoder.decode(TestRecord.builder(p.guid()).id(s.eventId()).version(s.version())
                        .opcode(s.opcode()).task(s.task()).data(payload).build());
                assertTrue(e.undecodedLength() >= 0 && e.undecodedLength() <= payload.length);
            }
        }
    }
}
