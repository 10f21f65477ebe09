package org.etw4j.consumer.internal.decode;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.etw4j.Guid;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Reads instrumentation manifests (the XML that {@code mc.exe} compiles, and the manifests EventSources emit)
 * into {@link ProviderManifest}s ready for decoding.
 * Stateless; thread-safe. The XML is parsed with the JDK's parser in secure-processing mode with DOCTYPEs,
 * external entities, external DTDs and XInclude refused: manifests are user-supplied and may come from the
 * trace itself. Elements are matched by local name, so the usual default namespace and none both work.
 *
 * <p>Resolution rules (etw-formats.md section 4.1; MS Learn EventManifest schema):
 * <ul>
 *   <li>{@code $(string.ID)} resolves through the stringTable of the {@code en-US} resources (else the first
 *       resources element); an unknown id keeps the raw attribute text.</li>
 *   <li>Task and opcode display names are their localized {@code message} when present, else their
 *       {@code name} - the names TDH reports and TraceEvent prints ({@code GarbageCollection} shows as
 *       {@code GC}). An event's opcode is looked up in its task's opcodes, then the provider's, then the
 *       {@code win:} predefined opcodes, which display as TraceEvent names them (Info, Start, Stop, DCStart,
 *       DCStop, Extension, Reply, Resume, Suspend, Send, Receive).</li>
 *   <li>Event names follow {@link EventSchema#traceEventName}: an event without task is named by its symbol
 *       when it has no opcode either, else {@code EventID(n)}.</li>
 *   <li>Map entries are integers in decimal or {@code 0x} hex ({@code 0x} alone means 0).</li>
 * </ul>
 */
public final class ManifestParser {

    /** win: predefined opcodes (winmeta.xml; TraceEvent DynamicTraceEventParser) with TraceEvent's display names. */
    private static final Map<String, Object[]> PREDEFINED_OPCODES = Map.ofEntries(
            Map.entry("win:Info", new Object[] {0, "Info"}),
            Map.entry("win:Start", new Object[] {1, "Start"}),
            Map.entry("win:Stop", new Object[] {2, "Stop"}),
            Map.entry("win:DC_Start", new Object[] {3, "DCStart"}),
            Map.entry("win:DC_Stop", new Object[] {4, "DCStop"}),
            Map.entry("win:Extension", new Object[] {5, "Extension"}),
            Map.entry("win:Reply", new Object[] {6, "Reply"}),
            Map.entry("win:Resume", new Object[] {7, "Resume"}),
            Map.entry("win:Suspend", new Object[] {8, "Suspend"}),
            Map.entry("win:Send", new Object[] {9, "Send"}),
            Map.entry("win:Receive", new Object[] {240, "Receive"}));

    /**
     * Deepest element nesting accepted (ClrEtwAll.man nests 7 deep; templates may nest structs a few levels):
     * the JDK parser enforces it ({@code jdk.xml.maxElementDepth}; JDK 22 has no limit by default, JDK 25 has
     * 100), and with it the depth of this class's own recursion over templates and elements.
     */
    public static final int MAX_ELEMENT_DEPTH = 64;
    /**
     * Largest manifest accepted, in bytes of XML (ClrEtwAll.man has 0.5 MB): reading stops with an
     * {@link IOException} past it, so a parse holds at most a DOM of this much XML (measured about 10 times
     * its size in heap).
     */
    public static final int MAX_BYTES = 16 << 20;

    private ManifestParser() {
    }

    /**
     * Parses a manifest file, through the {@linkplain ManifestCache#shared() shared manifest cache}: a manifest
     * parsed before (same bytes, same etw4j build) is read from its binary cache entry instead of the XML. The
     * result is the same either way ({@code ManifestCacheTest}).
     */
    public static List<ProviderManifest> parse(Path file) throws IOException {
        return ManifestCache.shared().load(file);
    }

    /** Parses manifest XML bytes (any encoding the XML declares; UTF-8 by default). */
    public static List<ProviderManifest> parse(byte[] xml, SchemaSource source) throws IOException {
        return parse(new ByteArrayInputStream(xml), source);
    }

    /**
     * Parses a manifest from a stream (not closed).
     *
     * @throws IOException when the XML is malformed or not an instrumentation manifest
     */
    public static List<ProviderManifest> parse(InputStream in, SchemaSource source) throws IOException {
        Document doc;
        try {
            doc = newBuilder().parse(new BoundedInput(in));
        } catch (SAXException e) {
            if (e.getCause() instanceof TooLarge tooLarge) {
                throw tooLarge;
            }
            throw new IOException("not well-formed manifest XML: " + e.getMessage(), e);
        }
        Element root = doc.getDocumentElement();
        Map<String, String> strings = stringTable(root);
        List<ProviderManifest> result = new ArrayList<>();
        for (Element provider : descendants(root, "provider")) {
            result.add(provider(provider, strings, source));
        }
        if (result.isEmpty()) {
            throw new IOException("no <provider> element in manifest (root element <" + localName(root) + ">)");
        }
        return result;
    }

    private static DocumentBuilder newBuilder() throws IOException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            // every node is visited once: building them as parsed is cheaper than Xerces' deferred expansion
            f.setFeature("http://apache.org/xml/features/dom/defer-node-expansion", false);
            f.setExpandEntityReferences(false);
            // JDK property (java.xml module summary, "jdk.xml.maxElementDepth"); parse fails past it.
            f.setAttribute("jdk.xml.maxElementDepth", String.valueOf(MAX_ELEMENT_DEPTH));
            DocumentBuilder b = f.newDocumentBuilder();
            // Report problems through the exception only (the default handler also prints to stderr).
            b.setErrorHandler(new org.xml.sax.ErrorHandler() {
                @Override
                public void warning(org.xml.sax.SAXParseException e) {
                }

                @Override
                public void error(org.xml.sax.SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(org.xml.sax.SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            return b;
        } catch (ParserConfigurationException e) {
            throw new IOException("the JDK XML parser refuses secure settings: " + e.getMessage(), e);
        }
    }

    /** Thrown (through the XML parser) when a manifest is longer than {@link #MAX_BYTES}. */
    private static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super("manifest larger than " + MAX_BYTES + " bytes (ManifestParser.MAX_BYTES); not read further");
        }
    }

    /** Counts what the parser reads and stops it past {@link #MAX_BYTES}; does not close the caller's stream. */
    private static final class BoundedInput extends java.io.FilterInputStream {
        private long read;

        BoundedInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            count(s);
            return s;
        }

        @Override
        public void close() {
            // the caller owns the stream
        }

        private void count(long n) throws TooLarge {
            read += n;
            if (read > MAX_BYTES) {
                throw new TooLarge();
            }
        }
    }

    private static Map<String, String> stringTable(Element root) {
        Element chosen = null;
        for (Element res : descendants(root, "resources")) {
            if (chosen == null || "en-US".equalsIgnoreCase(res.getAttribute("culture"))) {
                chosen = res;
                if ("en-US".equalsIgnoreCase(res.getAttribute("culture"))) {
                    break;
                }
            }
        }
        Map<String, String> strings = new HashMap<>();
        if (chosen != null) {
            for (Element s : descendants(chosen, "string")) {
                strings.put(s.getAttribute("id"), s.getAttribute("value"));
            }
        }
        return strings;
    }

    private record Opcode(int value, String display) {
    }

    private record Task(int value, String display, Map<String, Opcode> opcodes) {
    }

    private static ProviderManifest provider(Element p, Map<String, String> strings, SchemaSource source)
            throws IOException {
        String providerName = p.getAttribute("name");
        Guid guid;
        try {
            guid = Guid.parse(p.getAttribute("guid"));
        } catch (IllegalArgumentException e) {
            throw new IOException("provider '" + providerName + "' has no valid guid: " + e.getMessage(), e);
        }
        Map<String, Opcode> providerOpcodes = new HashMap<>();
        Map<String, Task> tasks = new HashMap<>();
        Map<String, ValueMap> maps = new HashMap<>();
        Map<String, List<FieldSpec>> templates = new HashMap<>();
        Map<Long, String> keywords = new TreeMap<>();

        for (Element child : children(p)) {
            switch (localName(child)) {
                case "opcodes" -> {
                    for (Element o : children(child, "opcode")) {
                        providerOpcodes.put(o.getAttribute("name"), opcode(o, strings));
                    }
                }
                case "tasks" -> {
                    for (Element t : children(child, "task")) {
                        Map<String, Opcode> own = new HashMap<>();
                        for (Element os : children(t, "opcodes")) {
                            for (Element o : children(os, "opcode")) {
                                own.put(o.getAttribute("name"), opcode(o, strings));
                            }
                        }
                        tasks.put(t.getAttribute("name"), new Task(field(t, "value", 0xFFFF, "task"),
                                display(t, strings), own));
                    }
                }
                case "keywords" -> {
                    for (Element k : children(child, "keyword")) {
                        keywords.put(parseLong(k.getAttribute("mask"), 0), k.getAttribute("name"));
                    }
                }
                case "maps" -> {
                    for (Element m : children(child)) {
                        String kind = localName(m);
                        if (kind.equals("valueMap") || kind.equals("bitMap")) {
                            TreeMap<Long, String> entries = new TreeMap<>();
                            for (Element e : children(m, "map")) {
                                entries.put(parseLong(e.getAttribute("value"), 0), resolve(e.getAttribute("message"),
                                        strings));
                            }
                            maps.put(m.getAttribute("name"), new ValueMap(m.getAttribute("name"),
                                    kind.equals("bitMap"), entries));
                        }
                    }
                }
                case "templates" -> {
                    for (Element t : children(child, "template")) {
                        templates.put(t.getAttribute("tid"), members(t));
                    }
                }
                default -> {
                    // channels, levels, filters: not needed for decoding
                }
            }
        }

        Map<ProviderManifest.EventKey, EventSchema> events = new LinkedHashMap<>();
        for (Element eventsEl : children(p, "events")) {
            for (Element e : children(eventsEl, "event")) {
                EventSchema s = event(e, guid, providerName, tasks, providerOpcodes, templates, maps, strings, source);
                events.put(new ProviderManifest.EventKey(s.eventId(), s.version()), s);
            }
        }
        return new ProviderManifest(guid, providerName, events, keywords, source);
    }

    private static EventSchema event(Element e, Guid guid, String providerName, Map<String, Task> tasks,
                                     Map<String, Opcode> providerOpcodes, Map<String, List<FieldSpec>> templates,
                                     Map<String, ValueMap> maps, Map<String, String> strings, SchemaSource source)
            throws IOException {
        int id = parseInt(e.getAttribute("value"), -1);
        if (id < 0 || id > 0xFFFF) {
            throw new IOException("provider '" + providerName + "': event without a valid value: '"
                    + e.getAttribute("value") + "'");
        }
        int version = field(e, "version", 0xFF, "event " + id);
        String taskAttr = attr(e, "task");
        String opcodeAttr = attr(e, "opcode");
        Task task = taskAttr == null ? null : tasks.get(taskAttr);
        String taskName = task != null ? task.display() : taskAttr;

        int opcode = 0;
        String opcodeName = "";
        if (opcodeAttr != null) {
            Opcode o = task != null ? task.opcodes().get(opcodeAttr) : null;
            if (o == null) {
                o = providerOpcodes.get(opcodeAttr);
            }
            if (o == null && PREDEFINED_OPCODES.containsKey(opcodeAttr)) {
                Object[] pre = PREDEFINED_OPCODES.get(opcodeAttr);
                o = new Opcode((Integer) pre[0], (String) pre[1]);
            }
            if (o != null) {
                opcode = o.value();
                opcodeName = o.display();
            } else {
                int colon = opcodeAttr.indexOf(':');
                opcodeName = colon >= 0 ? opcodeAttr.substring(colon + 1) : opcodeAttr;
            }
        }
        String symbol = attr(e, "symbol");
        String fallback = (opcodeAttr == null && symbol != null) ? symbol : "EventID(" + id + ")";
        String eventName = EventSchema.traceEventName(taskName, opcode, opcodeName, fallback);

        String tid = attr(e, "template");
        List<FieldSpec> fields = List.of();
        if (tid != null) {
            fields = templates.get(tid);
            if (fields == null) {
                throw new IOException("provider '" + providerName + "' event " + id + " v" + version
                        + " names unknown template '" + tid + "'");
            }
        }
        Map<String, ValueMap> used = new HashMap<>();
        collectMaps(fields, maps, used);
        String message = attr(e, "message") == null ? null : resolve(e.getAttribute("message"), strings);
        return new EventSchema(guid, providerName, id, version, task == null ? 0 : task.value(), opcode,
                taskName == null ? "" : taskName, opcodeName, eventName, message, fields, used, source);
    }

    private static void collectMaps(List<FieldSpec> fields, Map<String, ValueMap> all, Map<String, ValueMap> used) {
        for (FieldSpec f : fields) {
            if (f instanceof DataSpec d && d.mapName() != null && all.containsKey(d.mapName())) {
                used.put(d.mapName(), all.get(d.mapName()));
            } else if (f instanceof StructSpec s) {
                collectMaps(s.members(), all, used);
            }
        }
    }

    private static List<FieldSpec> members(Element parent) throws IOException {
        List<FieldSpec> fields = new ArrayList<>();
        for (Element c : children(parent)) {
            switch (localName(c)) {
                case "data" -> {
                    String name = c.getAttribute("name");
                    InType in = InType.fromManifestName(c.getAttribute("inType"));
                    if (in == null) {
                        throw new IOException("field '" + name + "': unknown inType '" + c.getAttribute("inType") + "'");
                    }
                    OutType out = OutType.fromManifestName(attr(c, "outType"));
                    fields.add(new DataSpec(name, in, out, attr(c, "map"), SizeRule.parse(attr(c, "length")),
                            SizeRule.parse(attr(c, "count"))));
                }
                case "struct" -> fields.add(new StructSpec(c.getAttribute("name"), members(c),
                        SizeRule.parse(attr(c, "count"))));
                default -> {
                    // UserData (XML rendering only) and anything unknown
                }
            }
        }
        return fields;
    }

    private static Opcode opcode(Element o, Map<String, String> strings) throws IOException {
        return new Opcode(field(o, "value", 0xFF, "opcode '" + o.getAttribute("name") + "'"), display(o, strings));
    }

    /**
     * An attribute that is a field of EVENT_DESCRIPTOR (evntprov.h: Id and Task USHORT, Version and Opcode UCHAR):
     * absent is 0, a value outside {@code 0..max} is refused (issue 25, item 6: {@code <opcode value="750">} was
     * accepted and made an event no record can carry).
     */
    private static int field(Element e, String name, int max, String what) throws IOException {
        String text = attr(e, name);
        if (text == null || text.isBlank()) {
            return 0;
        }
        long v = parseLong(text, -1);
        if (v < 0 || v > max) {
            throw new IOException(what + ": " + name + " '" + text + "' is not a number in 0.." + max);
        }
        return (int) v;
    }

    /** The localized message when there is one, else the name. */
    private static String display(Element el, Map<String, String> strings) {
        String message = attr(el, "message");
        if (message != null) {
            String resolved = resolve(message, strings);
            if (!resolved.isEmpty() && !resolved.startsWith("$(")) {
                return resolved;
            }
        }
        return el.getAttribute("name");
    }

    /** Resolves {@code $(string.ID)}; other text is returned as is. */
    static String resolve(String text, Map<String, String> strings) {
        if (text == null) {
            return null;
        }
        String t = text.trim();
        if (t.startsWith("$(string.") && t.endsWith(")")) {
            String v = strings.get(t.substring(9, t.length() - 1));
            return v != null ? v : text;
        }
        return text;
    }

    private static String attr(Element e, String name) {
        return e.hasAttribute(name) ? e.getAttribute(name) : null;
    }

    static int parseInt(String s, int dflt) {
        long v = parseLong(s, Long.MIN_VALUE);
        return v == Long.MIN_VALUE || v > 0xFFFF_FFFFL || v < Integer.MIN_VALUE ? dflt : (int) v;
    }

    static long parseLong(String s, long dflt) {
        if (s == null || s.isBlank()) {
            return dflt;
        }
        String t = s.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("0x")) {
                return t.length() == 2 ? 0 : Long.parseUnsignedLong(t.substring(2), 16);
            }
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    private static String localName(Node n) {
        String l = n.getLocalName();
        return l != null ? l : n.getNodeName();
    }

    private static List<Element> children(Element parent) {
        List<Element> l = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element el) {
                l.add(el);
            }
        }
        return l;
    }

    private static List<Element> children(Element parent, String localName) {
        List<Element> l = new ArrayList<>();
        for (Element e : children(parent)) {
            if (localName(e).equals(localName)) {
                l.add(e);
            }
        }
        return l;
    }

    private static List<Element> descendants(Element root, String localName) {
        List<Element> l = new ArrayList<>();
        collect(root, localName, l);
        return l;
    }

    private static void collect(Element e, String localName, List<Element> out) {
        for (Element c : children(e)) {
            if (localName(c).equals(localName)) {
                out.add(c);
            } else {
                collect(c, localName, out);
            }
        }
    }
}
