package org.etw4j.consumer.internal.decode;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.etw4j.Guid;
import org.etw4j.consumer.InType;
import org.etw4j.consumer.OutType;
import org.etw4j.consumer.SchemaSource;

/**
 * The binary form of parsed providers that {@link ManifestCache} stores: a header that names what the entry is
 * for, then tables of strings, value maps and field lists (each written once and referred to by index, as the
 * parser shares them between events), then the providers.
 * Stateless; thread-safe.
 *
 * <p>Entry layout (big-endian): {@code "ETW4JMC\0"}, u32 {@link #FORMAT_VERSION}, 32 bytes SHA-256 of the
 * manifest XML, 32 bytes code fingerprint ({@link ManifestCache}), u8 {@link SchemaSource} ordinal, u32 payload
 * length, 32 bytes HMAC-SHA256 of everything before it and of the payload under the cache's own key, payload.
 * {@link #decode} accepts an entry only when every header field matches what the caller expects, the length is
 * exact and the MAC matches; any other entry (truncated, corrupt, from another manifest or another etw4j build,
 * or edited by someone without the key) is rejected, never half-read. The MAC binds the payload to the manifest
 * digest in the header: a plain SHA-256 of the payload (format 1) only caught corruption, and an entry edited with
 * its digest recomputed was accepted (issue 22, item 8).
 */
final class ManifestCacheCodec {
    /** Bumped whenever the layout below changes (the code fingerprint also changes then). */
    static final int FORMAT_VERSION = 2;
    private static final byte[] MAGIC = "ETW4JMC\0".getBytes(StandardCharsets.US_ASCII);
    private static final int DIGEST = 32;
    static final int HEADER_SIZE = MAGIC.length + 4 + DIGEST + DIGEST + 1 + 4 + DIGEST;

    private static final byte DATA = 0;
    private static final byte STRUCT = 1;

    private ManifestCacheCodec() {
    }

    /** Thrown by {@link #decode} for an entry that must not be used; the message says why. */
    static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;

