import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.etw4j.consumer.etl.EtlCursor;
import org.etw4j.consumer.etl.EtlFile;
import org.etw4j.consumer.etl.EtlOrder;
import org.etw4j.consumer.etl.EtlRecordView;
import org.etw4j.consumer.etl.HeaderKind;

/**
 * One line per record of an .etl file, in file order, as etw4j's reader sees it: kind, provider, time (us), and for
 * EVENT_HEADER records pid, tid, id, version, opcode, level, keyword, activity id and extended items; then the
 * user data in hex. {@code dissect_facts.py} prints the same from fox-it's dissect.etl; {@code compare.py} diffs them.
 */
public class EtlRecordFacts {
    public static void main(String[] args) throws Exception {
        try (EtlFile f = EtlFile.open(Path.of(args[0]))) {
            EtlCursor c = f.cursor(EtlOrder.FILE);
            while (c.advance()) {
                EtlRecordView r = c.record();
                StringBuilder sb = new StringBuilder();
                sb.append(r.kind()).append(' ').append(r.providerId()).append(' ');
                Instant t = r.timestampInstant().truncatedTo(ChronoUnit.MICROS);
                sb.append(t).append(' ');
                if (r.kind() == HeaderKind.EVENT_HEADER) {
                    sb.append(r.processId()).append(' ').append(r.threadId()).append(' ').append(r.eventId()).append(' ')
                      .append(r.version()).append(' ').append(r.opcode()).append(' ').append(r.level()).append(' ')
                      .append(Long.toUnsignedString(r.keyword())).append(' ').append(r.activityId()).append(' ');
                    for (int i = 0; i < r.extendedDataCount(); i++) {
                        sb.append(r.extendedDataType(i)).append(':').append(hex(r.extendedData(i))).append(',');
                    }
                    sb.append(' ');
                }
                sb.append(hex(r.userData()));
                System.out.println(sb);
            }
        }
    }
    static String hex(ByteBuffer b) {
        StringBuilder s = new StringBuilder();
        ByteBuffer d = b.duplicate();
        while (d.hasRemaining()) {
            s.append(String.format("%02x", d.get() & 0xff));
        }
        return s.toString();
    }
}
