package org.etw4j.provider;

import java.time.Instant;
import org.etw4j.EventDescriptor;
import org.etw4j.Guid;
import org.etw4j.tracelogging.TraceLoggingEvent;

/**
 * Builds one event's payload and writes it: the allocation-free write path.
 *
 * <p>Not thread-safe and not shared: {@link EtwProvider#event} hands each thread its own instance, reset for each
 * event, so one event is built at a time per thread per provider. When the event is not enabled the writer is
 * inert: values are ignored and {@link #write()} returns ERROR_SUCCESS without touching the backend. Values are
 * appended in order with no padding (MS Learn, EventWrite function), in the wire encodings of etw-formats.md section 1.6 (the same for
 * manifest templates and TraceLogging). For TraceLogging events the values must follow the event's fields; the
 * writer does not re-check them per value (that would cost time on every write), the decoder does.
 *
 * <p>No value method throws, enabled or not (issue 22, item 4: they threw {@link IllegalArgumentException} only
 * once a session listened, so tests passed and applications failed the day tracing started). A value that cannot be
 * encoded (out of its type's range, longer than its u16 count allows, a null FILETIME, a bad byte range) marks the
 * event rejected: the following values are ignored, and {@link #write()} writes nothing and returns
 * {@code ERROR_INVALID_PARAMETER} (87), counted in {@link ProviderStatistics#failures()} and told to the provider's
 * {@link WriteErrorListener}, as every failed write is. Without a session the values are not looked at, as before.
 */
public final class EventWriter {
    private final WriteTarget target;
    /** The provider traits blob (TraceLogging provider metadata), shared; never modified. */
    private final byte[] traits;
    private final PayloadBuffer payload = new PayloadBuffer(256);
    private final EventData data = new EventData();
    private EventDescriptor descriptor;
    private TraceLoggingEvent traceLogging;
    private Guid activityId;
    private Guid relatedActivityId;
    private boolean enabled;
    /** A value of this event could not be encoded: the event is not written, and counts as a failed write. */
    private boolean rejected;

    EventWriter(WriteTarget target, byte[] traits) {
        this.target = target;
        this.traits = traits;
    }

    EventWriter begin(EventDescriptor d, TraceLoggingEvent tl, boolean on) {
        this.descriptor = d;
        this.traceLogging = tl;
        this.enabled = on;
        this.rejected = false;
        this.activityId = null;
        this.relatedActivityId = null;
        payload.reset();
        return this;
    }

    /** Whether some session wants this event (when false, everything below is a no-op). */
    public boolean isEnabled() {
        return enabled;
    }

    /** The activity id to write with (default: the thread's). */
    public EventWriter activityId(Guid id) {
        this.activityId = id;
        return this;
    }

    /** The related activity id to write with (default: none). */
    public EventWriter relatedActivityId(Guid id) {
        this.relatedActivityId = id;
        return this;
    }

    public EventWriter int8(byte v) {
        if (enabled && !rejected) {
            try {
                payload.putInt8(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter uint8(int v) {
        if (enabled && !rejected) {
            try {
                payload.putUInt8(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter int16(short v) {
        if (enabled && !rejected) {
            try {
                payload.putInt16(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter uint16(int v) {
        if (enabled && !rejected) {
            try {
                payload.putUInt16(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter int32(int v) {
        if (enabled && !rejected) {
            try {
                payload.putInt32(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter uint32(long v) {
        if (enabled && !rejected) {
            try {
                payload.putUInt32(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter int64(long v) {
        if (enabled && !rejected) {
            try {
                payload.putInt64(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter uint64(long v) {
        if (enabled && !rejected) {
            try {
                payload.putUInt64(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter float32(float v) {
        if (enabled && !rejected) {
            try {
                payload.putFloat(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter float64(double v) {
        if (enabled && !rejected) {
            try {
                payload.putDouble(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    /** A Win32 BOOL (4 bytes). */
    public EventWriter bool32(boolean v) {
        if (enabled && !rejected) {
            try {
                payload.putBool32(v);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    /** A NUL-terminated UTF-16LE string (win:UnicodeString / TlgInUNICODESTRING). */
    public EventWriter string(CharSequence s) {
        if (enabled && !rejected) {
            try {
                payload.putUtf16z(s == null ? "" : s);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    /** A NUL-terminated UTF-8 string (TlgInANSISTRING with OutType UTF8). */
    public EventWriter utf8(CharSequence s) {
        if (enabled && !rejected) {
            try {
                payload.putUtf8z(s == null ? "" : s);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    /** A counted UTF-16 string (u16 byte count, no NUL). */
    public EventWriter countedString(CharSequence s) {
        if (enabled && !rejected) {
            try {
                payload.putCountedUtf16(s == null ? "" : s);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    public EventWriter guid(Guid g) {
        if (enabled && !rejected) {
            try {
                payload.putGuid(g == null ? Guid.NULL : g);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    /** A FILETIME. */
    public EventWriter fileTime(Instant t) {
        if (enabled && !rejected) {
            try {
                payload.putFileTime(t);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    /** Counted binary (u16 length + bytes). */
    public EventWriter binary(byte[] b, int off, int len) {
        if (enabled && !rejected) {
            try {
                payload.putCountedBinary(b, off, len);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    /** Raw bytes with no length prefix (manifest win:Binary with a length field written before it). */
    public EventWriter bytes(byte[] b, int off, int len) {
        if (enabled && !rejected) {
            try {
                payload.putBytes(b, off, len);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    /** The u16 element count that precedes a variable-length array's elements. */
    public EventWriter count(int n) {
        if (enabled && !rejected) {
            try {
                payload.putCount(n);
            } catch (RuntimeException e) {
                rejected = true;
            }
        }
        return this;
    }

    /**
     * The payload buffer itself, for encodings not covered above. Use only when {@link #isEnabled()}; its methods
     * check their arguments and throw (they are the low-level layer the value methods above guard).
     */
    public PayloadBuffer payload() {
        return payload;
    }

    /** Writes with another descriptor of the same level and keyword (activity start/stop opcodes). */
    int writeWith(EventDescriptor d) {
        this.descriptor = d;
        return write();
    }

    /**
     * Writes the event ({@code EventWriteTransfer}). Returns a Win32 status; never throws.
     */
    public int write() {
        if (!enabled) {
            return target.notWritten(descriptor);
        }
        if (rejected) {
            enabled = false;
            rejected = false;
            return target.rejected(descriptor, org.etw4j.Win32Error.ERROR_INVALID_PARAMETER.code());
        }
        data.clear();
        if (traceLogging != null) {
            data.add(traits, 0, traits.length, EventData.TYPE_PROVIDER_METADATA);
            byte[] meta = traceLogging.metadataArrayUnsafe();
            data.add(meta, 0, meta.length, EventData.TYPE_EVENT_METADATA);
        }
        if (payload.length() > 0) {
            data.add(payload);
        }
        int status = target.write(descriptor, activityId, relatedActivityId, data);
        data.clear();
        enabled = false; // one write per begin
        return status;
    }
}