        Rejected(String why) {
            super(why, null, false, false);
        }
    }

    // ------------------------------------------------------------------------------------------ encoding

    /**
     * The entry for {@code providers}, or {@code null} when they hold a string UTF-8 cannot carry exactly (an
     * unpaired surrogate): such a manifest is not cached rather than cached differently.
     */
    static byte[] encode(List<ProviderManifest> providers, byte[] manifestDigest, byte[] fingerprint,
                         SchemaSource source, byte[] key) {
        Writer w = new Writer();
        try {
            w.providers(providers);
        } catch (NotExact e) {
            return null;
        }
        byte[] payload = w.payload();
        ByteBuffer out = ByteBuffer.allocate(HEADER_SIZE + payload.length);
        out.put(MAGIC).putInt(FORMAT_VERSION).put(manifestDigest).put(fingerprint).put((byte) source.ordinal())
                .putInt(payload.length);
        int macAt = out.position();
        out.put(new byte[DIGEST]).put(payload);
        byte[] entry = out.array();
        System.arraycopy(mac(key, entry), 0, entry, macAt, DIGEST);
        return entry;
    }

    private static final class NotExact extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotExact() {
            super(null, null, false, false);
        }
    }

    /** Interns strings, value maps and field lists into their tables while the providers are written. */
    private static final class Writer {
        private final Map<String, Integer> stringIndex = new HashMap<>();
        private final ByteArrayOutputStream strings = new ByteArrayOutputStream();
        private final Map<ValueMap, Integer> mapIndex = new IdentityHashMap<>();
        private final ByteArrayOutputStream maps = new ByteArrayOutputStream();
        private final Map<List<FieldSpec>, Integer> listIndex = new IdentityHashMap<>();
        private final ByteArrayOutputStream lists = new ByteArrayOutputStream();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final DataOutputStream stringsOut = new DataOutputStream(strings);
        private final DataOutputStream mapsOut = new DataOutputStream(maps);
        private final DataOutputStream listsOut = new DataOutputStream(lists);
        private final DataOutputStream bodyOut = new DataOutputStream(body);

        void providers(List<ProviderManifest> providers) {
            try {
                bodyOut.writeInt(providers.size());
                for (ProviderManifest p : providers) {
                    guid(bodyOut, p.guid());
                    bodyOut.writeInt(string(p.name()));
                    bodyOut.writeByte(p.source().ordinal());
                    bodyOut.writeInt(p.keywords().size());
                    for (Map.Entry<Long, String> k : p.keywords().entrySet()) {
                        bodyOut.writeLong(k.getKey());
                        bodyOut.writeInt(string(k.getValue()));
                    }
                    bodyOut.writeInt(p.events().size());
                    for (Map.Entry<ProviderManifest.EventKey, EventSchema> e : p.events().entrySet()) {
                        bodyOut.writeInt(e.getKey().id());
                        bodyOut.writeInt(e.getKey().version());
                        schema(e.getValue());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e); // in-memory streams do not fail
            }
        }

        private void schema(EventSchema s) throws IOException {
            DataOutputStream o = bodyOut;
            guid(o, s.providerId());
            o.writeInt(string(s.providerName()));
            o.writeInt(s.eventId());
            o.writeInt(s.version());
            o.writeInt(s.task());
            o.writeInt(s.opcode());
            o.writeInt(string(s.taskName()));
            o.writeInt(string(s.opcodeName()));
            o.writeInt(string(s.eventName()));
            o.writeInt(string(s.message()));
            o.writeInt(list(s.fields()));
            o.writeInt(s.maps().size());
            for (Map.Entry<String, ValueMap> m : s.maps().entrySet()) {
                o.writeInt(string(m.getKey()));
                o.writeInt(valueMap(m.getValue()));
            }
            o.writeByte(s.source().ordinal());
        }

        /** Index + 1 of the string in the table; 0 for {@code null}. */
        private int string(String s) throws IOException {
            if (s == null) {
                return 0;
            }
            Integer known = stringIndex.get(s);
            if (known != null) {
                return known;
            }
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            if (!new String(utf8, StandardCharsets.UTF_8).equals(s)) {
                throw new NotExact();
            }
            stringsOut.writeInt(utf8.length);
            stringsOut.write(utf8);
            int index = stringIndex.size() + 1;
            stringIndex.put(s, index);
            return index;
        }

        private int valueMap(ValueMap m) throws IOException {
            Integer known = mapIndex.get(m);
            if (known != null) {
                return known;
            }
            int name = string(m.name());
            mapsOut.writeInt(name);
            mapsOut.writeBoolean(m.bitMap());
            mapsOut.writeInt(m.entries().size());
            for (Map.Entry<Long, String> e : m.entries().entrySet()) {
                mapsOut.writeLong(e.getKey());
                mapsOut.writeInt(string(e.getValue()));
            }
            int index = mapIndex.size();
            mapIndex.put(m, index);
            return index;
        }

        /** Index of the list in the table; nested struct member lists get lower indexes than their parent. */
        private int list(List<FieldSpec> fields) throws IOException {
            Integer known = listIndex.get(fields);
            if (known != null) {
                return known;
            }
            int[] members = new int[fields.size()];
            for (int i = 0; i < members.length; i++) {
                if (fields.get(i) instanceof StructSpec s) {
                    members[i] = list(s.members());
                }
            }
            // Written after the nested lists, so the reader can build lists in table order.
            DataOutputStream o = listsOut;
            o.writeInt(fields.size());
            for (int i = 0; i < members.length; i++) {
                FieldSpec f = fields.get(i);
                if (f instanceof DataSpec d) {
                    o.writeByte(DATA);
                    o.writeInt(string(d.name()));
                    o.writeShort(d.inType().ordinal());
                    o.writeShort(d.outType().ordinal());
                    o.writeInt(string(d.mapName()));
                    sizeRule(o, d.length());
                    sizeRule(o, d.count());
                    o.writeBoolean(d.optional());
                } else {
                    StructSpec s = (StructSpec) f;
                    o.writeByte(STRUCT);
                    o.writeInt(string(s.name()));
                    o.writeInt(members[i]);
                    sizeRule(o, s.count());
                }
            }
            int index = listIndex.size();
            listIndex.put(fields, index);
            return index;
        }

        private void sizeRule(DataOutputStream o, SizeRule r) throws IOException {
            o.writeInt(r.literal());
            o.writeInt(string(r.fieldName()));
        }

        private static void guid(DataOutputStream o, Guid g) throws IOException {
            o.writeLong(g.mostSignificantBits());
            o.writeLong(g.leastSignificantBits());
        }

        byte[] payload() {
            ByteBuffer b = ByteBuffer.allocate(12 + strings.size() + maps.size() + lists.size() + body.size());
            b.putInt(stringIndex.size()).put(strings.toByteArray());
            b.putInt(mapIndex.size()).put(maps.toByteArray());
            b.putInt(listIndex.size()).put(lists.toByteArray());
            b.put(body.toByteArray());
            return b.array();
        }
    }

    // ------------------------------------------------------------------------------------------ decoding

    /**
     * The providers of an entry.
     *
     * @throws Rejected when the entry is not exactly one written by {@link #encode} for these expectations
     */
    static List<ProviderManifest> decode(byte[] entry, byte[] manifestDigest, byte[] fingerprint,
                                         SchemaSource source, byte[] key) throws Rejected {
        if (entry.length < HEADER_SIZE) {
            throw new Rejected("entry of " + entry.length + " bytes is shorter than its " + HEADER_SIZE
                    + "-byte header");
        }
        ByteBuffer b = ByteBuffer.wrap(entry);
        if (!Arrays.equals(entry, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new Rejected("not a manifest cache entry (magic)");
        }
        b.position(MAGIC.length);
        int version = b.getInt();
        if (version != FORMAT_VERSION) {
            throw new Rejected("format version " + version + ", this build reads " + FORMAT_VERSION);
        }
        if (!region(b, manifestDigest)) {
            throw new Rejected("entry of another manifest (SHA-256 differs)");
        }
        if (!region(b, fingerprint)) {
            throw new Rejected("entry of another etw4j build (code fingerprint differs)");
        }
        if (b.get() != source.ordinal()) {
            throw new Rejected("entry for another schema source");
        }
        int length = b.getInt();
        if (length != entry.length - HEADER_SIZE) {
            throw new Rejected("payload of " + (entry.length - HEADER_SIZE) + " bytes, the header says " + length
                    + " (truncated or extended)");
        }
        byte[] stored = new byte[DIGEST];
        b.get(stored);
        if (!MessageDigest.isEqual(stored, mac(key, entry))) {
            throw new Rejected("entry does not match its MAC (corrupt, or written with another key)");
        }
        try {
            List<ProviderManifest> result = new Reader(b).providers();
            if (b.hasRemaining()) {
                throw new Rejected(b.remaining() + " bytes after the last provider");
            }
            return result;
        } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException
                 | NullPointerException | ClassCastException e) {
            throw new Rejected("payload does not decode: " + e);
        }
    }

    private static boolean region(ByteBuffer b, byte[] expected) {
        int at = b.position();
        b.position(at + DIGEST);
        return expected.length == DIGEST && Arrays.equals(b.array(), at, at + DIGEST, expected, 0, DIGEST);
    }

    private static final class Reader {
        private static final InType[] IN_TYPES = InType.values();
        private static final OutType[] OUT_TYPES = OutType.values();
        private static final SchemaSource[] SOURCES = SchemaSource.values();
        private final ByteBuffer b;
        private final String[] strings;
        private final ValueMap[] maps;
        private final List<List<FieldSpec>> lists;

        Reader(ByteBuffer b) throws Rejected {
            this.b = b;
            strings = new String[count() + 1];
            for (int i = 1; i < strings.length; i++) {
                int n = count();
                strings[i] = new String(b.array(), b.position(), n, StandardCharsets.UTF_8);
                b.position(b.position() + n);
            }
            maps = new ValueMap[count()];
            for (int i = 0; i < maps.length; i++) {
                String name = string();
                boolean bitMap = bool();
                int n = count();
                TreeMap<Long, String> entries = new TreeMap<>();
                for (int j = 0; j < n; j++) {
                    entries.put(b.getLong(), string());
                }
                maps[i] = new ValueMap(name, bitMap, entries);
            }
            int listCount = count();
            lists = new ArrayList<>(listCount);
            for (int i = 0; i < listCount; i++) {
                int n = count();
                List<FieldSpec> fields = new ArrayList<>(n);
                for (int j = 0; j < n; j++) {
                    byte tag = b.get();
                    if (tag == DATA) {
                        fields.add(new DataSpec(string(), IN_TYPES[b.getShort()], OUT_TYPES[b.getShort()], string(),
                                sizeRule(), sizeRule(), bool()));
                    } else if (tag == STRUCT) {
                        String name = string();
                        int members = b.getInt();
                        if (members < 0 || members >= i) {
                            throw new Rejected("struct refers to field list " + members + " from list " + i);
                        }
                        fields.add(new StructSpec(name, lists.get(members), sizeRule()));
                    } else {
                        throw new Rejected("unknown field tag " + tag);
                    }
                }
                lists.add(List.copyOf(fields));
            }
        }

        List<ProviderManifest> providers() throws Rejected {
            int n = count();
            List<ProviderManifest> result = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Guid guid = guid();
                String name = string();
                SchemaSource source = SOURCES[b.get()];
                int keywordCount = count();
                Map<Long, String> keywords = new HashMap<>();
                for (int k = 0; k < keywordCount; k++) {
                    keywords.put(b.getLong(), string());
                }
                int eventCount = count();
                Map<ProviderManifest.EventKey, EventSchema> events = new LinkedHashMap<>();
                for (int e = 0; e < eventCount; e++) {
                    ProviderManifest.EventKey key = new ProviderManifest.EventKey(b.getInt(), b.getInt());
                    events.put(key, schema());
                }
                result.add(new ProviderManifest(guid, name, events, keywords, source));
            }
            return List.copyOf(result);
        }

        private EventSchema schema() throws Rejected {
            Guid provider = guid();
            String providerName = string();
            int id = b.getInt();
            int version = b.getInt();
            int task = b.getInt();
            int opcode = b.getInt();
            String taskName = string();
            String opcodeName = string();
            String eventName = string();
            String message = string();
            List<FieldSpec> fields = lists.get(b.getInt());
            int mapCount = count();
            Map<String, ValueMap> used = new HashMap<>();
            for (int m = 0; m < mapCount; m++) {
                used.put(string(), maps[b.getInt()]);
            }
            return new EventSchema(provider, providerName, id, version, task, opcode, taskName, opcodeName,
                    eventName, message, fields, used, SOURCES[b.get()]);
        }

        /** A count or length: never negative, never more than the bytes left (each item takes at least one). */
        private int count() throws Rejected {
            int n = b.getInt();
            if (n < 0 || n > b.remaining()) {
                throw new Rejected("count " + n + " with " + b.remaining() + " bytes left");
            }
            return n;
        }

        private String string() {
            return strings[b.getInt()];
        }

        private boolean bool() throws Rejected {
            byte v = b.get();
            if (v != 0 && v != 1) {
                throw new Rejected("boolean byte " + v);
            }
            return v == 1;
        }

        private SizeRule sizeRule() {
            return new SizeRule(b.getInt(), string());
        }

        private Guid guid() {
            return new Guid(b.getLong(), b.getLong());
        }
    }

    /** HMAC-SHA256 under {@code key} of an entry's bytes with its MAC field taken as zeros. */
    static byte[] mac(byte[] key, byte[] entry) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            int macAt = HEADER_SIZE - DIGEST;
            mac.update(entry, 0, macAt);
            mac.update(new byte[DIGEST]);
            mac.update(entry, HEADER_SIZE, entry.length - HEADER_SIZE);
            return mac.doFinal();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has HmacSHA256 (javax.crypto.Mac)", e);
        }
    }

    static byte[] sha256(byte[] data) {
        return sha256(ByteBuffer.wrap(data));
    }

    static byte[] sha256(ByteBuffer data) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(data);
            return md.digest();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256 (java.security.MessageDigest)", e);
        }
    }
}
