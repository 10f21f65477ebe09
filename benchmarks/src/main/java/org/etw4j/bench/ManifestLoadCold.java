package org.etw4j.bench;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.etw4j.consumer.internal.decode.ManifestCache;
import org.etw4j.consumer.internal.decode.ManifestRegistry;
import org.w3c.dom.Document;

/**
 * One cold load of a manifest in a fresh JVM, as {@code etw dump --manifest} does it once per process; run it in
 * many JVMs (e.g. under hyperfine) and compare the modes of the same run. Modes: {@code xml} (the cache off:
 * parse and register, as before the cache), {@code cached} (the cache in {@code DIR}, written by an earlier run:
 * read the entry and register), {@code dom} (the JDK's bare DOM parse with the parser's secure settings, the floor
 * of any DOM-based loader). Prints the load's own time (nanoTime around it, JVM start-up excluded) in ms.
 *
 * <p>{@code java -cp benchmarks.jar org.etw4j.bench.ManifestLoadCold xml|cached|dom MANIFEST [DIR]}
 */
public final class ManifestLoadCold {
    private ManifestLoadCold() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path man = Path.of(args[1]);
        if (mode.equals("cached")) {
            System.setProperty(ManifestCache.DIRECTORY_PROPERTY, args[2]);
        } else {
            System.setProperty(ManifestCache.DIRECTORY_PROPERTY, "off");
        }
        long t0 = System.nanoTime();
        int n;
        if (mode.equals("dom")) {
            n = domParse(man).getDocumentElement().getChildNodes().getLength();
        } else {
            ManifestRegistry r = new ManifestRegistry();
            r.register(man);
            n = r.size();
        }
        long t1 = System.nanoTime();
        if (mode.equals("cached") && ManifestCache.shared().statistics().hits() == 0) {
            throw new IllegalStateException("no cache entry was read: run once to write it");
        }
        System.out.printf("%s %.1f ms (%d)%n", mode, (t1 - t0) / 1e6, n);
    }

    /** The JDK's DOM parse with the secure settings {@code ManifestParser} uses, nothing else. */
    static Document domParse(Path man) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        try (InputStream in = Files.newInputStream(man)) {
            return f.newDocumentBuilder().parse(in);
        }
    }
}
